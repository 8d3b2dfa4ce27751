package dev.gslb.dns.method;

/** The fewest current connections (or sessions) wins, as its balancer or agent reports them. Unknown: left out; none known: passes. */
public final class LeastConnections extends LeastLoaded {
    public LeastConnections() {
        super(LoadMetric.CONNECTIONS);
    }

    @Override
    public String name() {
        return "least-connections";
    }
}
