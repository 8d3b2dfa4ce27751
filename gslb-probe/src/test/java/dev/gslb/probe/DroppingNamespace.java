package dev.gslb.probe;

import java.net.InetAddress;

/**
 * A Linux network namespace reached over a veth pair, whose nftables input policy drops every
 * packet: an LDNS that never answers anything. Addresses from 198.18.0.0/15 (benchmarking space).
 */
public final class DroppingNamespace implements AutoCloseable {
    public final String name;
    public final InetAddress hostSide;
    public final InetAddress address;

    public DroppingNamespace(String name, int subnet) {
        this.name = name;
        String host = "198.18." + subnet + ".1";
        String inner = "198.18." + subnet + ".2";
        this.hostSide = InetAddress.ofLiteral(host);
        this.address = InetAddress.ofLiteral(inner);
        close();
        Shell.run("ip", "netns", "add", name);
        Shell.run("ip", "link", "add", name + "-h", "type", "veth", "peer", "name", name + "-n");
        Shell.run("ip", "link", "set", name + "-n", "netns", name);
        Shell.run("ip", "addr", "add", host + "/30", "dev", name + "-h");
        Shell.run("ip", "link", "set", name + "-h", "up");
        Shell.run("ip", "netns", "exec", name, "ip", "addr", "add", inner + "/30", "dev", name + "-n");
        Shell.run("ip", "netns", "exec", name, "ip", "link", "set", name + "-n", "up");
        Shell.run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up");
        Shell.run(
                "ip",
                "netns",
                "exec",
                name,
                "nft",
                "add table inet gslbdrop; "
                        + "add chain inet gslbdrop input { type filter hook input priority 0; policy drop; }");
    }

    /** Adds an nftables rule before the drop policy, e.g. one that rejects pings instead of dropping them. */
    public DroppingNamespace rule(String rule) {
        Shell.run("ip", "netns", "exec", name, "nft", "add rule inet gslbdrop input " + rule);
        return this;
    }

    @Override
    public void close() {
        Shell.quietly("ip", "link", "del", name + "-h");
        Shell.quietly("ip", "netns", "del", name);
    }
}
