package dev.gslb.site;

/** A data center (F5 "datacenter"): one site behind one ISP link, e.g. CNC or TEL. */
public record DataCenter(String name) {
    public DataCenter {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a data center needs a name");
        }
        name = name.intern(); // the proximity table's path names are interned: per query, equal by identity
    }
}
