package dev.gslb.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gslb.settings.SettingsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Any configuration text is loaded, or refused with {@link SettingsException} naming the file (and
 * the line where there is one); nothing else escapes. Paths in it resolve against the checkout, so
 * the seeds reach the zones and topology files. Seeds: ConfigFuzzTestInputs.
 */
class ConfigFuzzTest {
    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anyTextIsLoadedOrRefusedWithFileAndLine(byte[] data) {
        try {
            ConfigLoader.parse("fuzz.yaml", new String(data, StandardCharsets.UTF_8), CHECKOUT);
        } catch (SettingsException expected) {
            if (!expected.getMessage().contains("fuzz.yaml")) {
                throw new AssertionError("a refusal that does not name the file: " + expected.getMessage());
            }
        }
    }
}
