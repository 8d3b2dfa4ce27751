package dev.gslb.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What the CLI subcommands use to talk to a running server's admin API. */
public final class AdminClient {
    public record Reply(int status, String body) {
        public boolean ok() {
            return status / 100 == 2;
        }
    }

    private final String base;
    private final String token;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    /** A client of the API at {@code base}; {@code token} (null: none) goes in every request. */
    public AdminClient(String base, String token) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.token = token;
    }

    public Reply get(String pathAndQuery) throws IOException {
        return send(request(pathAndQuery).GET());
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery));
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    public Reply post(String path, String json) throws IOException {
        return send(request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private Reply send(HttpRequest.Builder request) throws IOException {
        try {
            HttpResponse<String> r =
                    http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        } catch (ConnectException e) {
            throw new IOException("cannot reach the admin API at " + base + "; is `gslb serve` running?");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
