package dev.gslb.dns.method;

/** The least traffic through the server wins, in kilobytes per second (both directions, averaged over the load window). Unknown: left out; none known: passes. */
public final class KilobytesPerSecond extends LeastLoaded {
    public KilobytesPerSecond() {
        super(LoadMetric.KILOBYTES_PER_SECOND);
    }

    @Override
    public String name() {
        return "kilobytes-per-second";
    }
}
