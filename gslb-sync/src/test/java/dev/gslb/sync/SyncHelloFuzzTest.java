package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * What anyone who completes TLS while a pairing waits may send: before the join secret is checked
 * the listener reads one frame ({@link Wire#readHello}) and decodes it as a hello. Whatever the
 * bytes, that read takes at most a hello's bound from the connection (so it never allocates more)
 * and refuses everything else with an {@link IOException}. A class of its own: Jazzer fuzzes one
 * target per run. Seeds: SyncHelloFuzzTestInputs.
 */
class SyncHelloFuzzTest {
    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void aHelloBeforeAuthenticationIsReadWithinItsBoundOrRefused(byte[] data) {
        ByteArrayInputStream bytes = new ByteArrayInputStream(data);
        try {
            Hello h = Hello.decode(Wire.readHello(new DataInputStream(bytes)));
            assertThat(h.encode().length)
                    .as("what was read encodes within the bound")
                    .isLessThanOrEqualTo(Hello.MAX_BYTES);
        } catch (IOException refused) {
            // not a hello, too long, malformed or cut short: the connection would be closed
        }
        assertThat(data.length - bytes.available())
                .as("bytes read before authentication")
                .isLessThanOrEqualTo(5 + Hello.MAX_BYTES);
    }
}
