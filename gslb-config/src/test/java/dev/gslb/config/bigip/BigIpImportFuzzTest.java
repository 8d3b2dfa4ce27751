package dev.gslb.config.bigip;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gslb.config.ConfigLoader;
import dev.gslb.settings.SettingsException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Any text is imported, or refused with a {@link TmshException} naming the file and line; nothing
 * else escapes, every report line names the file, and what an import writes loads as
 * `gslb config check` loads it. Seeds: BigIpImportFuzzTestInputs (the CLI test's fixtures).
 */
class BigIpImportFuzzTest {
    private static final BigIpImport.Options OPTIONS = new BigIpImport.Options(Map.of(), List.of(), Set.of());

    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void anyTextIsImportedOrRefusedWithFileAndLine(byte[] data) throws IOException {
        BigIpImport.Result r;
        try {
            r = BigIpImport.read("fuzz.conf", new String(data, StandardCharsets.UTF_8), OPTIONS);
        } catch (TmshException expected) {
            if (!expected.getMessage().matches("(?s)fuzz\\.conf:\\d+: .*")) {
                throw new AssertionError("a refusal that does not name the file and line: " + expected.getMessage());
            }
            return;
        }
        for (ImportReport.Line l : r.report().lines()) {
            if (!l.toString().startsWith("fuzz.conf:")) {
                throw new AssertionError("a report line without the file: " + l);
            }
        }
        if (r.problem() != null) {
            return; // nothing to serve: the CLI writes nothing
        }
        Path dir = Files.createTempDirectory("bigip-fuzz");
        try {
            if (r.topology() != null) {
                Files.writeString(dir.resolve("bigip.topology"), r.topology());
            }
            for (var f : r.madeFiles().entrySet()) {
                Path p = dir.resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue());
                p.toFile().setExecutable(true);
            }
            ConfigLoader.parse("gslb.yaml", r.config(), dir);
        } catch (SettingsException e) {
            throw new AssertionError(
                    "the import wrote what config check refuses: " + e.getMessage() + "\n" + r.config(), e);
        } finally {
            try (var all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
