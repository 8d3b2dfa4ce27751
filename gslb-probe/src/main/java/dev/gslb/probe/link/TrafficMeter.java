package dev.gslb.probe.link;

import java.util.ArrayDeque;

/**
 * Turns successive counter readings into a smoothed rate: each pair of readings gives one
 * interval's rate, and the rate is their average over the window. A counter below its previous
 * value wrapped when the previous value was in the top quarter of the 64-bit range, and was
 * reset otherwise (that interval is skipped, not counted as a burst); a changed epoch (the source
 * restarted) is skipped too. A failed reading makes the traffic unknown until two readings agree
 * again: an unknown rate is never shown or used as zero.
 */
public final class TrafficMeter {
    private static final long TOP_QUARTER = 0xC000_0000_0000_0000L;

    private final int samples;
    private final ArrayDeque<long[]> rates = new ArrayDeque<>();
    private TrafficSource.Counters last;
    private long lastAt;
    private long inBps = -1;
    private long outBps = -1;

    /** @param samples how many interval rates the average covers (window / interval, at least 1) */
    public TrafficMeter(int samples) {
        this.samples = Math.max(1, samples);
    }

    /** One reading taken at {@code nowMillis}. */
    public synchronized void read(TrafficSource.Counters c, long nowMillis) {
        if (last != null && c.epoch() == last.epoch() && nowMillis > lastAt) {
            long in = delta(last.inOctets(), c.inOctets());
            long out = delta(last.outOctets(), c.outOctets());
            if (in >= 0 && out >= 0) {
                long ms = nowMillis - lastAt;
                rates.addLast(new long[] {bits(in, ms), bits(out, ms)});
                while (rates.size() > samples) {
                    rates.removeFirst();
                }
            }
        }
        last = c;
        lastAt = nowMillis;
        average();
    }

    /** The source did not answer: the traffic is unknown, and the next readings start afresh. */
    public synchronized void failed() {
        last = null;
        rates.clear();
        average();
    }

    /** Octets counted between two readings, or -1 when the counter was reset. */
    static long delta(long before, long now) {
        if (Long.compareUnsigned(now, before) >= 0) {
            return now - before;
        }
        return Long.compareUnsigned(before, TOP_QUARTER) >= 0 ? now - before : -1; // wrapped (unsigned) : reset
    }

    private static long bits(long octets, long millis) {
        double bps = octets * 8.0 * 1000 / millis;
        return bps > Long.MAX_VALUE ? Long.MAX_VALUE : (long) bps;
    }

    private void average() {
        if (rates.isEmpty()) {
            inBps = -1;
            outBps = -1;
            return;
        }
        long in = 0;
        long out = 0;
        for (long[] r : rates) {
            in += r[0] / rates.size();
            out += r[1] / rates.size();
        }
        inBps = in;
        outBps = out;
    }

    /** The smoothed inbound rate in bit/s, -1 while unknown. */
    public synchronized long inBps() {
        return inBps;
    }

    /** The smoothed outbound rate in bit/s, -1 while unknown. */
    public synchronized long outBps() {
        return outBps;
    }
}
