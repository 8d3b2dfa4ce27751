package dev.gslb.probe.load;

/**
 * What a load source can read of a virtual server. A counter is a free-running total that the
 * monitor turns into a rate over its window (a counter that goes back is a restart, not a rate);
 * a gauge is taken as read.
 */
public enum Metric {
    /** Current connections or sessions. */
    CONNECTIONS(false),
    /** CPU in use, percent (0-100). */
    CPU(false),
    /** Memory in use, percent (0-100). */
    MEMORY(false),
    /** The one-minute load average. */
    LOAD_AVERAGE(false),
    /** Octets through the server, both directions: a counter, read as bytes per second. */
    BYTES(true),
    /** Packets through the server, both directions: a counter, read as packets per second. */
    PACKETS(true),
    /** Servers up behind the virtual server. */
    SERVERS_UP(false);

    private final boolean counter;

    Metric(boolean counter) {
        this.counter = counter;
    }

    public boolean counter() {
        return counter;
    }

    /** As the configuration writes it: {@code connections}, {@code load-average}, ... */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** The metric the configuration names {@code key}, or an IllegalArgumentException listing them. */
    public static Metric ofKey(String key) {
        for (Metric m : values()) {
            if (m.key().equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException("'" + key + "' is not a metric: use one of "
                + java.util.Arrays.stream(values()).map(Metric::key).toList());
    }
}
