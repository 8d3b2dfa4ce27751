package dev.gslb.dns.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Zone files that must not be served are refused with file and line. */
class ZoneFileTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static final String HEAD = """
            $ORIGIN test.example.
            $TTL 300
            @ IN SOA ns1 hostmaster 1 3600 900 604800 60
              IN NS ns1
            ns1 IN A 192.0.2.1
            """;

    @Test
    void loadsTheShippedExampleZone() throws Exception {
        Zone z = ZoneFile.load(Path.of("../zones/example.com.zone"), null);
        assertThat(z.origin().toString()).isEqualTo("example.com.");
        assertThat(z.recordCount()).isGreaterThan(20);
    }

    @Test
    void syntaxErrorsNameFileAndLine() throws Exception {
        Path p = write("test.example.zone", HEAD + "bad IN A 300.1.2.3\n");
        assertThatThrownBy(() -> ZoneFile.load(p, null))
                .isInstanceOf(ZoneException.class)
                .hasMessageContaining(p + ":6:");
    }

    @Test
    void aGenerateRangePastTheBoundIsRefusedAtItsLineBeforeItsRecordsAreMade() throws Exception {
        Path p = write(
                "test.example.zone",
                HEAD + "$GENERATE 1-60000 a$ A 192.0.2.1\n$generate 1-888888883 host$ A 192.0.2.2\n");
        assertThatThrownBy(() -> ZoneFile.load(p, null))
                .hasMessageContaining(p + ":7: $GENERATE lines make more than " + ZoneFile.MAX_GENERATED + " records");
        Path fits = write("test.example.zone", HEAD + "$GENERATE 1-1000/2 a$ A 192.0.2.1\n");
        assertThat(ZoneFile.load(fits, null).recordCount()).isGreaterThan(500);
    }

    @Test
    void cnameBesideOtherDataIsRefusedAtItsLine() throws Exception {
        Path p = write("test.example.zone", HEAD + "www IN A 192.0.2.2\nwww IN CNAME ns1\n");
        assertThatThrownBy(() -> ZoneFile.load(p, null))
                .hasMessageContaining(p + ":7: www.test.example. has a CNAME and other data");
    }

    @Test
    void recordsOutsideTheZoneAndMissingGlueAreRefused() throws Exception {
        Path p = write("test.example.zone", HEAD + "other.example. IN A 192.0.2.3\nsub IN NS ns.sub\n");
        assertThatThrownBy(() -> ZoneFile.load(p, null)).satisfies(e -> {
            String m = e.getMessage();
            assertThat(m).contains(p + ":6: other.example. is outside the zone test.example.");
            assertThat(m).contains(p + ":7: delegation sub.test.example. to ns.sub.test.example. needs glue");
        });
    }

    @Test
    void aZoneWithoutSoaOrNsIsRefused() throws Exception {
        Path p = write("test.example.zone", "$ORIGIN test.example.\n$TTL 60\nwww IN A 192.0.2.1\n");
        assertThatThrownBy(() -> ZoneFile.load(p, null))
                .hasMessageContaining("no SOA record at the apex")
                .hasMessageContaining("no NS records at the apex");
    }

    @Test
    void emptyAndBinaryFilesAreRefused() throws Exception {
        Path empty = write("empty.example.zone", "");
        assertThatThrownBy(() -> ZoneFile.load(empty, null)).hasMessageContaining("no SOA record");
        Path binary = dir.resolve("bin.example.zone");
        Files.write(binary, new byte[] {0, 1, 2, (byte) 0xff, 10, 0x7f, 0});
        assertThatThrownBy(() -> ZoneFile.load(binary, null)).isInstanceOf(ZoneException.class);
    }
}
