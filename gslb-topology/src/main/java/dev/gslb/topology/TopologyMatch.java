package dev.gslb.topology;

import java.util.List;

/**
 * What a lookup found: the longest matching prefix ({@code cidr}; null for the address space no
 * prefix covers), its region, and the scores of that region's records, highest first (ties in
 * configuration order). Built once per prefix when the table is built, so a lookup returns it
 * without allocating; the prefix's text is made only when asked for (traces, the admin API), not
 * for each of the shipped lists' 17,000 prefixes at every start.
 */
public record TopologyMatch(Cidr cidr, String region, List<Score> scores) {
    public record Score(String dataCenter, long score) {}

    public TopologyMatch {
        scores = List.copyOf(scores);
    }

    /** The prefix as written ("202.106.0.0/16"), or "(no prefix)". */
    public String prefix() {
        return cidr == null ? "(no prefix)" : cidr.toString();
    }

    /** The prefix's length, or -1 where no prefix covers the address (a client subnet's scope is then its own). */
    public int prefixLength() {
        return cidr == null ? -1 : cidr.length();
    }

    /** The data center with the highest score, or null when the region has no records. */
    public String bestDataCenter() {
        return scores.isEmpty() ? null : scores.getFirst().dataCenter();
    }

    /**
     * The score of a pool or a server ({@code kind} {@link TopologyRecord#POOL} or {@link
     * TopologyRecord#SERVER}) in this region, 0 when none; compares in place, allocating nothing.
     */
    public long scoreOf(String kind, String name) {
        if (name == null) {
            return 0;
        }
        for (int i = 0; i < scores.size(); i++) {
            String t = scores.get(i).dataCenter();
            if (t.length() == kind.length() + name.length() && t.startsWith(kind) && t.endsWith(name)) {
                return scores.get(i).score();
            }
        }
        return 0;
    }

    /** The score of one data center in this region, 0 when it has no record (F5: no match = 0). */
    public long scoreOf(String dataCenter) {
        for (Score s : scores) {
            if (s.dataCenter().equals(dataCenter)) {
                return s.score();
            }
        }
        return 0;
    }
}
