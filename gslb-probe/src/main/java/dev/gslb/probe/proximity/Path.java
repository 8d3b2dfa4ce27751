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
 * @param jitterMicros how far this data center's rounds stray from the estimate (mean deviation),
 *                    known to the instance that measures the path; 0 = not known (a peer's path,
 *                    or one read from the store)
 */
public record Path(
        String dataCenter,
        int rttMicros,
        short completion,
        byte hops,
        ProbeProtocol protocol,
        long measuredAt,
        String measuredBy,
        int jitterMicros) {

    /** The longest RTT a path holds (268 s, far beyond any probe timeout): the table packs it in 28 bits. */
    public static final int MAX_RTT_MICROS = (1 << 28) - 1;

    /** Jitter is kept in tenths of a millisecond up to 409.5 ms (12 bits in the table). */
    static final int JITTER_UNIT_MICROS = 100;

    static final int MAX_JITTER_MICROS = 0xFFF * JITTER_UNIT_MICROS;

    public static Path of(
            String dataCenter,
            long rttMicros,
            int completion,
            int hops,
            ProbeProtocol protocol,
            long measuredAt,
            String measuredBy) {
        return of(dataCenter, rttMicros, completion, hops, protocol, measuredAt, measuredBy, 0);
    }

    /** A path with its jitter as the measuring instance estimated it. */
    public static Path of(
            String dataCenter,
            long rttMicros,
            int completion,
            int hops,
            ProbeProtocol protocol,
            long measuredAt,
            String measuredBy,
            long jitterMicros) {
        return ofInterned(
                dataCenter.intern(),
                measuredBy.intern(),
                rttMicros,
                completion,
                hops,
                protocol,
                measuredAt,
                jitterMicros);
    }

    /** A path of names already interned. */
    private static Path ofInterned(
            String dataCenter,
            String measuredBy,
            long rttMicros,
            int completion,
            int hops,
            ProbeProtocol protocol,
            long measuredAt,
            long jitterMicros) {
        return new Path(
                dataCenter,
                (int) Math.min(rttMicros, MAX_RTT_MICROS), // negative kept: a peer's bad value is refused by its reader
                (short) completion,
                (byte) Math.min(127, hops),
                protocol,
                measuredAt,
                measuredBy,
                (int) Math.clamp(
                        (jitterMicros + JITTER_UNIT_MICROS / 2) / JITTER_UNIT_MICROS * JITTER_UNIT_MICROS,
                        0,
                        MAX_JITTER_MICROS));
    }

    /**
     * Who measured paths: a data center and its instance, their names interned once for the many
     * paths of a peer's frame (a snapshot of millions spent a sixth of its receiving thread in the
     * string table, twice a path).
     */
    public record Origin(String dataCenter, String measuredBy) {
        public Origin {
            dataCenter = dataCenter.intern();
            measuredBy = measuredBy.intern();
        }

        /** A path measured here, its jitter not known (a peer's path). */
        public Path path(long rttMicros, int completion, int hops, ProbeProtocol protocol, long measuredAt) {
            return ofInterned(dataCenter, measuredBy, rttMicros, completion, hops, protocol, measuredAt, 0);
        }
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
