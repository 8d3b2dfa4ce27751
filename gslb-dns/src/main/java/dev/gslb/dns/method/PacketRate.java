package dev.gslb.dns.method;

/** The fewest packets per second through the server wins (averaged over the load window). Unknown: left out; none known: passes. */
public final class PacketRate extends LeastLoaded {
    public PacketRate() {
        super(LoadMetric.PACKET_RATE);
    }

    @Override
    public String name() {
        return "packet-rate";
    }
}
