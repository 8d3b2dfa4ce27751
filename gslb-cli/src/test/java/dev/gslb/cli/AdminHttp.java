package dev.gslb.cli;

import dev.gslb.probe.store.StateFile;
import dev.gslb.server.GslbServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Requests to a test server's admin API with a given token (null: none), over real HTTP. */
final class AdminHttp {
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;

    AdminHttp(GslbServer server) {
        this.base = Isolated.adminUrl(server);
    }

    HttpResponse<String> post(String token, String path, String body) throws Exception {
        return send(
                token,
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> get(String token, String path) throws Exception {
        return send(token, HttpRequest.newBuilder(URI.create(base + path)));
    }

    private HttpResponse<String> send(String token, HttpRequest.Builder b) throws Exception {
        return http.send(
                (token == null ? b : b.header("Authorization", "Bearer " + token)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A file holding {@code token}, mode 600, as a user keeps it for --token-file. */
    static Path tokenFile(String token) throws Exception {
        Path f = Files.createTempDirectory("user").resolve("token");
        StateFile.createPrivate(f, (token + "\n").getBytes(StandardCharsets.US_ASCII));
        return f;
    }
}
