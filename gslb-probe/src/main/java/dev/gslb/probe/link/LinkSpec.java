package dev.gslb.probe.link;

import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.site.Link;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * An ISP link of a data center (F5 "link"): its size, the traffic limits past which answers spill
 * to other links, where its traffic is read and which gateways prove it up. Only an instance in
 * the link's data center measures it; the peers learn it over sync.
 *
 * @param capacity  the link's size, or null (then limits cannot be percentages and no headroom is known)
 * @param limitIn   inbound traffic past which the link's servers get no new answers, or null
 * @param limitOut  the same outbound, or null
 * @param resumeIn  inbound traffic under which an over-limit link takes answers again
 * @param resumeOut the same outbound
 * @param traffic   where traffic is read, or null (the link then never spills)
 * @param gateways  the ISP gateways the monitors check; none: the link's state stays unknown
 */
public record LinkSpec(
        String name,
        String dataCenter,
        Bandwidth capacity,
        Bandwidth limitIn,
        Bandwidth limitOut,
        Bandwidth resumeIn,
        Bandwidth resumeOut,
        TrafficSpec traffic,
        List<InetAddress> gateways,
        List<MonitorSpec> monitors) {
    public LinkSpec {
        gateways = List.copyOf(gateways);
        monitors = List.copyOf(monitors);
        check(name, capacity, limitIn, resumeIn, "in");
        check(name, capacity, limitOut, resumeOut, "out");
        if (!gateways.isEmpty() && monitors.isEmpty()) {
            throw new IllegalArgumentException("link " + name + " has gateways but no monitors to check them");
        }
        for (MonitorSpec m :
                monitors) { // refused rather than ignored: an operator would wait for a hold that never comes
            if (m.manualResume()) {
                throw new IllegalArgumentException("link " + name + ": monitor " + m.name()
                        + " has 'manual-resume: true', which only virtual servers take (a link comes back by itself);"
                        + " give the link a monitor without it");
            }
        }
    }

    private static void check(String name, Bandwidth capacity, Bandwidth limit, Bandwidth resume, String direction) {
        if (limit != null && resume.compareTo(limit) > 0) {
            throw new IllegalArgumentException("link " + name + ": 'resume:' (" + resume + ") is above 'limit-"
                    + direction + ":' (" + limit + "); it must be at or below the limit");
        }
        if (capacity != null && limit != null && limit.compareTo(capacity) > 0) {
            throw new IllegalArgumentException("link " + name + ": 'limit-" + direction + ":' (" + limit
                    + ") is above 'capacity:' (" + capacity + ")");
        }
    }

    /** This link as the site model knows it. */
    public Link link() {
        return new Link(name, dataCenter, capacity == null ? -1 : capacity.bitsPerSecond());
    }

    /** Without 'resume:', a link takes answers again under 90 % of its limit. */
    public static Bandwidth defaultResume(Bandwidth limit) {
        return resume(limit, "90%");
    }

    /**
     * The resume threshold of one direction from what 'resume:' says: a percentage is of that
     * direction's limit; a rate is taken as written (and must not exceed the limit).
     */
    public static Bandwidth resume(Bandwidth limit, String written) {
        return limit == null ? null : Bandwidth.parse(written, limit);
    }

    /**
     * Whether the link is over its limit now, given whether it was (hysteresis: over past the
     * limit, back under resume). Unknown traffic (-1) is never over: spilling needs a measurement.
     */
    public boolean overLimit(long inBps, long outBps, boolean wasOver) {
        if (wasOver) {
            return above(inBps, resumeIn) || above(outBps, resumeOut);
        }
        return above(inBps, limitIn) || above(outBps, limitOut);
    }

    private static boolean above(long bps, Bandwidth threshold) {
        return threshold != null && bps >= 0 && bps > threshold.bitsPerSecond();
    }

    /** "link CNC-1 over limit: in 812 Mbit/s > 800 Mbit/s", what `resolve --explain` prints. */
    public String overLimitReason(long inBps, long outBps) {
        StringBuilder sb = new StringBuilder("link ").append(name).append(" over limit:");
        part(sb, "in", inBps, limitIn, resumeIn);
        part(sb, "out", outBps, limitOut, resumeOut);
        return sb.toString();
    }

    private static void part(StringBuilder sb, String direction, long bps, Bandwidth limit, Bandwidth resume) {
        if (limit != null && bps > resume.bitsPerSecond()) {
            sb.append(' ').append(direction).append(' ').append(Bandwidth.format(bps));
            sb.append(bps > limit.bitsPerSecond() ? " > " + limit : " > resume " + resume);
        }
    }

    /**
     * The longest time from a failure of this link until answers change: the slowest gateway
     * monitor's interval x down threshold, or the traffic window for a limit, plus {@code ttl}.
     */
    public Duration switchOver(Duration ttl) {
        Duration worst = Duration.ZERO;
        for (MonitorSpec m : monitors) {
            Duration d = m.interval().multipliedBy(m.downThreshold());
            worst = d.compareTo(worst) > 0 ? d : worst;
        }
        if (traffic != null && (limitIn != null || limitOut != null)) {
            Duration d = traffic.window().plus(traffic.interval());
            worst = d.compareTo(worst) > 0 ? d : worst;
        }
        return worst.plus(ttl);
    }
}
