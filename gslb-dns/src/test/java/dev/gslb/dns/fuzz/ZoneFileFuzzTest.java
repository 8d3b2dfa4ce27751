package dev.gslb.dns.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gslb.dns.zone.ZoneException;
import dev.gslb.dns.zone.ZoneFile;
import java.io.ByteArrayInputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.xbill.DNS.Name;

/** Any zone file text is loaded or refused with {@link ZoneException} (file:line problems), nothing else. */
class ZoneFileFuzzTest {
    private static final Name ORIGIN = Name.fromConstantString("example.com.");

    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anyTextIsLoadedOrRefusedWithFileAndLine(byte[] text) {
        try {
            ZoneFile.parse("fuzz.zone", new ByteArrayInputStream(text), ORIGIN);
        } catch (ZoneException expected) {
            if (expected.getMessage().isBlank()) {
                throw new AssertionError("a refusal that says nothing");
            }
        }
    }
}
