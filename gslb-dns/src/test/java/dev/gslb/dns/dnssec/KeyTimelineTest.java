package dev.gslb.dns.dnssec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.dns.dnssec.KeyTimeline.State;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Name;

/** The rolls along a fake clock: each step comes when the TTLs allow, never before. */
class KeyTimelineTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    /** DNSKEY TTL 1 h, largest TTL 1 d, propagation-delay 1 h, DS TTL 1 d. */
    private static final RollTtls TTLS =
            new RollTtls(Duration.ofHours(1), Duration.ofDays(1), Duration.ofHours(1), RollTtls.DS_TTL);

    private final List<KeyFile> keys = new ArrayList<>();
    private boolean cskZone;

    private KeyTimeline timeline() {
        return new KeyTimeline(ZONE, keys, cskZone);
    }

    /** The key as its timings are now (a roll rewrote them). */
    private KeyFile now(KeyFile k) {
        return keys.stream().filter(c -> c.tag() == k.tag()).findFirst().orElseThrow();
    }

    /** The changed keys replace theirs (same DNSKEY), the new ones are added: what the store writes. */
    private void apply(List<KeyFile> changed) {
        for (KeyFile c : changed) {
            keys.removeIf(k -> k.dnskey().equals(c.dnskey()));
            keys.add(c);
        }
    }

    private SigningKey signing(KeyFile k, Instant at) {
        return timeline().signing(at, 3600).stream()
                .filter(s -> s.dnskey().getFootprint() == k.tag())
                .findFirst()
                .orElse(null);
    }

    @Test
    void aZskRollPrePublishesThenSwitchesThenRemovesTheOldKey() {
        KeyFile ksk = KeyFile.generate(ZONE, 13, 257, KeyTimings.madeAt(T0));
        KeyFile zsk = KeyFile.generate(ZONE, 13, 256, KeyTimings.madeAt(T0));
        keys.addAll(List.of(ksk, zsk));
        ZskRoll roll = new ZskRoll(Duration.ofDays(30), TTLS, 13);

        Instant due = roll.due(timeline(), T0);
        assertThat(due)
                .as("published DNSKEY TTL + propagation before the lifetime ends")
                .isEqualTo(T0.plus(Duration.ofDays(30)).minus(Duration.ofHours(2)));
        assertThat(timeline().next(T0)).isNull();

        apply(roll.start(timeline(), due));
        KeyFile next = roll.current(timeline(), due);
        assertThat(next.tag()).isNotEqualTo(zsk.tag());
        assertThat(roll.due(timeline(), due))
                .as("no second roll while one goes on")
                .isNull();
        assertThatThrownBy(() -> roll.start(timeline(), due)).hasMessageContaining("going on already");

        // published, not signing: the old one signs
        assertThat(timeline().state(next, due)).isEqualTo(State.PUBLISHED);
        assertThat(signing(next, due).signsZone()).isFalse();
        assertThat(signing(zsk, due).signsZone()).isTrue();
        KeyTimeline.Event step = timeline().next(due);
        assertThat(step.at()).isEqualTo(due.plus(Duration.ofHours(2)));

        // one second early nothing changed; at the step the new signs, the old is retired but published
        Instant early = step.at().minusSeconds(1);
        assertThat(signing(zsk, early).signsZone()).isTrue();
        assertThat(signing(next, early).signsZone()).isFalse();
        Instant switched = step.at();
        assertThat(signing(next, switched).signsZone()).isTrue();
        assertThat(signing(zsk, switched).signsZone()).isFalse();
        assertThat(timeline().state(now(zsk), switched)).isEqualTo(State.RETIRED);
        assertThat(signing(zsk, switched).published()).isTrue();

        // gone after the largest TTL + propagation-delay
        KeyTimeline.Event gone = timeline().next(switched);
        assertThat(gone.at()).isEqualTo(switched.plus(Duration.ofDays(1)).plus(Duration.ofHours(1)));
        assertThat(gone.timing()).isEqualTo("Delete");
        assertThat(signing(zsk, gone.at().minusSeconds(1))).isNotNull();
        assertThat(signing(zsk, gone.at())).isNull();
        assertThat(timeline().state(now(zsk), gone.at())).isEqualTo(State.REMOVED);
        assertThat(roll.rolling(timeline(), gone.at())).isFalse();
        assertThat(roll.due(timeline(), gone.at()))
                .isEqualTo(switched.plus(Duration.ofDays(30)).minus(Duration.ofHours(2)));
        // the KSK signed the keys all along
        assertThat(signing(ksk, gone.at()).signsKeys()).isTrue();
        assertThat(signing(ksk, gone.at()).signsZone()).isFalse();
    }

    @Test
    void aKskRollSignsAtOnceNamesTheNewKeyAndWaitsForTheParentsDs() {
        KeyFile ksk = KeyFile.generate(ZONE, 15, 257, KeyTimings.madeAt(T0));
        KeyFile zsk = KeyFile.generate(ZONE, 15, 256, KeyTimings.madeAt(T0));
        keys.addAll(List.of(ksk, zsk));
        KskRoll roll = new KskRoll(Duration.ZERO, TTLS, 15, KeyRole.KSK);
        Instant start = T0.plus(Duration.ofDays(100));
        assertThat(roll.due(timeline(), start))
                .as("ksk-lifetime 0: only when told")
                .isNull();
        assertThat(signing(ksk, start).cds())
                .as("outside a roll CDS names the KSK")
                .isTrue();
        assertThatThrownBy(() -> roll.submitted(timeline(), start)).hasMessageContaining("no ksk roll waits");

        apply(roll.start(timeline(), start));
        KeyFile next = roll.current(timeline(), start);
        assertThat(signing(next, start).signsKeys()).as("signs DNSKEY at once").isTrue();
        assertThat(signing(ksk, start).signsKeys()).as("beside the old").isTrue();
        assertThat(signing(next, start).cds())
                .as("named once caches can have it")
                .isFalse();
        assertThat(signing(ksk, start).cds()).isTrue();
        Instant named = start.plus(Duration.ofHours(2));
        assertThat(timeline().next(start).at()).isEqualTo(named);
        assertThat(signing(next, named).cds()).isTrue();
        assertThat(signing(ksk, named).cds()).as("CDS names the new key only").isFalse();

        // the old key stays until the operator's word, however long that takes
        Instant later = start.plus(Duration.ofDays(400));
        assertThat(timeline().next(named)).isNull();
        assertThat(signing(ksk, later).signsKeys()).isTrue();
        assertThat(roll.waitingForDs(timeline(), later)).isTrue();

        apply(roll.submitted(timeline(), later));
        assertThat(roll.waitingForDs(timeline(), later)).isFalse();
        KeyTimeline.Event leave = timeline().next(later);
        assertThat(leave.at()).as("DS TTL + propagation-delay").isEqualTo(later.plus(Duration.ofHours(25)));
        assertThat(leave.key().tag()).isEqualTo(ksk.tag());
        assertThat(signing(ksk, leave.at().minusSeconds(1)).signsKeys()).isTrue();
        assertThat(signing(ksk, leave.at())).isNull();
        assertThat(signing(next, leave.at()).signsKeys()).isTrue();
        assertThat(signing(next, leave.at()).cds()).isTrue();
        assertThat(roll.rolling(timeline(), leave.at())).isFalse();
    }

    @Test
    void submittedTooEarlyStillWaitsForTheNewKeyToBeKnown() {
        KeyFile csk = KeyFile.generate(ZONE, 13, 257, KeyTimings.madeAt(T0));
        keys.add(csk);
        cskZone = true;
        KskRoll roll = new KskRoll(Duration.ofDays(365), TTLS, 13, KeyRole.CSK);
        Instant due = roll.due(timeline(), T0);
        assertThat(due).isEqualTo(T0.plus(Duration.ofDays(365)));
        apply(roll.start(timeline(), due));
        KeyFile next = roll.current(timeline(), due);
        assertThat(timeline().signing(due, 3600)).allMatch(s -> s.signsZone() && s.signsKeys());

        apply(roll.submitted(timeline(), due)); // at once: the parent cannot have seen the CDS yet
        assertThat(timeline().next(due.plus(Duration.ofHours(2))).at())
                .isEqualTo(due.plus(Duration.ofHours(2)).plus(Duration.ofHours(25)));
        assertThat(next.tag()).isNotEqualTo(csk.tag());
    }

    @Test
    void keysWithoutTimingsArePublishedAndActive() {
        KeyFile bind = KeyFile.generate(ZONE, 13, 257, KeyTimings.NONE);
        keys.add(bind);
        assertThat(timeline().state(bind, T0)).isEqualTo(State.ACTIVE);
        assertThat(signing(bind, T0).cds()).isTrue();
        KeyFile later = KeyFile.generate(ZONE, 13, 256, KeyTimings.NONE.with("Publish", T0.plusSeconds(60)));
        keys.add(later);
        assertThat(timeline().state(later, T0)).isEqualTo(State.WAITING);
        assertThat(timeline().signing(T0, 3600)).hasSize(1);
    }
}
