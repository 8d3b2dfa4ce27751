package dev.gslb.dns.wideip;

import java.util.List;

/** An ordered group of virtual servers; the order is the global-availability order. */
public record Pool(String name, List<VirtualServer> members) {
    public Pool {
        members = List.copyOf(members);
        if (members.isEmpty()) {
            throw new IllegalArgumentException("pool " + name + " has no members");
        }
    }
}
