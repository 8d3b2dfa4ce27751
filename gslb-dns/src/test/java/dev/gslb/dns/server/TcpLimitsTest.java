package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** TCP connections beyond the cap, and idle ones, are closed by the server. */
class TcpLimitsTest {
    @Test
    void closesConnectionsAboveTheCapAndIdleOnes() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(
                ExampleDeployment.listener(2).withTcpLimits(Duration.ofMillis(500), Duration.ofSeconds(2), 2, 64),
                dev.gslb.dns.answer.AnswerSettings.DEFAULTS)) {
            var a = d.address();
            try (Socket s1 = new Socket(a.getAddress(), a.getPort());
                    Socket s2 = new Socket(a.getAddress(), a.getPort());
                    Socket s3 = new Socket(a.getAddress(), a.getPort())) {
                s3.setSoTimeout(2000);
                assertThat(s3.getInputStream().read())
                        .as("third connection closed at once")
                        .isEqualTo(-1);
                s1.setSoTimeout(3000);
                InputStream in = s1.getInputStream();
                assertThat(in.read())
                        .as("idle connection closed before the read timeout")
                        .isEqualTo(-1);
            }
            assertThat(d.registry
                            .get("dns_dropped")
                            .tag("reason", "tcp_connection_limit")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
        }
    }
}
