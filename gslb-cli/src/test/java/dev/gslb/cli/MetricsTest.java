package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import dev.gslb.server.metrics.BuildInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /metrics of a real pair on loopback, over HTTP: every family named gslb_ (or the JVM's and
 * the process' standard names) with HELP text; answers per wide IP, data center and method; peers
 * up and down; configuration in sync; server and link states; JVM and process meters; build
 * info; counters still at zero left out unless asked; and the shipped Grafana dashboard reads no
 * metric the server does not export.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MetricsTest {
    static final Duration LIMIT = Duration.ofSeconds(30);
    static final String LINK = "links: [{name: CNC-1, datacenter: CNC, capacity: 1Gbit}]\n";

    @TempDir
    static Path dir;

    static GslbServer a;
    static GslbServer b;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void pairAndAsk() throws Exception {
        a = ConfigSyncTest.start(file(dir, "gslb-a", "CNC", ""));
        b = ConfigSyncTest.start(file(dir, "gslb-b", "TEL", ""));
        b.sync().join(a.sync().pair(List.of()).token());
        Awaits.until("A and B connected", LIMIT, () -> ConfigSyncTest.connected(a) && ConfigSyncTest.connected(b));
        for (int i = 0; i < 3; i++) {
            assertThat(ConfigSyncTest.answers(a, "www.example.com.", "127.0.1.1"))
                    .isTrue();
        }
        ConfigSyncTest.ask(a, "nx.example.com."); // NXDOMAIN: no wide IP, no answers series
    }

    @AfterAll
    static void stop() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    static Path file(Path dir, String name, String dc, String extra) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Files.copy(
                Path.of("../zones/example.com.zone"),
                d.resolve("example.com.zone"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path f = d.resolve("gslb.yaml");
        Files.writeString(
                f,
                LoopbackConfig.local(name, dc, 0, (int) ConfigSyncTest.HEARTBEAT.toSeconds())
                        + LoopbackConfig.shared(LINK + extra));
        return f;
    }

    /** One GET of /metrics, parsed. */
    record Scrape(String text, Map<String, String> help, Map<String, String> types, Map<String, Double> series) {
        static Scrape of(String text) {
            Map<String, String> help = new LinkedHashMap<>();
            Map<String, String> types = new LinkedHashMap<>();
            Map<String, Double> series = new LinkedHashMap<>();
            for (String line : text.split("\n")) {
                if (line.startsWith("# HELP ")) {
                    String[] p = line.substring(7).split(" ", 2);
                    help.put(p[0], p.length > 1 ? p[1] : "");
                } else if (line.startsWith("# TYPE ")) {
                    String[] p = line.substring(7).split(" ", 2);
                    types.put(p[0], p[1]);
                } else if (!line.isBlank() && !line.startsWith("#")) {
                    int space = line.lastIndexOf(' ');
                    series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
                }
            }
            return new Scrape(text, help, types, series);
        }

        Double value(String seriesName) {
            return series.get(seriesName);
        }

        /** Every name a query may use: series names and each family with the Prometheus suffixes. */
        Set<String> names() {
            Set<String> out = new LinkedHashSet<>();
            series.keySet().forEach(s -> out.add(s.contains("{") ? s.substring(0, s.indexOf('{')) : s));
            for (String family : types.keySet()) {
                String base = family.endsWith("_total") ? family.substring(0, family.length() - 6) : family;
                for (String suffix : List.of("", "_total", "_bucket", "_count", "_sum", "_created", "_info")) {
                    out.add(base + suffix);
                }
            }
            return out;
        }

        double sum(String family, String... labels) {
            return series.entrySet().stream()
                    .filter(e ->
                            e.getKey().startsWith(family + "{") || e.getKey().equals(family))
                    .filter(e -> java.util.Arrays.stream(labels)
                            .allMatch(l -> e.getKey().contains(l)))
                    .mapToDouble(Map.Entry::getValue)
                    .sum();
        }
    }

    static Scrape scrape(GslbServer s, String query) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(Isolated.adminUrl(s) + "/metrics" + query))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
        return Scrape.of(r.body());
    }

    @Test
    @Order(1)
    void everyFamilyIsNamedGslbOrStandardAndHasHelpText() throws Exception {
        Scrape all = scrape(a, "?all=1");
        assertThat(all.types()).hasSizeGreaterThan(40);
        assertThat(all.types().keySet()).allSatisfy(f -> assertThat(f).matches("(gslb|jvm|process|system)_[a-z0-9_]+"));
        assertThat(all.types().keySet())
                .allSatisfy(
                        f -> assertThat(all.help().get(f)).as("HELP of " + f).isNotBlank());
        assertThat(all.types().keySet())
                .contains("gslb_dns_responses_total", "gslb_lb_decisions_total", "gslb_health_state");
    }

    @Test
    @Order(2)
    void answersAreCountedPerWideIpDataCenterAndMethodAndNeverPerClient() throws Exception {
        Scrape s = scrape(a, "");
        assertThat(s.types()).containsEntry("gslb_answers_total", "counter");
        assertThat(s.sum("gslb_answers_total", "wideip=\"www.example.com\"")).isEqualTo(3.0);
        assertThat(s.sum("gslb_answers_total", "datacenter=\"CNC\"", "wideip=\"www.example.com\""))
                .isEqualTo(3.0);
        List<String> answered = s.series().keySet().stream()
                .filter(k -> k.startsWith("gslb_answers_total{"))
                .toList();
        assertThat(answered)
                .allSatisfy(k -> assertThat(k)
                        .matches("gslb_answers_total\\{datacenter=\"(CNC|TEL|none)\","
                                + "method=\"[a-z-]+\",wideip=\"www.example.com\"}"));
        // The labels are the configuration's: every data center and method www can be answered by.
        Scrape all = scrape(a, "?all=1");
        assertThat(all.series().keySet().stream().filter(k -> k.startsWith("gslb_answers_total{")))
                .contains(
                        "gslb_answers_total{datacenter=\"TEL\",method=\"topology\",wideip=\"www.example.com\"}",
                        "gslb_answers_total{datacenter=\"none\",method=\"failure\",wideip=\"www.example.com\"}")
                .noneMatch(k -> k.contains("127.0.0.1") || k.contains("nx.example.com"));
        assertThat(s.sum("gslb_dns_responses_total", "rcode=\"nxdomain\"")).isEqualTo(1.0);
        assertThat(s.sum("gslb_dns_responses_total", "rcode=\"noerror\"")).isEqualTo(3.0);
    }

    @Test
    @Order(3)
    void countersStillAtZeroAreLeftOutUnlessAskedForAndGaugesAlwaysShow() throws Exception {
        Scrape quiet = scrape(a, "");
        Scrape all = scrape(a, "?all=1");
        assertThat(quiet.types()).doesNotContainKey("gslb_dns_dropped_total"); // nothing was dropped
        assertThat(all.value("gslb_dns_dropped_total{reason=\"malformed\"}")).isEqualTo(0.0);
        assertThat(all.value("gslb_ldns_kept_moves_total")).isEqualTo(0.0); // no path moved an answer
        assertThat(quiet.value("gslb_dns_responses_total{rcode=\"servfail\",transport=\"udp\"}"))
                .isNull();
        assertThat(all.value("gslb_dns_responses_total{rcode=\"servfail\",transport=\"udp\"}"))
                .isEqualTo(0.0);
        assertThat(quiet.series().entrySet())
                .filteredOn(e -> quiet.types().get(family(e.getKey())) != null
                        && quiet.types().get(family(e.getKey())).equals("counter"))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isNotZero());
        assertThat(quiet.value("gslb_runtime_states_generation")).isEqualTo(0.0); // a gauge at 0 is a state
    }

    static String family(String series) {
        String name = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
        return name;
    }

    @Test
    @Order(4)
    void serversLinksAndTheConfigurationShowTheirState() throws Exception {
        Scrape s = scrape(a, "");
        // no monitors: health unknown, and unknown health is answered (the configuration's default)
        assertThat(s.value("gslb_server_state{datacenter=\"CNC\",server=\"cnc\"}"))
                .isEqualTo(-1.0);
        assertThat(s.value("gslb_server_state{datacenter=\"TEL\",server=\"tel\"}"))
                .isEqualTo(-1.0);
        assertThat(s.value("gslb_server_answerable{datacenter=\"CNC\",server=\"cnc\"}"))
                .isEqualTo(1.0);
        assertThat(s.value("gslb_link_state{datacenter=\"CNC\",link=\"CNC-1\"}"))
                .isEqualTo(-1.0); // no gateways
        assertThat(s.value("gslb_config_in_sync")).isEqualTo(1.0);
        assertThat(s.value("gslb_config_generation"))
                .isEqualTo((double) a.syncGroup().version().generation());
        assertThat(s.help().get("gslb_server_state")).contains("1 up, 0 down, -1 unknown");
    }

    @Test
    @Order(5)
    void jvmProcessAndBuildInfo() throws Exception {
        afterACollection("", "jvm_gc_memory_allocated_bytes_total"); // zero, so left out, until one
        Scrape s = scrape(a, "");
        assertThat(s.types().keySet())
                .contains(
                        "jvm_memory_used_bytes",
                        "jvm_threads_live_threads",
                        "jvm_classes_loaded_classes",
                        "process_cpu_usage",
                        "system_cpu_count",
                        "process_uptime_seconds",
                        "process_files_open_files",
                        "jvm_gc_memory_allocated_bytes_total");
        assertThat(s.sum("jvm_memory_used_bytes", "area=\"heap\"")).isPositive();
        String version = BuildInfo.read().version();
        assertThat(version).matches("\\d+\\.\\d+\\.\\d+.*"); // the jar's version file, filled by the build
        assertThat(s.types()).containsEntry("gslb_build_info", "gauge");
        assertThat(s.series().entrySet())
                .filteredOn(e -> e.getKey().startsWith("gslb_build_info{"))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.getKey()).contains("version=\"" + version + "\"", "revision=\"");
                    assertThat(e.getValue()).isEqualTo(1.0);
                });
    }

    /** Collects garbage (the server runs in this JVM) and waits until {@code family} is exported. */
    private void afterACollection(String query, String family) throws InterruptedException {
        System.gc();
        Awaits.until(family + " exported after a collection", LIMIT, () -> {
            try {
                return scrape(a, query).types().containsKey(family);
            } catch (Exception e) {
                return false;
            }
        });
    }

    @Test
    @Order(6)
    void theDashboardReadsOnlyMetricsTheServerExports() throws Exception {
        afterACollection("?all=1", "jvm_gc_pause_seconds"); // the GC pause timer registers at the first
        Set<String> exported = scrape(a, "?all=1").names();
        JsonNode dashboard = new ObjectMapper()
                .readTree(Path.of("../packaging/grafana/gslb-dashboard.json").toFile());
        List<String> expressions = new ArrayList<>();
        collect(dashboard, expressions);
        assertThat(expressions).hasSizeGreaterThan(25);
        Set<String> read = new LinkedHashSet<>();
        for (String e : expressions) {
            Set<String> names = PromQlNames.of(e);
            assertThat(names).as("metrics read by " + e).isNotEmpty();
            assertThat(exported).as("the names read by " + e).containsAll(names);
            read.addAll(names);
        }
        // every family the issue asks a dashboard for is on it
        assertThat(read)
                .contains(
                        "gslb_answers_total",
                        "gslb_dns_responses_total",
                        "gslb_peer_up",
                        "gslb_config_in_sync",
                        "gslb_link_state",
                        "gslb_server_state",
                        "jvm_memory_used_bytes",
                        "jvm_gc_pause_seconds_sum",
                        "process_cpu_usage");
    }

    /** Every panel target's {@code expr} and every variable's query, anywhere in the dashboard. */
    static void collect(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.properties().forEach(e -> {
                if (e.getKey().equals("expr") && e.getValue().isTextual()) {
                    out.add(e.getValue().asText());
                } else if (e.getKey().equals("query")
                        && e.getValue().isObject()
                        && e.getValue().has("query")) {
                    out.add(e.getValue().get("query").asText());
                } else {
                    collect(e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, out));
        }
    }

    @Test
    void theExpressionReaderFindsMetricsNotFunctionsLabelsOrVariables() {
        assertThat(PromQlNames.of("sum by (wideip, datacenter) (rate(gslb_answers_total{instance=~\"$instance\","
                        + " wideip=~\"$wideip\"}[$__rate_interval])) / ignoring (datacenter) group_left sum by"
                        + " (wideip) (rate(gslb_answers_total[5m]))"))
                .containsExactly("gslb_answers_total");
        assertThat(PromQlNames.of("max by (instance) (jvm_gc_pause_seconds_max) * 1e3 + process_cpu_usage offset 5m"))
                .containsExactly("jvm_gc_pause_seconds_max", "process_cpu_usage");
        assertThat(PromQlNames.of("label_values(gslb_build_info, instance)")).containsExactly("gslb_build_info");
        assertThat(PromQlNames.of("label_values(instance)")).isEmpty();
        assertThat(PromQlNames.of("up == bool 1 and on (instance) gslb_peer_up"))
                .containsExactly("up", "gslb_peer_up");
        assertThat(PromQlNames.of("sum without (rcode) (rate(typo_total[1m]))")).containsExactly("typo_total");
    }

    @Test
    @Order(7)
    void aPeerGoesDownInTheGauge() throws Exception {
        assertThat(scrape(a, "").value("gslb_peer_up{datacenter=\"TEL\",peer=\"gslb-b\"}"))
                .isEqualTo(1.0);
        assertThat(scrape(b, "").value("gslb_peer_up{datacenter=\"CNC\",peer=\"gslb-a\"}"))
                .isEqualTo(1.0);
        b.close();
        b = null;
        Awaits.until("A sees B down", LIMIT, () -> {
            try {
                return Double.valueOf(0.0)
                        .equals(scrape(a, "").value("gslb_peer_up{datacenter=\"TEL\",peer=\"gslb-b\"}"));
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** A reload keeps the counts of the wide IPs it keeps, adds the new ones' and drops the gone ones'. */
    @Test
    void aReloadKeepsTheCountsOfWhatStaysAndDropsWhatGoes(@TempDir Path own) throws Exception {
        String shop = "  - {name: store.example.com, pools: [www]}\n";
        Path f = file(own, "gslb-r", "CNC", "");
        GslbServer s = ConfigSyncTest.start(f);
        try {
            Files.writeString(f, Files.readString(f).replace("wide-ips:\n", "wide-ips:\n" + shop));
            s.reload();
            assertThat(ConfigSyncTest.answers(s, "www.example.com.", "127.0.1.1"))
                    .isTrue();
            assertThat(ConfigSyncTest.answers(s, "store.example.com.", "127.0.1.1"))
                    .isTrue();
            assertThat(scrape(s, "").sum("gslb_answers_total", "wideip=\"store.example.com\""))
                    .isEqualTo(1.0);
            Files.writeString(f, Files.readString(f).replace(shop, ""));
            s.reload();
            assertThat(ConfigSyncTest.answers(s, "www.example.com.", "127.0.1.1"))
                    .isTrue();
            Scrape after = scrape(s, "?all=1");
            assertThat(after.sum("gslb_answers_total", "wideip=\"www.example.com\""))
                    .isEqualTo(2.0);
            assertThat(after.series().keySet()).noneMatch(k -> k.contains("store.example.com"));
        } finally {
            s.close();
        }
    }
}
