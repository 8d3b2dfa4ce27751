package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigSections;
import dev.gslb.settings.Setting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configuration reference is made from the settings tables: docs/configuration.md holds what
 * {@link ConfigReference} renders now (a key added to a table, or a default changed, fails here
 * until the page is made again), and the gslb.yaml(5) page is AsciiDoc that Debian's asciidoctor
 * turns into a man page holding every key and its default.
 */
class ConfigReferenceTest {
    private static final Path PAGE = ManualTest.ROOT.resolve("docs/configuration.md");

    @TempDir
    Path dir;

    @Test
    void theManualHoldsTheReferenceOfTheCode() throws Exception {
        String page = Files.readString(PAGE);
        String now = ConfigReference.regenerated(page);
        if (Boolean.getBoolean("gslb.regenerate")) {
            Files.writeString(PAGE, now);
            page = now;
        }
        assertThat(page)
                .as(
                        "docs/configuration.md differs from the settings tables; make it again with%n  %s%n",
                        ConfigReference.REGENERATE)
                .isEqualTo(now);
    }

    @Test
    void everySectionIsListedInTheLoadersOrder() {
        List<String> listed = ConfigReference.sections().stream()
                .map(ConfigReference.Section::key)
                .toList();
        assertThat(listed).isEqualTo(ConfigSections.keys());
    }

    @Test
    void theManPageHoldsEveryKey() throws Exception {
        ConfigReference.main(new String[] {"--man", dir.toString()});
        Process asciidoctor = new ProcessBuilder(
                        "asciidoctor",
                        "--backend",
                        "manpage",
                        "--failure-level",
                        "WARN",
                        "--destination-dir",
                        dir.toString(),
                        dir.resolve("gslb.yaml.adoc").toString())
                .redirectErrorStream(true)
                .start();
        String said = new String(asciidoctor.getInputStream().readAllBytes());
        assertThat(asciidoctor.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(asciidoctor.exitValue()).as(said).isZero();
        // troff writes a hyphen as \-; the page is read as man reads it
        String troff = Files.readString(dir.resolve("gslb.yaml.5"))
                .replace("\\-", "-")
                .replace("\\&", "")
                .replace("\\(cq", "'");
        assertThat(troff).contains(".TH \"GSLB.YAML\" \"5\"");
        for (ConfigReference.Table t : ConfigReference.tables()) {
            for (Setting<?> s : t.settings()) {
                assertThat(troff)
                        .as(t.heading() + " " + s.key())
                        .contains(s.key())
                        .contains(s.shownDefault());
            }
        }
        for (ConfigReference.Section s : ConfigReference.sections()) {
            assertThat(troff).contains(s.key() + ":");
        }
    }
}
