package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * The keys of a signed zone across a real pair on loopback: each instance makes its own at first
 * start; paired, the later one takes the older keys (whose DS the parent would hold), so both
 * serve one DNSKEY RRset; a roll started on either reaches the other; an instance that was away
 * takes the keys changed while it was; `gslb config status` says whether a peer holds the same keys.
 */
class DnssecKeysPairTest extends LoopbackPair {
    Path file(String name, String dc) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Files.copy(Path.of("../zones/example.com.zone"), d.resolve("example.com.zone"));
        Path f = d.resolve("gslb.yaml");
        Files.writeString(
                f,
                LoopbackConfig.local(name, dc, 0, (int) ConfigSyncTest.HEARTBEAT.toSeconds())
                        + LoopbackConfig.shared("")
                                .replace(
                                        "zones: [{file: example.com.zone}]",
                                        "zones: [{file: example.com.zone, dnssec: {}}]"));
        return f;
    }

    static List<String> dnskeys(GslbServer s) {
        try {
            SimpleResolver r = new SimpleResolver(s.dns().boundAddresses().getFirst());
            r.setTimeout(Duration.ofSeconds(2));
            Message m =
                    r.send(Message.newQuery(Record.newRecord(Name.fromString("example.com."), Type.DNSKEY, DClass.IN)));
            return m.getSection(Section.ANSWER).stream()
                    .map(Record::rdataToString)
                    .sorted()
                    .toList();
        } catch (Exception e) {
            return List.of();
        }
    }

    TopologyCommandTest.Run on(GslbServer s, String name, String... args) {
        return RuntimeStatesPairTest.on(dir, s, name, args);
    }

    @Test
    void thePairSignsWithOneSetOfKeysTheOlderOne() throws Exception {
        Path fa = file("gslb-a", "CNC");
        Path fb = file("gslb-b", "TEL");
        a = ConfigSyncTest.start(fa);
        List<String> older = dnskeys(a);
        assertThat(older).as("A made a KSK and a ZSK").hasSize(2);
        Thread.sleep(1100); // key files keep whole seconds: B's keys are made a second later
        b = ConfigSyncTest.start(fb);
        assertThat(dnskeys(b)).as("B made its own").hasSize(2).doesNotContainAnyElementsOf(older);

        ConfigSyncTest.pair(a, b);
        Awaits.until(
                "B serves A's keys, the older",
                Duration.ofSeconds(10),
                () -> dnskeys(b).equals(older));
        assertThat(dnskeys(a)).as("A kept its own").isEqualTo(older);
        Awaits.until(
                "config status on B: A holds the same keys",
                Duration.ofSeconds(10),
                () -> on(b, "gslb-b", "config", "status")
                        .out()
                        .matches("(?s).*dnssec keys of example.com.: \\w+; gslb-a same.*"));

        TopologyCommandTest.Run roll = on(b, "gslb-b", "dnssec", "roll", "example.com", "zsk");
        assertThat(roll.exit()).as(roll.err()).isZero();
        Awaits.until(
                "A takes the ZSK B published",
                Duration.ofSeconds(10),
                () -> dnskeys(a).size() == 3);
        assertThat(dnskeys(a)).isEqualTo(dnskeys(b));

        b.close();
        b = null;
        Thread.sleep(1100); // the change below is a second later than B's roll
        TopologyCommandTest.Run ksk = on(a, "gslb-a", "dnssec", "roll", "example.com", "ksk");
        assertThat(ksk.exit()).as(ksk.err()).isZero();
        List<String> changed = dnskeys(a);
        assertThat(changed).hasSize(4);
        b = ConfigSyncTest.start(fb);
        Awaits.until(
                "B, back, takes the keys A changed while it was away",
                Duration.ofSeconds(10),
                () -> dnskeys(b).equals(changed));
        Awaits.until(
                "config status on A: B holds the same keys (its offer after taking them)",
                Duration.ofSeconds(10),
                () -> on(a, "gslb-a", "config", "status").out().contains("gslb-b same"));
    }
}
