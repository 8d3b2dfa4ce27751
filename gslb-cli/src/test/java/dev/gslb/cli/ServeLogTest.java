package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gslb.probe.Awaits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log of `gslb serve` as an operator reads it, from a real process started as the launcher
 * starts it, on the shipped China operator lists (whose dozens of overlaps are one summary line):
 * every event one line, the start line naming version, revision, Java, configuration, state folder
 * and heap; with --log-format json every line a JSON object.
 */
class ServeLogTest {
    static final String TEXT_LINE =
            "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d{4} (ERROR|WARN|INFO|DEBUG|TRACE) \\S+ - .*";

    @TempDir
    Path dir;

    Process server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Runs the server on the shipped lists until it serves, stops it (SIGTERM) and returns its log lines. */
    List<String> serveAndStop(String... options) throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path config = dir.resolve("gslb.yaml");
        Files.writeString(
                config,
                LoopbackConfig.local("logs", "CNC")
                        + LoopbackConfig.shared("""
                                topology:
                                  data: [%s]
                                  records:
                                    - {region: chinanet, datacenter: TEL}
                                    - {region: unicom, datacenter: CNC}
                                """.formatted(Path.of("../topology-data/china-operator-ip")
                                .toAbsolutePath()
                                .normalize())));
        List<String> cmd = new ArrayList<>(Isolated.serveProcess(config));
        cmd.addAll(List.of("--state-dir", dir.resolve("state").toString()));
        cmd.addAll(List.of(options));
        Path log = dir.resolve("server.log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("GSLB_LOG_FORMAT");
        pb.environment().remove("GSLB_LOG_LEVEL");
        server = pb.start();
        Awaits.until("the server's 'serving' line", Duration.ofSeconds(90), () -> {
            String text;
            try {
                text = Files.readString(log);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            if (!server.isAlive()) {
                throw new AssertionError("the server exited " + server.exitValue() + ":\n" + text);
            }
            return text.contains("serving 1 zone(s)");
        });
        server.destroy(); // SIGTERM: the shutdown hook logs and closes
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return Files.readAllLines(log);
    }

    @Test
    void oneLineAnEventOneOverlapSummaryAndAStartLine() throws Exception {
        List<String> lines = serveAndStop();
        assertThat(lines).as("every line starts an event: no entry spans lines").allMatch(l -> l.matches(TEXT_LINE));
        assertThat(lines.stream().filter(l -> l.contains("overlap")))
                .singleElement()
                .asString()
                .containsPattern("; \\d+ duplicate or overlapping prefixes, the longest match decides")
                .contains("gslb topology list --json");
        assertThat(lines.getFirst())
                .contains(" INFO ServeCommand - gslb ")
                .containsPattern("revision ([0-9a-f]{10}|unknown)")
                .contains("Java " + Runtime.version())
                .contains("configuration " + dir.resolve("gslb.yaml"))
                .contains("state folder " + dir.resolve("state"))
                .contains("heap max 256 MiB");
        assertThat(lines).anyMatch(l -> l.contains("INFO ServeCommand - shutting down"));
    }

    @Test
    void jsonLinesEachParseWithTimeLevelLoggerAndMessage() throws Exception {
        List<String> lines = serveAndStop("--log-format", "json");
        ObjectMapper json = new ObjectMapper();
        assertThat(lines).isNotEmpty();
        for (String line : lines) {
            JsonNode event = json.readTree(line);
            assertThat(event.fieldNames()).toIterable().contains("time", "level", "logger", "message");
            assertThat(event.get("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
            assertThat(event.get("level").asText()).isIn("ERROR", "WARN", "INFO", "DEBUG", "TRACE");
        }
        JsonNode start = json.readTree(lines.getFirst());
        assertThat(start.get("logger").asText()).isEqualTo("dev.gslb.cli.ServeCommand");
        assertThat(start.get("message").asText()).startsWith("gslb ").contains("state folder " + dir.resolve("state"));
    }
}
