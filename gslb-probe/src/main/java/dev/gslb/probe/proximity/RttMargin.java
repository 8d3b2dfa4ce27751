package dev.gslb.probe.proximity;

/**
 * How much better another data center's path must be before an LDNS's answers leave the data
 * center they come from (configuration {@code load-balancing.rtt-margin-percent} and
 * {@code rtt-margin}): both must hold, so the larger rules. The proximity table keeps, in each
 * entry, the data center its paths' estimates have settled on under this margin
 * ({@link LdnsEntry#keptDataCenter()}); a path update moves it, a query only reads it.
 *
 * @param percent 0..99
 * @param micros the margin in microseconds
 */
public record RttMargin(int percent, long micros) {
    /** 5 % and 10 ms: 10 ms rules up to 200 ms of RTT, 5 % above. */
    public static final RttMargin DEFAULT = new RttMargin(5, 10_000);

    /** No margin: every answer goes to the lowest estimate. */
    public static final RttMargin OFF = new RttMargin(0, 0);

    /** Whether a path of {@code challenger} µs is better than the kept one of {@code current} µs by both margins. */
    public boolean clearlyBetter(long challenger, long current) {
        return challenger + micros < current && challenger * 100 < current * (100 - percent);
    }

    public boolean off() {
        return percent == 0 && micros == 0;
    }

    /**
     * The rendezvous-hash score of {@code dataCenter} for the LDNS {@code hi:lo}: a near tie with
     * nothing kept goes to the data center with the highest. From the address and the name alone
     * (String's hash is specified), so every instance and every version computes the same; and
     * spread evenly over the data centers, LDNS by LDNS. Nothing secret rides on it.
     */
    public static long preference(long hi, long lo, String dataCenter) {
        return mix(hi * 0x9e3779b97f4a7c15L ^ lo ^ mix(dataCenter.hashCode()));
    }

    /** Stafford's variant 13 of the MurmurHash3 finalizer: a bijection of 64 bits. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
