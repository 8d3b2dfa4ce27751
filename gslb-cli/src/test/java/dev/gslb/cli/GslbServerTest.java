package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.GslbConfig;
import dev.gslb.server.GslbServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Lookup;
import org.xbill.DNS.Record;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/** The embedded default, wired as `gslb serve` wires it, answers DNS and the admin API. */
class GslbServerTest {
    @Test
    void embeddedDefaultServesTheWideIpHealthAndMetrics() throws Exception {
        GslbConfig cfg = Isolated.embedded();
        try (GslbServer server = new GslbServer(cfg)) {
            server.start();
            SimpleResolver resolver =
                    new SimpleResolver(server.dns().boundAddresses().getFirst());
            Lookup lookup = new Lookup("www.example.com.", Type.A);
            lookup.setResolver(resolver);
            lookup.setCache(null);
            Record[] answer = lookup.run();
            assertThat(answer).extracting(Record::rdataToString).containsExactly("202.106.83.177");

            HttpClient http = HttpClient.newHttpClient();
            String admin = "http://" + server.admin().address();
            HttpResponse<String> health = http.send(
                    HttpRequest.newBuilder(URI.create(admin + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"up\"", "\"dataCenter\":\"CNC\"", "\"wideIps\":1");
            HttpResponse<String> metrics = http.send(
                    HttpRequest.newBuilder(URI.create(admin + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.body()).contains("gslb_dns_responses_total{rcode=\"noerror\",transport=\"udp\"} 1.0");
        }
    }
}
