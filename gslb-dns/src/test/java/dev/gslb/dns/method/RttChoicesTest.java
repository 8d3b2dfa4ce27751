package dev.gslb.dns.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.topology.Address;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lossy table of RTT choices: a collision forgets a choice, never hands one LDNS another's. */
class RttChoicesTest {
    private static final long SET = 0b111;
    private static final long V4 = Address.parse("10.0.0.0").lo();

    @Test
    void remembersTheLastChoicePerLdnsAndSet() {
        RttChoices t = new RttChoices(RttChoices.MIN_BITS, 42);
        Address a = Address.parse("192.0.2.1");
        assertThat(t.previous(a.hi(), a.lo(), SET)).isEqualTo(RttChoices.NONE);
        t.remember(a.hi(), a.lo(), SET, 7);
        assertThat(t.previous(a.hi(), a.lo(), SET)).isEqualTo(7);
        assertThat(t.previous(a.hi(), a.lo(), 0b11))
                .as("another set of data centers")
                .isEqualTo(RttChoices.NONE);
        t.remember(a.hi(), a.lo(), SET, 0);
        assertThat(t.previous(a.hi(), a.lo(), SET)).isZero();
        t.remember(a.hi(), a.lo(), SET, 1023);
        assertThat(t.previous(a.hi(), a.lo(), SET))
                .as("the largest data-center number")
                .isEqualTo(1023);
    }

    @Test
    void aCollisionForgetsTheEarlierChoice() {
        RttChoices t = new RttChoices(RttChoices.MIN_BITS, 42);
        long first = V4 + 1;
        long second = first + 1;
        while (t.slot(0, second, SET) != t.slot(0, first, SET)) {
            second++;
        }
        t.remember(0, first, SET, 3);
        assertThat(t.previous(0, second, SET))
                .as("a collision does not read the other's choice")
                .isEqualTo(RttChoices.NONE);
        t.remember(0, second, SET, 4);
        assertThat(t.previous(0, first, SET)).as("the first is forgotten").isEqualTo(RttChoices.NONE);
        assertThat(t.previous(0, second, SET)).isEqualTo(4);
    }

    @Test
    void neverTakesOneAddressOfASlash64ForAnother() {
        // 16 addresses a slot: every slot is overwritten many times over
        RttChoices t = new RttChoices(RttChoices.MIN_BITS, 7);
        int n = 16 << RttChoices.MIN_BITS;
        for (int i = 0; i < n; i++) {
            t.remember(0, V4 + i, SET, i % 1000);
        }
        int remembered = 0;
        for (int i = 0; i < n; i++) {
            int dc = t.previous(0, V4 + i, SET);
            if (dc != RttChoices.NONE) {
                assertThat(dc).as("address %d", i).isEqualTo(i % 1000);
                remembered++;
            }
        }
        // one address a slot, the last written there
        assertThat(remembered).isEqualTo(t.slots());
    }

    @Test
    void doesNotMisattributeAcrossManyIpv6Addresses() {
        RttChoices t = new RttChoices(RttChoices.MIN_BITS, 11);
        Random random = new Random(5);
        Map<Address, Integer> written = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            Address a = new Address(random.nextLong(), random.nextLong());
            int dc = random.nextInt(1024);
            written.put(a, dc);
            t.remember(a.hi(), a.lo(), SET, dc);
        }
        int remembered = 0;
        for (var e : written.entrySet()) {
            int dc = t.previous(e.getKey().hi(), e.getKey().lo(), SET);
            if (dc != RttChoices.NONE) {
                assertThat(dc).isEqualTo(e.getValue());
                remembered++;
            }
        }
        assertThat(remembered).isBetween(t.slots() * 9 / 10, t.slots());
    }

    @Test
    void isSizedFromTheProximityTableWithinBounds() {
        assertThat(RttChoices.sizedFor(table(1_000_000)).slots()).isEqualTo(1 << 20);
        assertThat(RttChoices.sizedFor(table(100_000_000)).slots())
                .as("8 MiB at most")
                .isEqualTo(1 << 20);
        assertThat(RttChoices.sizedFor(table(50_000)).slots()).isEqualTo(1 << 16);
        assertThat(RttChoices.sizedFor(table(65_536)).slots()).isEqualTo(1 << 16);
        assertThat(RttChoices.sizedFor(table(10)).slots()).isEqualTo(1 << RttChoices.MIN_BITS);
        assertThat(RttChoices.sizedFor(null).slots()).isEqualTo(1 << RttChoices.MIN_BITS);
        assertThatThrownBy(() -> new RttChoices(RttChoices.MAX_BITS + 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static ProximityTable table(int maxLdns) {
        return new ProximityTable(ProximitySettings.DEFAULTS.withMaxLdns(maxLdns), Clock.systemUTC());
    }
}
