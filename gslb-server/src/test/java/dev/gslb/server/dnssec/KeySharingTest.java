package dev.gslb.server.dnssec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.dnssec.KeyFile;
import dev.gslb.dns.dnssec.KeyTimings;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Name;

/** Which of two instances' keys a pair keeps: the older set, then the one changed last, then the greater name. */
class KeySharingTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");
    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    private static KeyFile key(int flags, Instant made) {
        return KeyFile.generate(ZONE, KeyFile.ECDSAP256SHA256, flags, KeyTimings.madeAt(made));
    }

    @Test
    void theOlderSetWinsWhateverChangedSince() {
        List<KeyFile> older = List.of(key(257, T0), key(256, T0));
        List<KeyFile> newer = List.of(key(257, T0.plusSeconds(5)), key(256, T0.plusSeconds(5)));
        Instant now = T0.plusSeconds(60);
        assertThat(KeySharing.wins(older, "a", newer, "b", now)).isTrue();
        assertThat(KeySharing.wins(newer, "b", older, "a", now))
                .as("either way round")
                .isFalse();
    }

    @Test
    void ofOneAgeTheSetChangedLastWinsThenTheGreaterName() {
        KeyFile ksk = key(257, T0);
        KeyFile zsk = key(256, T0);
        List<KeyFile> rolled = List.of(ksk, zsk, key(256, T0.plusSeconds(30)));
        List<KeyFile> before = List.of(ksk, zsk);
        Instant now = T0.plusSeconds(60);
        assertThat(KeySharing.wins(rolled, "a", before, "b", now)).isTrue();
        assertThat(KeySharing.wins(before, "b", rolled, "a", now)).isFalse();
        List<KeyFile> otherRoll = List.of(ksk, zsk, key(256, T0.plusSeconds(30)));
        assertThat(KeySharing.wins(otherRoll, "b", rolled, "a", now))
                .as("a tie: the greater name")
                .isTrue();
        assertThat(KeySharing.wins(rolled, "a", otherRoll, "b", now)).isFalse();
        assertThat(KeySharing.digest(rolled)).isNotEqualTo(KeySharing.digest(otherRoll));
        assertThat(KeySharing.digest(List.of(zsk, ksk))).as("in any order").isEqualTo(KeySharing.digest(before));
    }

    /**
     * A peer's offer goes through the same checks as key files: keys of another zone are refused
     * before anything is written, however old they claim to be, and ours stay; the older keys of
     * the zone itself are taken, and are what this instance then offers.
     */
    @Test
    void aPeersKeysAreCheckedBeforeTheyAreTaken(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        ZoneKeyStore store = new ZoneKeyStore(dir.resolve("dnssec"), ring -> {}, java.time.Clock.systemUTC());
        try {
            store.zones(new dev.gslb.dns.answer.Authority(
                    List.of(dev.gslb.dns.zone.ZoneFile.load(java.nio.file.Path.of("../zones/example.com.zone"), null)
                            .withDnssec(dev.gslb.dns.zone.DnssecSettings.DEFAULTS)),
                    List.of()));
            String ours = KeySharing.digest(store.made().get(ZONE));
            KeySharing sharing =
                    new KeySharing(store, "b", dir.resolve("staging"), () -> {}, java.time.Clock.systemUTC());
            store.onChange(sharing::changed); // as the server wires them
            Instant old = Instant.parse("2020-01-01T00:00:00Z");
            Name other = Name.fromConstantString("example.net.");
            sharing.received(
                    "a",
                    offer(
                            ZONE,
                            List.of(
                                    KeyFile.generate(other, KeyFile.ECDSAP256SHA256, 257, KeyTimings.madeAt(old)),
                                    KeyFile.generate(other, KeyFile.ECDSAP256SHA256, 256, KeyTimings.madeAt(old)))));
            assertThat(KeySharing.digest(store.made().get(ZONE)))
                    .as("another zone's keys: ours stay")
                    .isEqualTo(ours);
            assertThat(store.ring().of(ZONE)).isNotNull();

            Instant hourAgo = Instant.now().minusSeconds(3600).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            List<KeyFile> older = List.of( // older than ours, younger than a ZSK's lifetime (no roll starts)
                    KeyFile.generate(ZONE, KeyFile.ECDSAP256SHA256, 257, KeyTimings.madeAt(hourAgo)),
                    KeyFile.generate(ZONE, KeyFile.ECDSAP256SHA256, 256, KeyTimings.madeAt(hourAgo)));
            sharing.received("a", offer(ZONE, older));
            assertThat(KeySharing.digest(store.made().get(ZONE)))
                    .as("the older keys are taken")
                    .isEqualTo(KeySharing.digest(older));
            assertThat(new String(sharing.current().content(), java.nio.charset.StandardCharsets.UTF_8))
                    .as("and offered on")
                    .contains(older.getFirst()
                            .keyText()
                            .lines()
                            .filter(l -> !l.startsWith(";"))
                            .findFirst()
                            .orElseThrow());
            assertThat(java.nio.file.Files.list(dir.resolve("staging")).toList())
                    .as("nothing left in staging")
                    .isEmpty();
        } finally {
            store.close();
        }
    }

    private static dev.gslb.sync.OfferExchange.Offer offer(Name zone, List<KeyFile> keys) {
        KeySharing.Content c = new KeySharing.Content(List.of(new KeySharing.Shared(
                zone.toString(),
                keys.stream()
                        .map(k -> new KeySharing.Pair(k.keyText(), k.privateText()))
                        .toList())));
        return new dev.gslb.sync.OfferExchange.Offer(
                1, "a", dev.gslb.api.Json.compact(c).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
