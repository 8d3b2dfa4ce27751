package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigLoader;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two real servers paired on loopback, driven with the gslb command as an operator types it: a
 * dry run on A changes neither; a load on A is listed on B with who made it and where; an unload
 * typed on B reaches A; a revert on A reaches B; A restarted keeps what was reverted.
 */
class TopologyLoadsPairTest extends LoopbackPair {

    /** An instance's file: the usual shared part with the shipped lists and chinanet -> TEL. */
    Path file(String name, String dc) throws Exception {
        Path folder = Files.createDirectories(dir.resolve(name));
        Files.copy(Path.of("../zones/example.com.zone"), folder.resolve("example.com.zone"));
        String lists =
                Path.of("../topology-data/china-operator-ip").toAbsolutePath().toString();
        return Files.writeString(
                folder.resolve("gslb.yaml"),
                LoopbackConfig.local(name, dc, 0, (int) ConfigSyncTest.HEARTBEAT.toSeconds())
                        + LoopbackConfig.shared("topology: {data: [" + lists
                                + "], records: [{region: chinanet, datacenter: TEL, score: 100}]}\n"));
    }

    /** The gslb command against {@code s}'s admin API, with {@code s}'s admin token. */
    static TopologyCommandTest.Run gslb(GslbServer s, Path config, String... args) throws Exception {
        System.setProperty(
                "gslb.token-file", ConfigLoader.load(config).admin().tokenFile().toString());
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--admin";
        all[args.length + 1] = "http://" + s.admin().address();
        TopologyCommandTest.Run r = TopologyCommandTest.gslb(all);
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        return r;
    }

    static String region(GslbServer s, String ip) {
        var m = s.topology().table().lookup(InetAddress.ofLiteral(ip));
        return m == null ? null : m.region();
    }

    @Test
    void unloadAndRevertReachThePeerAsALoadDoes() throws Exception {
        Path fa = file("gslb-a", "CNC");
        Path fb = file("gslb-b", "TEL");
        a = ConfigSyncTest.start(fa);
        b = ConfigSyncTest.start(fb);
        String token = a.sync().pair(List.of()).token();
        b.sync().join(token);
        Awaits.until(
                "A and B connected",
                Duration.ofSeconds(10),
                () -> ConfigSyncTest.connected(a) && ConfigSyncTest.connected(b));
        a.proximity().touch(dev.gslb.topology.Address.parse("61.136.178.229"));
        Path list = dir.resolve("test.txt");
        Files.writeString(list, "61.136.178.0/24\n");

        TopologyCommandTest.Run dry = gslb(a, fa, "topology", "load", list.toString(), "--dry-run");
        assertThat(dry.out())
                .contains(
                        "dry run, nothing changed: loading test would",
                        "prefixes: 1 added, 0 to another region, 0 removed",
                        "+ 61.136.178.0/24",
                        "regions (prefixes before -> after): test 0 -> 1",
                        "LDNS: 1 of the 1 in the proximity table would be placed otherwise",
                        "61.136.178.229",
                        "chinanet -> TEL  =>  test -> no record");
        assertThat(region(a, "61.136.178.229")).isEqualTo("chinanet");
        assertThat(gslb(a, fa, "topology", "loads").out()).contains("nothing was loaded at run time");

        TopologyCommandTest.Run loaded = gslb(a, fa, "topology", "load", list.toString());
        assertThat(loaded.out()).contains("loaded 1 file(s) as test:", "are placed otherwise");
        Awaits.until("B serving the load", Duration.ofSeconds(10), () -> "test".equals(region(b, "61.136.178.229")));
        assertThat(gslb(b, fb, "topology", "loads").out())
                .containsPattern("test\\s+1\\s+test\\s+local\\s+gslb-a\\s+\\S+Z\\s+" + list.toAbsolutePath());

        TopologyCommandTest.Run unloaded = gslb(b, fb, "topology", "unload", "test");
        assertThat(unloaded.out()).contains("unloaded test:", "- 61.136.178.0/24");
        assertThat(region(b, "61.136.178.229")).isEqualTo("chinanet");
        Awaits.until("A took the unload", Duration.ofSeconds(10), () -> "chinanet".equals(region(a, "61.136.178.229")));
        assertThat(a.topology().loads()).isEmpty();

        gslb(a, fa, "topology", "load", list.toString(), "--name", "first");
        gslb(a, fa, "topology", "load", list.toString(), "--name", "second", "--region", "lab");
        Awaits.until(
                "B serving both",
                Duration.ofSeconds(10),
                () -> b.topology().loads().size() == 2);
        TopologyCommandTest.Run dryRevert = gslb(b, fb, "topology", "revert", "--dry-run", "--json");
        assertThat(dryRevert.out()).contains("\"dryRun\" : true", "\"removed\" : 1");
        assertThat(b.topology().loads()).hasSize(2);
        assertThat(gslb(a, fa, "topology", "revert").out()).contains("reverted to the configured table:");
        Awaits.until(
                "B reverted", Duration.ofSeconds(10), () -> b.topology().loads().isEmpty());
        assertThat(region(b, "61.136.178.229")).isEqualTo("chinanet");

        a.close();
        a = ConfigSyncTest.start(fa);
        assertThat(a.topology().loads())
                .as("the revert is kept in the state folder")
                .isEmpty();
        assertThat(region(a, "61.136.178.229")).isEqualTo("chinanet");
    }

    @Test
    void aBindViewsImportHasADryRunAndANameToUnload() throws Exception {
        Path fa = file("gslb-a", "CNC");
        a = ConfigSyncTest.start(fa);
        a.proximity().touch(dev.gslb.topology.Address.parse("61.136.178.229"));
        Path named = dir.resolve("named.conf");
        Files.writeString(named, """
                acl "test" { 61.136.178.0/24; };
                view "cnc" { match-clients { test; }; zone "example.com" { type master; file "x"; }; };
                """);
        TopologyCommandTest.Run dry =
                gslb(a, fa, "import", "bind-views", named.toString(), "--map", "cnc=CNC", "--dry-run");
        assertThat(dry.out())
                .contains("would import 1 view(s)", "as bind-views", "records: 1 added", "dry run: nothing changed")
                .containsPattern("61\\.136\\.178\\.229\\s+chinanet -> TEL  =>  \\S+ -> CNC");
        assertThat(a.topology().loads()).isEmpty();
        gslb(a, fa, "import", "bind-views", named.toString(), "--map", "cnc=CNC", "--name", "views");
        assertThat(a.topology()
                        .table()
                        .lookup(InetAddress.ofLiteral("61.136.178.229"))
                        .bestDataCenter())
                .isEqualTo("CNC");
        assertThat(gslb(a, fa, "topology", "unload", "views").out()).contains("unloaded views:");
        assertThat(a.topology()
                        .table()
                        .lookup(InetAddress.ofLiteral("61.136.178.229"))
                        .bestDataCenter())
                .isEqualTo("TEL");
    }
}
