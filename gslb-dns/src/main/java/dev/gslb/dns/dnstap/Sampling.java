package dev.gslb.dns.dnstap;

/**
 * Which queries are logged: {@code taken} of every {@code of}, spread evenly, decided from a
 * thread's own query count by arithmetic alone (no random numbers, no shared counter), so that
 * the query path pays a multiplication.
 */
record Sampling(long taken, long of) {
    /** The resolution of a fraction: one in a million. */
    private static final long MILLION = 1_000_000;

    Sampling {
        if (of < 1 || taken < 0 || taken > of) {
            throw new IllegalArgumentException("a sample is 0 to 1");
        }
    }

    static Sampling of(double fraction) {
        return new Sampling(Math.round(fraction * MILLION), MILLION);
    }

    /**
     * Whether the query counted {@code n} (0, 1, 2 ... per thread) is taken: the {@code n}th step
     * of {@code taken/of} crosses a whole number. Exactly {@code taken} of each {@code of}.
     */
    boolean take(long n) {
        long i = n % of;
        return (i + 1) * taken / of != i * taken / of;
    }
}
