package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A virtual server's score, load and limits bind, and each mistake is refused at its file:line:column. */
class ServerLoadConfigTest {
    @TempDir
    Path dir;

    /** A deployment whose first server ends with {@code vs} (one flow mapping on line 6), serving the example zone. */
    private Path config(String vs) throws Exception {
        Path zone = dir.resolve("example.com.zone");
        if (!Files.exists(zone)) {
            Files.copy(Path.of("../zones/example.com.zone"), zone);
        }
        return Files.writeString(dir.resolve("gslb.yaml"), """
                instance: {name: gslb-cnc-1, datacenter: CNC}
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                monitors: []
                virtual-servers:
                %s%s}
                  - {name: vs-tel, address: 198.18.20.10, datacenter: TEL}
                pools:
                  - {name: web, members: [vs-cnc, vs-tel]}
                """.formatted(LINE, vs));
    }

    /** {@code file:6:column: } of {@code token} in the first server's line, which ends with {@code vs}. */
    private static String at(Path file, String vs, String token) {
        return file + ":6:" + (LINE.length() + vs.indexOf(token) + 1) + ": ";
    }

    private static final String LINE = "  - {name: vs-cnc, address: 198.18.10.10, datacenter: CNC";

    @Test
    void aScoreBindsFrom0To100() throws Exception {
        GslbConfig c = ConfigLoader.load(config(", score: 80"));
        assertThat(c.site().servers()).extracting(vs -> vs.score()).containsExactly(80, 0);
        assertThat(c.loads()).as("no load: nothing polled").isEmpty();
        Path high = config(", score: 101");
        assertThatThrownBy(() -> ConfigLoader.load(high))
                .hasMessageStartingWith(at(high, ", score: 101", "score") + "score must be between 0 and 100, not 101");
    }

    /** The deployment with a pool {@code web} whose line (line 9) is {@code pool}; vs-tel reads connections from nginx. */
    private Path withPool(String vs, String pool) throws Exception {
        String yaml = Files.readString(config(vs))
                .replace(
                        "  - {name: vs-tel, address: 198.18.20.10, datacenter: TEL}",
                        "  - {name: vs-tel, address: 198.18.20.10, datacenter: TEL,"
                                + " load: {nginx: \"http://198.18.20.10:8080/stub_status\"}}")
                .replace("  - {name: web, members: [vs-cnc, vs-tel]}", pool);
        return Files.writeString(dir.resolve("gslb.yaml"), yaml);
    }

    @Test
    void aLoadMethodNeedsItsMetricMeasuredOnEveryMember() throws Exception {
        String pool = "  - {name: web, members: [vs-cnc, vs-tel], preferred: least-connections}";
        Path unmeasured = withPool("", pool);
        assertThatThrownBy(() -> ConfigLoader.load(unmeasured))
                .hasMessageStartingWith(unmeasured + ":9:" + (pool.indexOf("preferred") + 1) + ": "
                        + "pool web: least-connections reads connections, but virtual server vs-cnc has no source"
                        + " under 'load:' that reads it");
        assertThat(ConfigLoader.load(withPool(", load: {nginx: \"http://198.18.10.10:8080/stub_status\"}", pool))
                        .loads())
                .as("both measured: it loads")
                .hasSize(2);
        String cpu = "  - {name: web, members: [vs-cnc, vs-tel], alternate: cpu}";
        Path noCpu = withPool(", load: {nginx: \"http://198.18.10.10:8080/stub_status\"}", cpu);
        assertThatThrownBy(() -> ConfigLoader.load(noCpu))
                .hasMessageStartingWith(noCpu + ":9:" + (cpu.indexOf("alternate") + 1) + ": "
                        + "pool web: cpu reads cpu, but virtual server vs-cnc has no source");
    }

    @Test
    void aLimitOnAMetricNoSourceReadsIsRefusedAtItsKey() throws Exception {
        Path cpu = config(", limits: {connections: 5000, cpu: 90}");
        assertThatThrownBy(() -> ConfigLoader.load(cpu))
                .hasMessageStartingWith(at(cpu, ", limits: {connections: 5000, cpu: 90}", "connections")
                        + "virtual server vs-cnc has a limit on connections but no source"
                        + " under 'load:' reads connections (it has no 'load:')");
    }

    @Test
    void badLimitsAndLoadsAreRefusedAtTheirKeys() throws Exception {
        Path zero = config(", limits: {connections: 0}");
        assertThatThrownBy(() -> ConfigLoader.load(zero))
                .hasMessageStartingWith(at(zero, ", limits: {connections: 0}", "connections")
                        + "connections must be at least 1, not 0");
        Path percent = config(", limits: {cpu: 120}");
        assertThatThrownBy(() -> ConfigLoader.load(percent))
                .hasMessageStartingWith(
                        at(percent, ", limits: {cpu: 120}", "cpu") + "cpu must be a percentage from 1 to 100, not 120");
        Path resume = config(", limits: {cpu: 90, resume: 80}");
        assertThatThrownBy(() -> ConfigLoader.load(resume))
                .hasMessageStartingWith(at(resume, ", limits: {cpu: 90, resume: 80}", "resume")
                        + "limits 'resume:' is a percentage of each limit, such as 90%");
        Path unknown = config(", limits: {cpus: 90}");
        assertThatThrownBy(() -> ConfigLoader.load(unknown))
                .hasMessageStartingWith(at(unknown, ", limits: {cpus: 90}", "cpus") + "unknown key 'cpus'");
        Path fast = config(", load: {interval: 500ms}");
        assertThatThrownBy(() -> ConfigLoader.load(fast))
                .hasMessageStartingWith(
                        at(fast, ", load: {interval: 500ms}", "interval") + "load 'interval:' must be at least 1s");
        Path none = config(", load: {interval: 5s}");
        assertThatThrownBy(() -> ConfigLoader.load(none)).hasMessageContaining("load needs at least one of");
    }

    @Test
    void aLoadWithItsSourceBindsAndItsLimitsMustBeReadByIt() throws Exception {
        GslbConfig c =
                ConfigLoader.load(config(", load: {nginx: \"http://198.18.10.10:8080/stub_status\", interval: 5s},"
                        + " limits: {connections: 5000}"));
        var target = c.loads().getFirst();
        assertThat(target.server()).isEqualTo("vs-cnc");
        assertThat(target.dataCenter()).isEqualTo("CNC");
        assertThat(target.load().window()).as("three intervals").hasSeconds(15);
        assertThat(target.load().timeout()).as("half the interval").hasMillis(2500);
        assertThat(target.limits().connections()).isEqualTo(5000);
        assertThat(target.limits().resumePercent()).isEqualTo(90);
        String onlyNginx = ", load: {nginx: \"http://198.18.10.10:8080/stub_status\"}, limits: {cpu: 90}";
        Path cpu = config(onlyNginx);
        assertThatThrownBy(() -> ConfigLoader.load(cpu))
                .hasMessageStartingWith(at(cpu, onlyNginx, "cpu") + "virtual server vs-cnc has a limit on cpu but no"
                        + " source under 'load:' reads cpu (its sources read [connections])");
        String narrow = ", load: {nginx: \"http://198.18.10.10/s\", interval: 10s, window: 5s}";
        Path window = config(narrow);
        assertThatThrownBy(() -> ConfigLoader.load(window))
                .hasMessageContaining("load 'window:' (5s) must be at least one interval (10s)");
    }
}
