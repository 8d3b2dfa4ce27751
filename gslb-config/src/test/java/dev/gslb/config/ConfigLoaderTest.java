package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.dns.method.DynamicRatio;
import dev.gslb.dns.method.LoadBandRandom;
import dev.gslb.dns.method.LoadMetric;
import dev.gslb.dns.method.LowestRoundTripTime;
import dev.gslb.dns.method.QualityOfService;
import dev.gslb.dns.method.StaticPersistence;
import dev.gslb.dns.wideip.Failure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Name;

/** The embedded default loads; every kind of config mistake names file, line, column and what is wrong. */
class ConfigLoaderTest {
    @TempDir
    Path dir;

    private Path config(String yaml) throws Exception {
        return config(dir, yaml);
    }

    /** {@code yaml} as gslb.yaml in {@code dir}, beside the example zone it serves. */
    static Path config(Path dir, String yaml) throws Exception {
        Files.copy(
                Path.of("../zones/example.com.zone"),
                dir.resolve("example.com.zone"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path p = dir.resolve("gslb.yaml");
        Files.writeString(p, yaml);
        return p;
    }

    static final String GOOD = """
            instance:
              name: gslb-tel-1
              datacenter: TEL
            dns:
              listen: ["127.0.0.1:5300", "[::1]:5300"]
              tcp-idle-timeout: 5s
            zones:
              - file: example.com.zone
            datacenters: [CNC, TEL]
            virtual-servers:
              - {name: vs1, address: 202.106.83.177, datacenter: CNC}
              - {name: vs2, address: 219.17.66.100, datacenter: TEL}
            pools:
              - {name: www, members: [vs1, vs2]}
            wide-ips:
              - {name: www.example.com, pools: [www]}
            """;

    @Test
    void embeddedDefaultIsTheSourceExample() throws Exception {
        GslbConfig c = ConfigLoader.loadEmbedded(Path.of(".."));
        assertThat(c.dataCenters()).extracting(dc -> dc.name()).containsExactly("CNC", "TEL");
        assertThat(c.dns().addresses()).hasToString("[/127.0.0.1:5353]");
        assertThat(c.admin().listen().getPort()).isEqualTo(8053);
        var www = c.wideIps().getFirst();
        assertThat(www.name()).isEqualTo(Name.fromString("www.example.com."));
        assertThat(www.ttl()).isEqualTo(30);
        assertThat(www.pools().getFirst().members())
                .extracting(vs -> vs.address().getHostAddress())
                .containsExactly("202.106.83.177", "219.17.66.100");
        assertThat(www.pools().getFirst().methods())
                .as("the source's chain")
                .containsExactly("lowest-round-trip-time", "topology", "global-availability");
    }

    @Test
    void aRealConfigLoadsWithRelativeZonePaths() throws Exception {
        GslbConfig c = ConfigLoader.load(config(GOOD));
        assertThat(c.instance().name()).isEqualTo("gslb-tel-1");
        assertThat(c.instance().dataCenter()).isEqualTo("TEL");
        assertThat(c.dns().addresses()).hasSize(2);
        assertThat(c.dns().tcpIdle()).hasSeconds(5);
    }

    @Test
    void eachMethodGetsItsOwnSettingsOrItsDefaults() throws Exception {
        var defaults = ConfigLoader.load(config(GOOD)).loadBalancing().methods();
        assertThat(defaults.orDefault(LowestRoundTripTime.Settings.DEFAULTS))
                .isEqualTo(LowestRoundTripTime.Settings.DEFAULTS);
        var set = ConfigLoader.load(config(GOOD + """
                        load-balancing:
                          rtt-margin-percent: 20
                          rtt-margin: 5ms
                          persistence-prefix-v4: 16
                        """)).loadBalancing().methods();
        assertThat(set.orDefault(LowestRoundTripTime.Settings.DEFAULTS))
                .isEqualTo(new LowestRoundTripTime.Settings(20, 5000));
        assertThat(set.orDefault(StaticPersistence.Settings.DEFAULTS))
                .isEqualTo(new StaticPersistence.Settings(16, 56));
    }

    @Test
    void theDnsPortDefencesBindWithTheirDefaultsAndOverrides() throws Exception {
        GslbConfig defaults = ConfigLoader.load(config(GOOD));
        assertThat(defaults.answers()).isEqualTo(dev.gslb.dns.answer.AnswerSettings.DEFAULTS);
        assertThat(defaults.dns().tcpQueryTimeout()).hasSeconds(2);
        assertThat(defaults.dns().tcpMaxConnectionsPerSource()).isEqualTo(64);

        GslbConfig c = ConfigLoader.load(config(GOOD.replace("tcp-idle-timeout: 5s", """
                tcp-idle-timeout: 5s
                  tcp-query-timeout: 500ms
                  tcp-max-connections-per-source: 8
                  cookies: false
                  cookie-rotation: 6h
                  answer-cache: 8MiB
                  rate-limit:
                    responses-per-second: 50
                    slip: 3
                    window: 5s
                    ipv4-prefix: 22
                    ipv6-prefix: 48
                    exempt: [198.51.100.0/24]
                    table-size: 4096""")));
        assertThat(c.dns().tcpQueryTimeout()).hasMillis(500);
        assertThat(c.dns().tcpMaxConnectionsPerSource()).isEqualTo(8);
        var a = c.answers();
        assertThat(a.cookies()).isFalse();
        assertThat(a.cookieRotation()).hasHours(6);
        assertThat(a.cacheBytes()).isEqualTo(8L << 20);
        var r = a.rateLimit();
        assertThat(List.of(r.responsesPerSecond(), r.slip(), r.ipv4Prefix(), r.ipv6Prefix(), r.tableSize()))
                .containsExactly(50, 3, 22, 48, 4096);
        assertThat(r.window()).hasSeconds(5);
        assertThat(r.exempt().contains(java.net.InetAddress.ofLiteral("198.51.100.7")))
                .isTrue();
        assertThat(r.exempt().contains(java.net.InetAddress.ofLiteral("127.0.0.1")))
                .as("the list replaces loopback")
                .isFalse();

        Path bad = config(GOOD.replace("tcp-idle-timeout: 5s", "tcp-idle-timeout: 5s\n  rate-limit: {slip: 99}"));
        assertThatThrownBy(() -> ConfigLoader.load(bad))
                .hasMessageStartingWith(bad + ":7:16: slip must be between 0 and 15, not 99");
    }

    @Test
    void dnstapIsOffUntilASocketOrAFileIsGivenAndRefusesBoth() throws Exception {
        assertThat(ConfigLoader.load(config(GOOD)).dnstap().enabled()).isFalse();
        GslbConfig c =
                ConfigLoader.load(config(GOOD + "dnstap: {file: tap.fstrm, every: 10, messages: [auth-response]}\n"));
        assertThat(c.dnstap().enabled()).isTrue();
        assertThat(c.dnstap().file()).as("relative to the file's folder").isEqualTo(dir.resolve("tap.fstrm"));
        assertThat(c.dnstap().every()).isEqualTo(10);
        assertThat(c.dnstap().messages()).containsExactly("auth-response");

        Path both = config(GOOD + "dnstap: {file: tap.fstrm, socket: /run/gslb/dnstap.sock}\n");
        assertThatThrownBy(() -> ConfigLoader.load(both))
                .hasMessageContaining(both + ":")
                .hasMessageContaining("dnstap writes to a socket or to a file, not both");
        Path fraction = config(GOOD + "dnstap: {file: tap.fstrm, sample: 1.5}\n");
        assertThatThrownBy(() -> ConfigLoader.load(fraction))
                .hasMessageContaining("dnstap sample must be a fraction from 0 to 1, not 1.5");
        Path message = config(GOOD + "dnstap: {file: tap.fstrm, messages: [client-query]}\n");
        assertThatThrownBy(() -> ConfigLoader.load(message))
                .hasMessageContaining("dnstap message 'client-query' is not one of auth-query, auth-response");
    }

    @Test
    void qosCoefficientsBindGloballyAndPerPool() throws Exception {
        GslbConfig c = ConfigLoader.load(config(GOOD.replace(
                        "  - {name: www, members: [vs1, vs2]}",
                        "  - {name: www, members: [vs1, vs2], preferred: quality-of-service, qos: {topology: 10}}")
                + "load-balancing:\n  qos: {rtt: 40, link-capacity: 0}\n"));
        assertThat(c.loadBalancing().methods().orDefault(QualityOfService.Settings.DEFAULTS))
                .isEqualTo(new QualityOfService.Settings(40, 5, 0, 0, 0, 0, 1, 3, 0));
        assertThat(c.wideIps().getFirst().pools().getFirst().settings().orDefault(QualityOfService.Settings.DEFAULTS))
                .as("the pool's key over the global ones")
                .isEqualTo(new QualityOfService.Settings(40, 5, 0, 10, 0, 0, 1, 3, 0));
        Path alternate = config(GOOD.replace(
                "  - {name: www, members: [vs1, vs2]}",
                "  - {name: www, members: [vs1, vs2], alternate: quality-of-service}"));
        assertThatThrownBy(() -> ConfigLoader.load(alternate))
                .hasMessageContaining("the alternate method quality-of-service uses path metrics");
        Path bad = config(GOOD.replace(
                "  - {name: www, members: [vs1, vs2]}", "  - {name: www, members: [vs1, vs2], qos: {rt: 5}}"));
        assertThatThrownBy(() -> ConfigLoader.load(bad)).hasMessageContaining("unknown key 'rt'");
    }

    @Test
    void loadMethodSettingsBindUnderLoadBalancing() throws Exception {
        String measured =
                ", load: {nginx: \"http://198.18.1.1/status\", snmp: {address: 198.18.1.1, community: public, metrics: [cpu]}}}";
        GslbConfig c = ConfigLoader.load(config(GOOD.replace(
                                "  - {name: www, members: [vs1, vs2]}",
                                "  - {name: www, members: [vs1, vs2], preferred: dynamic-ratio, alternate: least-connections}")
                        .replace("datacenter: CNC}", "datacenter: CNC" + measured)
                        .replace("datacenter: TEL}", "datacenter: TEL" + measured)
                + "load-balancing:\n  load-band: {metric: cpu, band-percent: 30}\n"
                + "  dynamic-ratio: {b: 2, r2: 0.5, r2-metric: cpu, capacity: 5000}\n"));
        assertThat(c.loadBalancing().methods().orDefault(LoadBandRandom.Settings.DEFAULTS))
                .isEqualTo(new LoadBandRandom.Settings(LoadMetric.CPU, 30));
        assertThat(c.loadBalancing().methods().orDefault(DynamicRatio.Settings.DEFAULTS))
                .as("the keys not given keep their defaults")
                .isEqualTo(new DynamicRatio.Settings(1, 2, 1, 0.5, LoadMetric.CPU, 5000, 10));
        Path metric = config(GOOD + "load-balancing:\n  load-band: {metric: sessions}\n");
        assertThatThrownBy(() -> ConfigLoader.load(metric))
                .hasMessageContaining("unknown load metric 'sessions'; known: connections, packet-rate");
        Path r2 = config(GOOD + "load-balancing:\n  dynamic-ratio: {r2-metric: connections}\n");
        assertThatThrownBy(() -> ConfigLoader.load(r2)).hasMessageContaining("r2-metric must be memory or cpu");
        Path nothing = config(GOOD + "load-balancing:\n  dynamic-ratio: {r1: 0}\n");
        assertThatThrownBy(() -> ConfigLoader.load(nothing)).hasMessageContaining("r1 and r2 are both 0");
    }

    @Test
    void linksBindWithTheirUnitsAndServersFindTheirLink() throws Exception {
        String links = """
                monitors:
                  - {name: gw, type: icmp, interval: 5s, down: 2}
                links:
                  - name: CNC-1
                    datacenter: CNC
                    capacity: 1Gbit
                    limit-in: 80%
                    limit-out: 500Mbit
                    resume: 90%
                    traffic: {snmp: {address: "198.18.2.1", community: public, if-name: ge-0/0/1}, interval: 5s}
                    gateways: [198.18.2.1]
                    monitors: [gw]
                  - {name: TEL-1, datacenter: TEL, traffic: {interface: isp0}}
                virtual-servers:
                """;
        GslbConfig c = ConfigLoader.load(config(GOOD.replace("virtual-servers:\n", links)));
        var cnc = c.links().getFirst();
        assertThat(cnc.limitIn().bitsPerSecond()).isEqualTo(800_000_000);
        assertThat(cnc.limitOut().bitsPerSecond()).isEqualTo(500_000_000);
        assertThat(cnc.resumeIn().bitsPerSecond()).as("90 % of each limit").isEqualTo(720_000_000);
        assertThat(cnc.resumeOut().bitsPerSecond()).isEqualTo(450_000_000);
        Path high = config(GOOD.replace(
                "virtual-servers:\n",
                "links:\n  - {name: L, datacenter: CNC, limit-in: 800Mbit, limit-out: 500Mbit, resume: 700Mbit}\n"
                        + "virtual-servers:\n"));
        assertThatThrownBy(() -> ConfigLoader.load(high))
                .hasMessageStartingWith(
                        high + ":11:5: link L: 'resume:' (700 Mbit/s) is above 'limit-out:' (500 Mbit/s)");
        assertThat(cnc.traffic().interval()).hasSeconds(5);
        assertThat(cnc.traffic().window()).as("three polls").hasSeconds(15);
        assertThat(cnc.traffic().source().describe()).isEqualTo("snmp 198.18.2.1:161 if-name ge-0/0/1");
        assertThat(c.links().get(1).traffic().source().describe()).isEqualTo("interface isp0");
        assertThat(c.wideIps().getFirst().pools().getFirst().members())
                .as("a data center's only link reaches its servers")
                .extracting(vs -> vs.link())
                .containsExactly("CNC-1", "TEL-1");

        Path percent = config(GOOD.replace(
                "virtual-servers:\n", "links:\n  - {name: L, datacenter: CNC, limit-in: 80%}\nvirtual-servers:\n"));
        assertThatThrownBy(() -> ConfigLoader.load(percent))
                .hasMessageStartingWith(percent + ":11:32: '80%' is a percentage, but the link has no 'capacity:'");
        Path both = config(GOOD.replace(
                "virtual-servers:\n",
                "links:\n  - {name: L, datacenter: CNC, traffic: {interface: eth0, snmp: {address: 198.18.2.1}}}\n"
                        + "virtual-servers:\n"));
        assertThatThrownBy(() -> ConfigLoader.load(both))
                .hasMessageContaining("traffic needs exactly one of 'interface:' (this host's) or 'snmp:'");
        Path elsewhere =
                config(GOOD.replace("virtual-servers:\n", "links:\n  - {name: T, datacenter: TEL}\nvirtual-servers:\n")
                        .replace("datacenter: CNC}", "datacenter: CNC, link: T}"));
        assertThatThrownBy(() -> ConfigLoader.load(elsewhere))
                .hasMessageContaining("virtual server vs1 is in CNC but link T is in TEL");
    }

    @Test
    void theAdminApiOffLoopbackNeedsATokenAndProbeExclusionsReplaceTheDefault() throws Exception {
        Path open = config(GOOD.replace("zones:\n", "admin: {listen: \"0.0.0.0:8053\", token-file: none}\nzones:\n"));
        assertThatThrownBy(() -> ConfigLoader.load(open))
                .hasMessageStartingWith(open + ":7:1: the admin API listens on 0.0.0.0" + " without a token file");
        Files.delete(dir.resolve("example.com.zone"));
        GslbConfig d = ConfigLoader.load(config(GOOD));
        assertThat(d.admin().tokenFile()).isEqualTo(dir.resolve("var/admin.token"));
        assertThat(d.probing().probes().exclusions()).contains("127.0.0.0/8", "own-addresses");
        Files.delete(dir.resolve("example.com.zone"));
        GslbConfig lab =
                ConfigLoader.load(config(GOOD + "probe: {exclude: [own-addresses, 198.18.0.0/15], max-ldns: 5000}\n"));
        assertThat(lab.probing().probes().exclusions()).containsExactly("own-addresses", "198.18.0.0/15");
        assertThat(lab.probing().proximity().maxLdns()).isEqualTo(5000);
    }

    @Test
    void unknownKeysAreRefusedAtTheirLineAndColumn() throws Exception {
        Path p = config(GOOD.replace("tcp-idle-timeout: 5s", "tcp-idle-timout: 5s"));
        assertThatThrownBy(() -> ConfigLoader.load(p))
                .hasMessageStartingWith(p + ":6:3: unknown key 'tcp-idle-timout' in dns");
    }

    @Test
    void unknownDataCentersAndPoolsAreRefusedAtTheirLine() throws Exception {
        Path dc = config(GOOD.replace("datacenter: TEL}", "datacenter: TELECOM}"));
        assertThatThrownBy(() -> ConfigLoader.load(dc))
                .hasMessageStartingWith(dc + ":12:41: data center TELECOM is not defined");
        Files.delete(dir.resolve("example.com.zone"));
        Path pool = config(GOOD.replace("pools: [www]}", "pools: [web]}"));
        assertThatThrownBy(() -> ConfigLoader.load(pool))
                .hasMessageStartingWith(pool + ":16:37: wide IP www.example.com. names pool web");
    }

    @Test
    void badValuesAndSyntaxAreRefusedAtTheirLine() throws Exception {
        Path addr = config(GOOD.replace("202.106.83.177", "202.106.83.377"));
        assertThatThrownBy(() -> ConfigLoader.load(addr))
                .hasMessageStartingWith(addr + ":11:17: '202.106.83.377' is not an IPv4 or IPv6 address");
        Files.delete(dir.resolve("example.com.zone"));
        Path yaml = config(GOOD.replace("pools:\n", "pools:\n  - [unclosed\n"));
        assertThatThrownBy(() -> ConfigLoader.load(yaml))
                .hasMessageContaining(yaml + ":")
                .hasMessageContaining("YAML syntax");
    }

    @Test
    void aWideIpOutsideTheZonesOrClashingWithZoneDataIsRefused() throws Exception {
        Path outside = config(GOOD.replace("name: www.example.com", "name: www.example.org"));
        assertThatThrownBy(() -> ConfigLoader.load(outside))
                .hasMessageStartingWith(outside + ":16:5: wide IP www.example.org. is not inside any served zone");
        Files.delete(dir.resolve("example.com.zone"));
        Path clash = config(GOOD.replace("name: www.example.com", "name: ftp.example.com"));
        assertThatThrownBy(() -> ConfigLoader.load(clash))
                .hasMessageContaining("wide IP ftp.example.com. also has a CNAME in zone example.com.");
    }

    @Test
    void topologyRecordsAreCheckedAtTheirLine() throws Exception {
        String topo = "topology:\n  data: []\n  records:\n    - {cidr: 202.106.0.0/16, datacenter: CNC, score: 100}\n";
        GslbConfig ok = ConfigLoader.load(config(GOOD + topo));
        assertThat(ok.topology().spec().records())
                .singleElement()
                .satisfies(r -> assertThat(r.origin()).endsWith("gslb.yaml:20:7"));
        Files.delete(dir.resolve("example.com.zone"));
        Path badDc = config(GOOD + topo.replace("datacenter: CNC", "datacenter: MOBILE"));
        assertThatThrownBy(() -> ConfigLoader.load(badDc)).hasMessageStartingWith(badDc + ":20:30: data center MOBILE");
        Files.delete(dir.resolve("example.com.zone"));
        Path badCidr = config(GOOD + topo.replace("202.106.0.0/16", "202.106.0.1/16"));
        assertThatThrownBy(() -> ConfigLoader.load(badCidr))
                .hasMessageContaining(badCidr + ":20:8: '202.106.0.1/16' has host bits set");
    }

    @Test
    void methodSettingsBindFromTheirOwnKeysUnderLoadBalancing() throws Exception {
        Path badValue = config(GOOD + "load-balancing:\n  rtt-margin: 5 s\n");
        assertThatThrownBy(() -> ConfigLoader.load(badValue))
                .hasMessageStartingWith(badValue + ":18:3: '5 s' is not a duration");
        Files.delete(dir.resolve("example.com.zone"));
        Path range = config(GOOD + "load-balancing:\n  rtt-margin-percent: 150\n");
        assertThatThrownBy(() -> ConfigLoader.load(range))
                .hasMessage(range + ":18:3: rtt-margin-percent must be between 0 and 99, not 150");
        Files.delete(dir.resolve("example.com.zone"));
        Path unknown = config(GOOD + "load-balancing:\n  unknown-health: unavailable\n  rtt-margin-pct: 5\n");
        assertThatThrownBy(() -> ConfigLoader.load(unknown))
                .hasMessage(unknown + ":19:3: unknown key 'rtt-margin-pct' in load-balancing; expected one of"
                        + " [dynamic-ratio, load-band, persistence-prefix-v4, persistence-prefix-v6, qos, rtt-margin,"
                        + " rtt-margin-percent,"
                        + " unknown-health]");
        Files.delete(dir.resolve("example.com.zone"));
        Path health = config(GOOD + "load-balancing:\n  unknown-health: maybe\n");
        assertThatThrownBy(() -> ConfigLoader.load(health))
                .hasMessage(health + ":18:3: unknown-health must be available or unavailable");
        Files.delete(dir.resolve("example.com.zone"));
        var lb = ConfigLoader.load(config(GOOD + "load-balancing:\n  unknown-health: unavailable\n"))
                .loadBalancing();
        assertThat(lb.unknownIsAvailable()).isFalse();
    }

    @Test
    void aPoolsQosIsCheckedAtItsKey() throws Exception {
        Path poolQos = config(GOOD.replace(
                "  - {name: www, members: [vs1, vs2]}", "  - {name: www, members: [vs1, vs2], qos: {hops: 20000}}"));
        assertThatThrownBy(() -> ConfigLoader.load(poolQos))
                .hasMessage(poolQos + ":14:44: hops must be between 0 and 10000, not 20000");
    }

    @Test
    void aWideIpsFailureBindsAndIsCheckedAtItsKey() throws Exception {
        Path rcode = config(GOOD.replace("pools: [www]}", "pools: [www], failure: {rcode: bogus}}"));
        assertThatThrownBy(() -> ConfigLoader.load(rcode))
                .hasMessage(rcode + ":16:53: failure rcode must be noerror, nxdomain, refused or servfail");
        var fallback = ConfigLoader.load(config(
                        GOOD.replace("pools: [www]}", "pools: [www], failure: {fallback-ip: [198.18.0.9], ttl: 5}}")))
                .wideIps()
                .getFirst()
                .failure();
        assertThat(fallback)
                .isEqualTo(new Failure(
                        Failure.Kind.FALLBACK_IP, List.of(java.net.InetAddress.ofLiteral("198.18.0.9")), 5));
    }

    @Test
    void anAlertBindsWithItsDefaultsAndIsCheckedAtItsKeys() throws Exception {
        Path alert =
                config(GOOD + "alerts:\n  - {on: [server-down], webhook: \"http://127.0.0.1/\", max-per-minute: 0}\n");
        assertThatThrownBy(() -> ConfigLoader.load(alert))
                .hasMessage(alert + ":18:55: max-per-minute must be between 1 and 10000, not 0");
        var alerts = ConfigLoader.load(config(GOOD + "alerts:\n  - {on: [server-down], exec: [true]}\n"))
                .alerts();
        assertThat(alerts).singleElement().satisfies(a -> {
            assertThat(a.maxPerMinute()).isEqualTo(20);
            assertThat(a.timeout()).hasSeconds(10);
        });
    }

    @Test
    void sectionsBindToTheirOwnersWithDefaultsAcrossSections() throws Exception {
        GslbConfig probeTtl = ConfigLoader.load(config(GOOD + "probe: {path-ttl: 10m}\n"));
        assertThat(probeTtl.sync().pathTtl())
                .as("paths are sent with the probe TTL")
                .hasMinutes(10);
        assertThat(probeTtl.sync().peersFile()).isEqualTo(dir.resolve("var/peers"));
        Files.delete(dir.resolve("example.com.zone"));
        GslbConfig own = ConfigLoader.load(config(GOOD + "probe: {path-ttl: 10m}\nsync: {path-ttl: 20m}\n"));
        assertThat(own.sync().pathTtl()).hasMinutes(20);
        Files.delete(dir.resolve("example.com.zone"));
        Path twice = config(GOOD + "probe: {path-ttl: 10m}\nprobe: {samples: 2}\n");
        assertThatThrownBy(() -> ConfigLoader.load(twice))
                .hasMessage(twice + ":18:1: key 'probe' appears twice in the configuration");
        Files.delete(dir.resolve("example.com.zone"));
        Path monitor = config(GOOD + "monitors:\n  - {name: m, type: tcp, port: 80}\n  - {name: p, type: ping}\n");
        assertThatThrownBy(() -> ConfigLoader.load(monitor))
                .hasMessageStartingWith(monitor + ":19:5: unknown monitor type 'ping'");
        Files.delete(dir.resolve("example.com.zone"));
        Path notAList = config(GOOD.replace("datacenters: [CNC, TEL]", "datacenters: {CNC: 1}"));
        assertThatThrownBy(() -> ConfigLoader.load(notAList)).hasMessage(notAList + ":9:1: datacenters must be a list");
    }

    /** An external monitor names a program of the monitor-programs folder by its name; anything else fails at its line. */
    @Test
    void anExternalMonitorRunsOnlyAProgramOfTheFolder() throws Exception {
        String monitor = "monitors:\n  - {name: m, type: external, command: [%s, \"{address}\"]}\n";
        Path absolute = config(GOOD + monitor.formatted("/bin/true"));
        assertThatThrownBy(() -> ConfigLoader.load(absolute))
                .hasMessageStartingWith(absolute + ":18:41: monitor m: '/bin/true' is not a program name")
                .hasMessageContaining("monitor-programs folder " + dir.resolve("monitor-programs"));
        Files.delete(dir.resolve("example.com.zone"));
        Path absent = config(GOOD + monitor.formatted("check"));
        assertThatThrownBy(() -> ConfigLoader.load(absent))
                .hasMessageStartingWith(absent + ":18:41: monitor m: no program check in the monitor-programs folder");
        Path program = Files.createDirectories(dir.resolve("checks")).resolve("check");
        Files.writeString(program, "#!/bin/sh\nexit 0\n");
        assertThat(program.toFile().setExecutable(true)).isTrue();
        Files.delete(dir.resolve("example.com.zone"));
        GslbConfig used = ConfigLoader.load(config(GOOD.replace("datacenter: CNC}", "datacenter: CNC, monitors: [m]}")
                + "monitor-programs: checks\n" + monitor.formatted("check")));
        var check = (dev.gslb.probe.health.ExternalCheck)
                used.health().getFirst().monitors().getFirst().check();
        assertThat(check.program()).isEqualTo(program);
    }

    @Test
    void zoneErrorsNameTheZoneFileAndLine() throws Exception {
        Path p = config(GOOD);
        Files.writeString(
                dir.resolve("example.com.zone"), "$TTL 60\n@ IN SOA ns1 h 1 2 3 4 5\n@ IN NS ns1\nns1 IN A 1.2.3\n");
        assertThatThrownBy(() -> ConfigLoader.load(p)).hasMessageContaining(dir.resolve("example.com.zone") + ":4:");
    }
}
