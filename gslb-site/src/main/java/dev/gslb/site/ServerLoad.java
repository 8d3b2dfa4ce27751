package dev.gslb.site;

/**
 * How loaded a virtual server is, as last measured by the instance in its data center (its own
 * poll, or a peer's shared one): what the load-aware methods and a server's limits read. Every
 * metric is -1 when unknown (its source gave none, stopped answering, or answered garbage); a
 * method that needs an unknown metric passes to the next tier, it never guesses.
 *
 * @param connections      current connections or sessions (nginx active, HAProxy scur, an OID)
 * @param cpuPercent       CPU in use, 0-100 (HOST-RESOURCES-MIB hrProcessorLoad, averaged over CPUs)
 * @param memoryPercent    memory in use, 0-100 (UCD-SNMP memTotalReal, memAvailReal)
 * @param loadAverage      the one-minute load average (UCD-SNMP laLoad.1), or -1
 * @param bytesPerSecond   traffic through the server, both directions, averaged over the window
 * @param packetsPerSecond packets through it, both directions, averaged over the window
 * @param serversUp        servers up behind it (HAProxy's backend), what vs-capacity reads
 * @param overLimitReason  why it takes no new answers (a limit passed, not yet back under resume), or null
 * @param measuredAt       when (epoch millis), 0 when never
 * @param measuredBy       the data center that measured it, or null
 */
public record ServerLoad(
        long connections,
        double cpuPercent,
        double memoryPercent,
        double loadAverage,
        long bytesPerSecond,
        long packetsPerSecond,
        int serversUp,
        String overLimitReason,
        long measuredAt,
        String measuredBy) {
    /** Nothing measured. */
    public static final ServerLoad UNKNOWN = new ServerLoad(-1, -1, -1, -1, -1, -1, -1, null, 0, null);

    /** The same measurement with why it is over a limit (null: it is not). */
    public ServerLoad withOverLimitReason(String reason) {
        return new ServerLoad(
                connections,
                cpuPercent,
                memoryPercent,
                loadAverage,
                bytesPerSecond,
                packetsPerSecond,
                serversUp,
                reason,
                measuredAt,
                measuredBy);
    }

    public boolean overLimit() {
        return overLimitReason != null;
    }
}
