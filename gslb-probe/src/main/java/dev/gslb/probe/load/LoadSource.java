package dev.gslb.probe.load;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;

/**
 * Where a virtual server's load is read: an SNMP agent, a balancer's status page. One source
 * gives the metrics it knows; a server's {@code load:} may name several, each metric from one.
 * Every read is bounded in time ({@code timeout}) and size; garbage is an {@link IOException}
 * naming what was wrong, never a zero.
 */
public interface LoadSource extends AutoCloseable {
    /** What this source reads, as configured. */
    Set<Metric> metrics();

    LoadReading read(Duration timeout) throws IOException;

    /** For the operator: {@code nginx http://198.18.1.2/status}, {@code snmp 198.18.1.2 cpu memory}. */
    String describe();

    @Override
    default void close() {}
}
