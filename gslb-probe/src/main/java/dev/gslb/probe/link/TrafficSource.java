package dev.gslb.probe.link;

import java.io.IOException;
import java.time.Duration;

/** Where a link's octet counters are read: this host's interface, or a router over SNMP. */
public interface TrafficSource extends AutoCloseable {
    /**
     * One reading of the counters. {@code in} is what reaches the site over the link, {@code out}
     * what leaves it; both are free-running unsigned 64-bit octet counts. {@code epoch} changes
     * when the counters restarted (a router's reboot), or is 0 where the source cannot tell.
     */
    record Counters(long inOctets, long outOctets, long epoch) {}

    Counters read(Duration timeout) throws IOException;

    /** For `gslb link list`: {@code interface isp0}, {@code snmp 198.18.2.1 if r-dc-cnc}. */
    String describe();

    @Override
    default void close() {}
}
