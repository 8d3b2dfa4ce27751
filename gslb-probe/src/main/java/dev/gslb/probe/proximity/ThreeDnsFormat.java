package dev.gslb.probe.proximity;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.topology.Address;
import java.util.ArrayList;
import java.util.List;

/**
 * The proximity table in the exact shape 3DNS prints it ({@code ldns { address ... path { ... } }},
 * see 3dns-behaviour.md), so that an operator's tools and habits carry over; and read back from
 * such a dump, so that a migrating operator keeps the measurements of the old box.
 */
public final class ThreeDnsFormat {
    private ThreeDnsFormat() {}

    /** Who the imported paths say measured them. */
    public static final String IMPORTED_BY = "3dns-import";

    /** One LDNS of a dump: its address, probe protocol (or null), remaining TTL in seconds (or -1), paths. */
    public record Ldns(Address address, ProbeProtocol protocol, long ttlSeconds, List<Dumped> paths) {}

    /** One path of a dump, in the dump's units (microseconds, hundredths of a percent). */
    public record Dumped(String dataCenter, long rttMicros, int completion, int hops) {}

    /** What a dump holds, and what of it was left out (with file:line). */
    public record Dump(List<Ldns> entries, List<String> skipped) {}

    private static final java.util.regex.Pattern LINE =
            java.util.regex.Pattern.compile("\\s*(?:([A-Za-z_]+)\\s*(?:\\{|\\s+(\\S.*?))?|(\\}))\\s*(?://.*|#.*)?");

    /**
     * Reads a dump; every syntax error names {@code source}:line and the whole dump is refused. A
     * path of a data center not in {@code dataCenters} and keys this server has no use for
     * (cur_target_state, other 3DNS metrics) are skipped and listed, never guessed.
     */
    public static Dump read(String source, String text, java.util.Set<String> dataCenters) {
        List<Ldns> entries = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        int depth = 0;
        Address address = null;
        ProbeProtocol protocol = null;
        long ttl = -1;
        List<Dumped> paths = null;
        String dc = null;
        long rtt = -1;
        int completion = -1;
        int hops = 0;
        int ldnsLine = 0;
        int pathLine = 0;
        for (int n = 1; n <= lines.length; n++) {
            String line = lines[n - 1].strip();
            if (line.isEmpty() || line.startsWith("//") || line.startsWith("#")) {
                continue;
            }
            java.util.regex.Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw error(source, n, "cannot read '" + line + "'");
            }
            String at = source + ":" + n;
            if (m.group(3) != null) { // }
                if (depth == 2) {
                    if (dc == null || rtt < 0) {
                        throw error(source, pathLine, "a path needs 'datacenter' and 'cur_rtt'");
                    }
                    if (dataCenters.contains(dc)) {
                        paths.add(new Dumped(dc, rtt, completion < 0 ? 10_000 : completion, hops));
                    } else {
                        skipped.add(source + ":" + pathLine + ": path of data center " + dc
                                + ", which is not configured (" + dataCenters + ")");
                    }
                } else if (depth == 1) {
                    if (address == null) {
                        throw error(source, ldnsLine, "an ldns block needs 'address'");
                    }
                    if (protocol == null && !paths.isEmpty()) {
                        skipped.add(source + ":" + ldnsLine + ": no probe_protocol: its paths count as dns_dot");
                        protocol = ProbeProtocol.DNS_DOT;
                    }
                    entries.add(new Ldns(address, protocol, ttl, List.copyOf(paths)));
                } else {
                    throw error(source, n, "'}' without a block");
                }
                depth--;
                continue;
            }
            String key = m.group(1);
            String value = m.group(2);
            boolean opens = line.endsWith("{");
            if (opens) {
                if (depth == 0 && key.equals("ldns")) {
                    ldnsLine = n;
                    address = null;
                    protocol = null;
                    ttl = -1;
                    paths = new ArrayList<>();
                } else if (depth == 1 && key.equals("path")) {
                    pathLine = n;
                    dc = null;
                    rtt = -1;
                    completion = -1;
                    hops = 0;
                } else {
                    throw error(source, n, "'" + key + " {' is not expected here");
                }
                depth++;
                continue;
            }
            if (depth == 0 || value == null) {
                throw error(source, n, "'" + line + "' outside an ldns block, or without a value");
            }
            try {
                switch (depth + ":" + key) {
                    case "1:address" -> address = Address.parse(value);
                    case "1:probe_protocol" -> protocol = value.equals("none") ? null : ProbeProtocol.parse(value);
                    case "1:ttl" -> ttl = Long.parseLong(value);
                    case "2:datacenter" -> dc = value.replaceAll("^\"|\"$", "");
                    case "2:cur_rtt" -> rtt = bounded(value, 60_000_000L);
                    case "2:cur_completion_rate" -> completion = (int) bounded(value, 10_000);
                    case "2:cur_hops", "2:cur_last_hops" -> hops = Math.max(hops, (int) bounded(value, 255));
                    default -> skipped.add(at + ": " + key + " (not used here)");
                }
            } catch (IllegalArgumentException e) {
                throw error(source, n, key + ": " + e.getMessage());
            }
        }
        if (depth != 0) {
            throw error(source, depth == 2 ? pathLine : ldnsLine, "this block is not closed");
        }
        return new Dump(List.copyOf(entries), List.copyOf(skipped));
    }

    private static long bounded(String value, long max) {
        long v = Long.parseLong(value);
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(value + " is out of range 0.." + max);
        }
        return v;
    }

    private static IllegalArgumentException error(String source, int line, String what) {
        return new IllegalArgumentException(source + ":" + line + ": " + what);
    }

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
