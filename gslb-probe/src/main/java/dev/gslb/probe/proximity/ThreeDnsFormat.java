package dev.gslb.probe.proximity;

import dev.gslb.topology.Address;

/**
 * The proximity table in the exact shape 3DNS prints it ({@code ldns { address ... path { ... } }},
 * see 3dns-behaviour.md), so that an operator's tools and habits carry over.
 */
public final class ThreeDnsFormat {
    private ThreeDnsFormat() {}

    /** One entry; {@code ttlSeconds} is what is left of its inactive TTL. */
    public static String write(Address key, LdnsEntry e, long ttlSeconds) {
        StringBuilder sb = new StringBuilder();
        sb.append("ldns {\n");
        sb.append("   address ").append(key).append('\n');
        sb.append("   cur_target_state ").append(targetState(e)).append('\n');
        sb.append("   ttl ").append(ttlSeconds).append('\n');
        sb.append("   probe_protocol ")
                .append(e.protocol() == null ? "none" : e.protocol().label())
                .append('\n');
        for (Path p : e.paths()) {
            sb.append("   path {\n");
            sb.append("      datacenter \"").append(p.dataCenter()).append("\"\n");
            sb.append("      cur_rtt ").append(p.rttMicros()).append('\n');
            sb.append("      cur_hops ").append(p.hops()).append('\n');
            sb.append("      cur_completion_rate ").append(p.completion()).append('\n');
            sb.append("      cur_last_hops ").append(p.hops()).append('\n');
            sb.append("   }\n");
        }
        sb.append("}\n");
        return sb.toString();
    }

    /** An opaque number that changes with the entry's state and last probe, as 3DNS's does. */
    private static long targetState(LdnsEntry e) {
        long newest = 0;
        for (Path p : e.paths()) {
            newest = Math.max(newest, p.measuredAt());
        }
        return ((newest / 1000) & 0x3FFF_FFFFL) | ((long) e.state().ordinal() << 30);
    }
}
