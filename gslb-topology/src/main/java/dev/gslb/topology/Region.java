package dev.gslb.topology;

import java.util.List;

/** A named set of prefixes (an ISP's address list, a country, one CIDR of a 3DNS record). */
public record Region(String name, List<Prefix> prefixes) {
    /** One prefix and where it was read, so duplicates and overlaps can be reported by line. */
    public record Prefix(Cidr cidr, String file, int line) {
        public String where() {
            return file + ":" + line;
        }
    }

    public Region {
        prefixes = List.copyOf(prefixes);
    }

    public long ipv4Count() {
        return prefixes.stream().filter(p -> p.cidr().ipv4()).count();
    }

    public long ipv6Count() {
        return prefixes.size() - ipv4Count();
    }
}
