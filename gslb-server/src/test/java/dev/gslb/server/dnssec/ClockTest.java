package dev.gslb.server.dnssec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.api.PeerStatus;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.dnssec.KeyFile;
import dev.gslb.dns.dnssec.KeyTimings;
import dev.gslb.dns.dnssec.ZoneKeys;
import dev.gslb.dns.zone.DnssecSettings;
import dev.gslb.dns.zone.ZoneFile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Name;

/**
 * A clock that cannot be right while zones are signed: set back before the keys were made (the
 * keys in service stay, no roll starts, the alert says why), or far from a peer's.
 */
class ClockTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");

    @Test
    void aClockSetBackKeepsTheKeysInServiceStartsNoRollAndSaysWhy(@TempDir Path dir) throws Exception {
        SettableClock clock = new SettableClock(Instant.now());
        Instant right = clock.instant();
        ZoneKeyStore store = new ZoneKeyStore(dir.resolve("dnssec"), ring -> {}, clock);
        SigningWatch watch = new SigningWatch(store, new SimpleMeterRegistry(), List::of);
        try {
            Authority signed = new Authority(
                    List.of(ZoneFile.load(Path.of("../zones/example.com.zone"), null)
                            .withDnssec(DnssecSettings.DEFAULTS)),
                    List.of());
            store.zones(signed);
            ZoneKeys inService = store.ring().of(ZONE);
            assertThat(inService).isNotNull();
            assertThat(watch.problems()).isEmpty();

            clock.at = right.minus(Duration.ofDays(400)); // a clock reset, then a reload
            store.zones(signed);
            assertThat(store.ring().of(ZONE)).as("the keys in service stay").isSameAs(inService);
            assertThat(watch.problems().get(SigningWatch.CLOCK))
                    .contains("far off")
                    .contains(ZONE.toString());
            assertThatThrownBy(() -> store.roll(ZONE, "zsk")).hasMessageContaining("set it right first");

            clock.at = right.plusSeconds(5);
            store.zones(signed);
            assertThat(watch.problems()).as("right again").isEmpty();
            assertThat(store.ring().of(ZONE)).isNotNull();
        } finally {
            store.close();
        }
    }

    @Test
    void keysAPeerSaysWereMadeAfterNowAreNotTaken(@TempDir Path dir) throws Exception {
        ZoneKeyStore store = new ZoneKeyStore(dir.resolve("dnssec"), ring -> {}, Clock.systemUTC());
        try {
            store.zones(new Authority(
                    List.of(ZoneFile.load(Path.of("../zones/example.com.zone"), null)
                            .withDnssec(DnssecSettings.DEFAULTS)),
                    List.of()));
            ZoneKeys ours = store.ring().of(ZONE);
            Instant later = Instant.now().plus(Duration.ofDays(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            Instant earlier =
                    Instant.now().minus(Duration.ofHours(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            // the older set would win, but one key claims a time to come: it would stop signing here
            List<KeyFile> offered = List.of(
                    KeyFile.generate(ZONE, KeyFile.ECDSAP256SHA256, 257, KeyTimings.madeAt(earlier)),
                    KeyFile.generate(ZONE, KeyFile.ECDSAP256SHA256, 256, KeyTimings.madeAt(later)));
            assertThatThrownBy(() -> store.adopt(ZONE, offered)).hasMessageContaining("after now");
            assertThat(store.ring().of(ZONE)).as("ours stay").isSameAs(ours);
        } finally {
            store.close();
        }
    }

    @Test
    void aPeersClockFarFromOursIsAProblem() {
        assertThat(SigningWatch.clockApart(List.of(peer(40 * 60_000L)))).contains("40 min ahead of ours");
        assertThat(SigningWatch.clockApart(List.of(peer(5_000L), peer(-45 * 60_000L))))
                .contains("45 min behind ours");
        assertThat(SigningWatch.clockApart(List.of(peer(5_000L), peer(null)))).isNull();
    }

    private static PeerStatus peer(Long aheadMillis) {
        return new PeerStatus("b", "TEL", List.of(), null, "connected", null, 0, 0, 0, 0, 0L, aheadMillis, null);
    }

    private static final class SettableClock extends Clock {
        volatile Instant at;

        SettableClock(Instant at) {
            this.at = at;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return at;
        }
    }
}
