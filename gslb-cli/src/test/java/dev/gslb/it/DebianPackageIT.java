package dev.gslb.it;

import static dev.gslb.it.ContainersIT.quiet;
import static dev.gslb.it.ContainersIT.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.MountableFile;

/**
 * The Debian package (packaging/build-deb.sh) installed into a minimal Debian root (the
 * mmdebstrap tree of packaging/base-images.sh, with systemd for `systemd-analyze`), on a network
 * of its own with nothing else on it: the CLI runs, the unit verifies, and the server started as the unit starts it answers.
 */
class DebianPackageIT {
    @Test
    void installsRunsAndAnswers() throws Exception {
        Path deb;
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("gslb.deb", "../target")))) {
            deb = s.filter(p -> p.getFileName().toString().matches("gslb_.*_amd64\\.deb"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no gslb_*.deb: packaging/build-deb.sh did not run"));
        }
        try (Network alone = ContainersIT.network("198.19.54.0/24");
                GenericContainer<?> root = new GenericContainer<>(ContainersIT.TOOLS)
                        .withNetwork(alone)
                        .withCreateContainerCmdModifier(cmd -> cmd.withName("gslb-it-deb"))
                        .withCopyFileToContainer(MountableFile.forHostPath(deb), "/tmp/gslb.deb")
                        .withCommand("sleep", "infinity")) {
            root.start();
            run(root, "dpkg", "-i", "/tmp/gslb.deb");

            assertThat(run(root, "gslb", "--version")).containsPattern("gslb \\S+\\nrevision [0-9a-f]{10}");
            assertThat(run(root, "id", "gslb")).contains("(gslb)");
            assertThat(run(root, "dpkg-query", "-W", "-f=${Conffiles}", "gslb")).contains("/etc/gslb/gslb.yaml");
            run(root, "systemd-analyze", "verify", "/lib/systemd/system/gslb.service");
            assertThat(run(root, "cat", "/lib/systemd/system/gslb.service"))
                    .contains("User=gslb", "AmbientCapabilities=CAP_NET_BIND_SERVICE CAP_NET_RAW")
                    .contains("StateDirectory=gslb", "ProtectSystem=strict", "NoNewPrivileges=yes")
                    .contains("ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure");
            assertThat(run(root, "man", "-w", "gslb")).contains("/usr/share/man/man1/gslb.1.gz");
            assertThat(run(root, "env", "MANPAGER=cat", "MANWIDTH=100", "man", "gslb-serve"))
                    .contains("gslb-serve", "--state-dir");
            assertThat(run(
                            root,
                            "bash",
                            "-c",
                            "source /usr/share/bash-completion/completions/gslb && complete -p gslb"))
                    .contains("gslb");

            // the unit's command, as its user (no systemd runs in a container)
            run(
                    root,
                    "sh",
                    "-c",
                    "runuser -u gslb -- /usr/bin/gslb serve --config /etc/gslb/gslb.yaml"
                            + " --state-dir /var/lib/gslb >/tmp/gslb.log 2>&1 &");
            String a = Awaits.until(
                    "an answer from the packaged server",
                    Duration.ofSeconds(60),
                    () -> {
                        String out = quiet(root, "dig", "+short", "@127.0.0.1", "www.example.com", "A")
                                .strip();
                        return out.matches("\\d+\\.\\d+\\.\\d+\\.\\d+") ? out : null;
                    },
                    Objects::nonNull);
            assertThat(a).isIn("202.106.83.177", "219.17.66.100");
            assertThat(run(root, "gslb", "health"))
                    .as("the CLI finds the token in the state folder")
                    .contains("vs1-cnc");
        }
    }
}
