package dev.gslb.dns.method;

/** The lowest CPU use wins (HOST-RESOURCES-MIB hrProcessorLoad, averaged over the server's CPUs). Unknown: left out; none known: passes. */
public final class Cpu extends LeastLoaded {
    public Cpu() {
        super(LoadMetric.CPU);
    }

    @Override
    public String name() {
        return "cpu";
    }
}
