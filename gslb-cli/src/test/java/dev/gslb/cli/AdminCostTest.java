package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.server.GslbServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What one admin request costs, token and role checked: GETs one after another on one connection,
 * timed by the client. Prints figures and asserts none (README "Users and roles"); more requests
 * with -Dgslb.admin-cost.requests=N.
 */
class AdminCostTest {
    private static final String PATH = "/peer/list"; // needs a token, answers little: the check shows

    @Test
    void printsTheCostOfOneRequest() throws Exception {
        int n = Integer.getInteger("gslb.admin-cost.requests", 2000);
        try (GslbServer server = Isolated.started()) {
            HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest get = HttpRequest.newBuilder(URI.create(Isolated.adminUrl(server) + PATH))
                    .header("Authorization", Isolated.bearer(server))
                    .build();
            for (int i = 0; i < Math.max(2000, n / 5); i++) { // warm-up: the JIT, the connection
                assertThat(http.send(get, HttpResponse.BodyHandlers.ofString()).statusCode())
                        .isEqualTo(200);
            }
            long[] micros = new long[n];
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                assertThat(http.send(get, HttpResponse.BodyHandlers.ofString()).statusCode())
                        .isEqualTo(200);
                micros[i] = (System.nanoTime() - t) / 1000;
            }
            long total = (System.nanoTime() - start) / 1000;
            Arrays.sort(micros);
            System.out.printf(
                    "admin API GET %s with a token: %d requests, mean %d us, p50 %d us, p99 %d us%n",
                    PATH, n, total / n, micros[n / 2], micros[n * 99 / 100]);
        }
    }
}
