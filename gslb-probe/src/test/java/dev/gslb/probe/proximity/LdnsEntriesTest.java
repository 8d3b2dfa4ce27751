package dev.gslb.probe.proximity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The proximity table's open-addressing storage and the packed entries it holds. */
class LdnsEntriesTest {
    private static long v4(int i) {
        return 0xFFFF_0000_0000L | (0x0A000000L + i);
    }

    /** An entry whose last use, in whole seconds as an entry keeps it, marks it. */
    private static LdnsEntry put(LdnsEntries t, long hi, long lo, long lastUsedSeconds) {
        return t.compute(hi, lo, old -> LdnsEntry.probing(lastUsedSeconds * 1000));
    }

    @Test
    void removedKeysLeaveTombstonesThatLaterLookupsPassAndInsertsReuse() {
        LdnsEntries t = new LdnsEntries();
        for (int i = 0; i < 50_000; i++) {
            put(t, 0, v4(i), i);
        }
        for (int i = 0; i < 50_000; i += 2) {
            assertThat(t.remove(0, v4(i), null)).isTrue();
        }
        assertThat(t.remove(0, v4(0), null)).as("already gone").isFalse();
        assertThat(t.size()).isEqualTo(25_000);
        for (int i = 0; i < 50_000; i++) {
            LdnsEntry e = t.get(0, v4(i));
            if (i % 2 == 0) {
                assertThat(e).isNull();
            } else {
                assertThat(e.lastUsed()).isEqualTo(i * 1000L);
                assertThat(e.isAt(0, v4(i))).isTrue();
            }
        }
        for (int round = 0; round < 5; round++) { // churn: tombstones are cleared by rebuilds, never fill a segment
            for (int i = 0; i < 50_000; i += 2) {
                put(t, 0, v4(i), round);
                t.remove(0, v4(i), null);
            }
        }
        assertThat(t.size()).isEqualTo(25_000);
        Set<Long> seen = new HashSet<>();
        t.iterator().forEachRemaining(e -> seen.add(e.lo()));
        assertThat(seen).hasSize(25_000).contains(v4(1), v4(49_999)).doesNotContain(v4(0));
    }

    /** The per-state counts are kept as entries change, and agree with a pass over the table. */
    @Test
    void countsByStateFollowEveryChange() {
        LdnsEntries t = new LdnsEntries();
        for (int i = 0; i < 10_000; i++) {
            put(t, 0, v4(i), i);
        }
        for (int i = 0; i < 3_000; i++) {
            t.compute(0, v4(i), old -> old.unprobeable(1));
        }
        for (int i = 9_000; i < 10_000; i++) {
            t.remove(0, v4(i), null);
        }
        long[] counted = t.countByState();
        long[] walked = new long[LdnsEntry.State.values().length];
        t.iterator().forEachRemaining(e -> walked[e.state().ordinal()]++);
        assertThat(counted).containsExactly(walked);
        assertThat(counted[LdnsEntry.State.UNPROBEABLE.ordinal()]).isEqualTo(3_000);
        assertThat(java.util.Arrays.stream(counted).sum()).isEqualTo(9_000);
    }

    @Test
    void theAddressZeroAndIpv6KeysAreKeysLikeAnyOther() {
        LdnsEntries t = new LdnsEntries();
        put(t, 0, 0, 7);
        put(t, 0x2001_0db8_0000_0000L, 1, 8);
        assertThat(t.get(0, 0).lastUsed()).isEqualTo(7000);
        assertThat(t.get(0x2001_0db8_0000_0000L, 1).lastUsed()).isEqualTo(8000);
        assertThat(t.get(0x2001_0db8_0000_0000L, 0)).isNull();
        assertThat(t.remove(0, 0, null)).isTrue();
        assertThat(t.get(0, 0)).isNull();
    }

    @Test
    void aRemovalThatExpectsAnOlderEntryLeavesTheNewerOne() {
        LdnsEntries t = new LdnsEntries();
        LdnsEntry first = put(t, 0, v4(1), 1);
        put(t, 0, v4(1), 2);
        assertThat(t.remove(0, v4(1), first)).isFalse();
        assertThat(t.get(0, v4(1)).lastUsed()).isEqualTo(2000);
    }

    /** Readers take no lock: while writers insert, replace and remove, a reader only ever sees its own key's entries. */
    @Test
    void readersSeeWholeEntriesOfTheirOwnKeyWhileWritersChurn() throws Exception {
        LdnsEntries t = new LdnsEntries();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong wrong = new AtomicLong();
        AtomicLong found = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int from = w * 100_000;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int round = 0; !stop.get() && round < 20; round++) {
                    for (int i = from; i < from + 100_000; i++) {
                        long used = i * 1000L; // lastUsed names the key
                        t.compute(0, v4(i), old -> LdnsEntry.probing(used));
                    }
                    for (int i = from; i < from + 100_000; i += 3) {
                        t.remove(0, v4(i), null);
                    }
                }
            }));
        }
        Thread reader = Thread.ofPlatform().start(() -> {
            while (!stop.get()) {
                for (int i = 0; i < 200_000; i += 7) {
                    LdnsEntry e = t.get(0, v4(i));
                    if (e != null) {
                        found.incrementAndGet();
                        if (e.lastUsed() != i * 1000L || !e.isAt(0, v4(i))) {
                            wrong.incrementAndGet();
                        }
                    }
                }
            }
        });
        for (Thread th : threads) {
            th.join();
        }
        stop.set(true);
        reader.join();
        assertThat(found.get()).isPositive();
        assertThat(wrong.get()).isZero();
        assertThat(t.size()).isEqualTo(2 * (100_000 - 33_334));
    }

    @Test
    void aPathPacksIntoTheEntryAndComesBackWhole() {
        Path p = Path.of(
                "CNC", Integer.MAX_VALUE, 10000, 127, ProbeProtocol.ICMP, 1_764_000_000_123L, "gslb-cnc", 409_512);
        Path q = Path.of("TEL", 0, 0, 0, ProbeProtocol.DNS_DOT, 1_763_999_000_000L, "gslb-tel");
        LdnsEntry e = LdnsEntry.probing(5_999).withPath(p).withPath(q);
        Path pKept = Path.of(
                "CNC", Integer.MAX_VALUE, 10000, 127, ProbeProtocol.ICMP, 1_764_000_000_000L, "gslb-cnc", 409_512);
        assertThat(e.paths()).as("measured-at in whole seconds").containsExactly(pKept, q);
        assertThat(e.pathIndex("TEL")).isEqualTo(1);
        assertThat(e.pathIndex("CTT")).isEqualTo(-1);
        assertThat(e.rttMicros(0)).isEqualTo(Path.MAX_RTT_MICROS);
        assertThat(e.jitterMicros(0))
                .as("tenths of a millisecond, at most 409.5 ms")
                .isEqualTo(409_500);
        assertThat(e.hops(0)).isEqualTo(127);
        assertThat(e.measuredAt(0)).isEqualTo(1_764_000_000_000L);
        assertThat(e.protocol()).isEqualTo(ProbeProtocol.DNS_DOT);
        assertThat(e.state()).isEqualTo(LdnsEntry.State.PROBED);
        assertThat(e.lastUsed()).as("whole seconds").isEqualTo(5_000);

        Path older = Path.of("CNC", 1, 10000, 0, ProbeProtocol.TCP, 1_763_999_999_999L, "gslb-cnc");
        assertThat(e.withPath(older)).as("older news").isSameAs(e);
        int tel = PathNames.SHARED.number("TEL");
        long after = 1_764_000_000_001L;
        assertThat(e.hasPathMeasuredBefore(after, tel))
                .as("CNC's, older than the cutoff")
                .isTrue();
        assertThat(e.hasPathMeasuredBefore(1_764_000_000_000L, tel))
                .as("not older")
                .isFalse();
        LdnsEntry without = e.withoutPathsMeasuredBefore(after, tel);
        assertThat(without.paths())
                .as("TEL's kept, however old: the data center kept")
                .containsExactly(q);
        assertThat(without.withoutPathsMeasuredBefore(0, PathNames.SHARED.number("CNC")))
                .isSameAs(without);
    }

    /** A peer's frame makes its paths through one origin: the same paths, their names interned once. */
    @Test
    void anOriginsPathsArePathsOfItsNamesInterned() {
        Path.Origin cnc = new Path.Origin(new String("CNC"), new String("gslb-cnc"));
        Path p = cnc.path(Long.MAX_VALUE, 10000, 255, ProbeProtocol.ICMP, 1_764_000_000_123L);
        assertThat(p)
                .isEqualTo(
                        Path.of("CNC", Long.MAX_VALUE, 10000, 255, ProbeProtocol.ICMP, 1_764_000_000_123L, "gslb-cnc"));
        assertThat(p.dataCenter()).as("interned").isSameAs("CNC");
        assertThat(p.measuredBy()).isSameAs("gslb-cnc");
        assertThat(p.rttMicros()).isEqualTo(Path.MAX_RTT_MICROS);
        assertThat(p.hops()).isEqualTo((byte) 127);

        LdnsEntry e = LdnsEntry.probing(0).withPath(p);
        Path byAnother = new Path.Origin("CNC", "gslb-cnc-2").path(1, 10000, 0, ProbeProtocol.TCP, 1_764_000_001_000L);
        assertThat(e.withPath(byAnother).paths())
                .as("one path per data center, whichever instance measured it")
                .containsExactly(byAnother);
    }

    /** Beyond two paths the entry keeps them in an array; ages before the newest are clamped at 48.5 days. */
    @Test
    void twentyPathsComeBackWholeAndAncientOnesAreClampedToTheOldestAge() {
        long now = 1_764_000_000_000L;
        LdnsEntry e = LdnsEntry.probing(now).unprobeable(now + 1);
        List<Path> want = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Path p = Path.of(
                    "DC" + i, 1000 + i, 10000 - i, i, ProbeProtocol.UDP, now - i * 60_000L, "gslb-" + i, 100 * i);
            want.add(p);
            e = e.withPath(p);
        }
        assertThat(e.pathList()).containsExactlyElementsOf(want);
        assertThat(e.retryAt()).as("withPath clears the retry").isZero();
        assertThat(e.unprobeable(now + 1).retryAt())
                .as("rounded up: never early")
                .isEqualTo(now + 1000);
        assertThat(e.usedAt(now + 60_000).pathList()).isEqualTo(want);
        assertThat(e.withoutPathsMeasuredBefore(now - 10 * 60_000L + 1, PathNames.SHARED.number("DC0"))
                        .pathList())
                .containsExactlyElementsOf(want.subList(0, 10));

        long maxAgeMillis = ((1 << 22) - 1) * 1000L;
        LdnsEntry ancient = e.withPath(Path.of("DC20", 1, 10000, 0, ProbeProtocol.TCP, 0, "gslb-20"));
        assertThat(ancient.path("DC20").measuredAt()).isEqualTo(now - maxAgeMillis);
        assertThat(ancient.pathCount()).isEqualTo(21);
        assertThat(LdnsEntry.probing(now)
                        .withPath(Path.of("DC1", 1, 10000, 0, ProbeProtocol.TCP, -5, "x"))
                        .measuredAt(0))
                .as("before 1970 is 1970")
                .isZero();
    }

    @Test
    void pairListsAreSharedUpToTheirBound() {
        PairLists lists = new PairLists(2);
        int[] first = {1, 2, 3};
        assertThat(lists.intern(first)).isSameAs(first);
        assertThat(lists.intern(new int[] {1, 2, 3}))
                .as("an equal list: the first")
                .isSameAs(first);
        int[] second = {3, 2, 1};
        assertThat(lists.intern(second)).as("order matters").isSameAs(second);
        int[] third = {4, 5, 6};
        assertThat(lists.intern(third)).as("past the bound: used unshared").isSameAs(third);
        assertThat(lists.intern(new int[] {4, 5, 6})).isNotSameAs(third).isEqualTo(third);
    }

    @Test
    void pathNamesAreBounded() {
        PathNames names = new PathNames(3);
        assertThat(names.number("CNC")).isZero();
        assertThat(names.number("TEL")).isEqualTo(1);
        assertThat(names.number("CNC")).as("a known name keeps its number").isZero();
        assertThat(names.number("gslb-cnc")).isEqualTo(2);
        assertThat(names.name(2)).isEqualTo("gslb-cnc");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> names.number("CTT"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than 3 distinct");
        assertThat(names.number("TEL")).isEqualTo(1);
    }

    @Test
    void pathNamePairsKeepTheirNumbersAsTheTableGrows() {
        PathNames names = new PathNames(1024);
        int[] first = new int[100];
        for (int i = 0; i < 100; i++) {
            first[i] = names.pair("DC" + i % 20, "gslb-" + i);
        }
        for (int i = 0; i < 100; i++) {
            assertThat(names.pair(new String("DC" + i % 20), "gslb-" + i))
                    .as("asked again with equal, not the same, names")
                    .isEqualTo(first[i]);
            assertThat(names.name(names.dataCenterOf(first[i]))).isEqualTo("DC" + i % 20);
            assertThat(names.name(names.instanceOf(first[i]))).isEqualTo("gslb-" + i);
        }
        assertThat(java.util.Arrays.stream(first).distinct().count()).isEqualTo(100);
    }
}
