package dev.gslb.probe.proximity;

import dev.gslb.probe.ProbeProtocol;

/**
 * The measured distance from one data center to one LDNS (3DNS "path"), as a value. The table
 * keeps paths packed inside {@link LdnsEntry}, which gives them out as these.
 *
 * @param dataCenter  the data center that measured it (interned: one String per data center)
 * @param rttMicros   median round-trip time in microseconds
 * @param completion  replies / sent in hundredths of a percent (10000 = 100.00 %)
 * @param hops        estimated from the reply TTL; 0 = not measured
 * @param protocol    what got the replies
 * @param measuredAt  epoch milliseconds of the measurement
 * @param measuredBy  the instance that measured it
 */
public record Path(
        String dataCenter,
        int rttMicros,
        short completion,
        byte hops,
        ProbeProtocol protocol,
        long measuredAt,
        String measuredBy) {

    public static Path of(
            String dataCenter,
            long rttMicros,
            int completion,
            int hops,
            ProbeProtocol protocol,
            long measuredAt,
            String measuredBy) {
        return new Path(
                dataCenter.intern(),
                (int) Math.min(Integer.MAX_VALUE, rttMicros),
                (short) completion,
                (byte) Math.min(127, hops),
                protocol,
                measuredAt,
                measuredBy.intern());
    }

    /** Fresh paths are used for RTT decisions; older ones are shown but not trusted. */
    public boolean freshAt(long nowMillis, long pathTtlMillis) {
        return fresh(measuredAt, nowMillis, pathTtlMillis);
    }

    /** The one freshness rule, for a path given as a value or read from an entry by index. */
    static boolean fresh(long measuredAt, long nowMillis, long pathTtlMillis) {
        return nowMillis - measuredAt <= pathTtlMillis;
    }
}
