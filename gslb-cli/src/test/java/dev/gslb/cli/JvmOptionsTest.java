package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The launchers' Java options (packaging/jvm-options.sh), run by the shells that run the
 * launchers: dash (/usr/bin/gslb is #!/bin/sh) and bash (./gslb). `serve` gets 128 MiB + 512
 * bytes per probe.max-ldns, a quarter of it young, and transparent huge pages where the kernel
 * offers them; GSLB_JAVA_OPTS with -Xmx replaces heap and young generation; other
 * commands a small heap.
 */
class JvmOptionsTest {
    @TempDir
    Path dir;

    String options(String shell, String javaOpts, String... args) throws Exception {
        return options(shell, javaOpts, null, args);
    }

    /** With {@code thp} as the kernel's transparent-huge-page setting (a file), when not null. */
    String options(String shell, String javaOpts, Path thp, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                shell, "-c", ". ../packaging/jvm-options.sh && gslb_jvm_options \"$@\" && echo \"$GSLB_JVM\"", "sh"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("GSLB_JAVA_OPTS");
        if (javaOpts != null) {
            pb.environment().put("GSLB_JAVA_OPTS", javaOpts);
        }
        if (thp != null) {
            pb.environment().put("GSLB_THP_SETTING", thp.toString());
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"dash", "bash"})
    void serveHeapFollowsMaxLdns(String shell) throws Exception {
        Path config = dir.resolve("gslb.yaml");
        Files.writeString(config, """
                admin:
                  max-ldns: 7          # not the probe block's
                probe:
                  rate: 200
                  max-ldns: 3000000    # three million
                dns:
                  listen: ["127.0.0.1:53"]
                """);
        // 128 + ceil(3e6 * 512 / 2^20), a quarter of it young
        assertThat(options(shell, null, "serve", "--config", config.toString()))
                .endsWith("-XX:+UseParallelGC -XX:+UseCompactObjectHeaders -XX:MetaspaceSize=64m"
                        + " -XX:-UseAdaptiveSizePolicy -XX:MaxTenuringThreshold=1 -Xmx1593m -Xmn398m");
        assertThat(options(shell, null, "serve", "--config=" + config)).endsWith("-Xmx1593m -Xmn398m");

        Files.writeString(config, "probe:\n  rate: 200\n");
        assertThat(options(shell, null, "serve", "--config", config.toString()))
                .as("the default max-ldns, 1,000,000")
                .endsWith("-Xmx617m -Xmn154m");
        assertThat(options(shell, null, "serve")).endsWith("-Xmx617m -Xmn154m");
        assertThat(options(shell, null, "--config", config.toString(), "serve"))
                .as("gslb --config FILE serve: gslb's own option before the command")
                .isEqualTo(options(shell, null, "serve", "--config", config.toString()));
        assertThat(options(shell, null, "--config", "serve", "health"))
                .as("a configuration named serve is not the command")
                .contains("-XX:+UseSerialGC");
        assertThat(options(shell, null, "serve", "--config"))
                .as("no value: the launcher goes on, and serve says what is missing")
                .endsWith("-Xmx617m -Xmn154m");
        assertThat(options(shell, "-Xms1g -Xmx2g", "serve", "--config", config.toString()))
                .doesNotContain("-Xmx", "-Xmn")
                .contains("-XX:+UseParallelGC");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dash", "bash"})
    void otherCommandsAreSmallClients(String shell) throws Exception {
        assertThat(options(shell, null, "health", "--json"))
                .contains("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m")
                .doesNotContain("ParallelGC");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dash", "bash"})
    void serveAsksForHugePagesWhereTheKernelOffersThem(String shell) throws Exception {
        Path thp = dir.resolve("enabled");
        for (String offered : List.of("always [madvise] never", "[always] madvise never")) {
            Files.writeString(thp, offered + "\n");
            assertThat(options(shell, null, thp, "serve"))
                    .as(offered)
                    .contains("-XX:+UseTransparentHugePages -XX:+UseParallelGC");
            assertThat(options(shell, null, thp, "health")).doesNotContain("TransparentHugePages");
        }
        Files.writeString(thp, "always madvise [never]\n");
        assertThat(options(shell, null, thp, "serve"))
                .as("off in the kernel: the JVM would warn")
                .doesNotContain("TransparentHugePages")
                .contains("-XX:+UseParallelGC");
        assertThat(options(shell, null, dir.resolve("absent"), "serve"))
                .as("no such setting (another kernel)")
                .doesNotContain("TransparentHugePages");
    }
}
