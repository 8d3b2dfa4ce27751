package dev.gslb.site;

import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.util.List;

/**
 * A service address (load-balancer VIP) in one data center; what a wide IP answers.
 *
 * @param address the address, as health checks connect to it and operators read it
 * @param hi      the high half of its 128-bit form ({@link Address}: IPv4 mapped), computed once
 *                when the server is built: what the query path answers with
 * @param lo      the low half
 * @param ratio   weight for the ratio method (0 = never chosen by it)
 * @param order   position in global-availability order inside a pool (lower first; ties keep listing order)
 * @param link    the name of the ISP link that reaches it, or null: its limit and state then apply to it
 * @param ordinal its index in the configuration's list of virtual servers, given when the
 *                configuration is built: where the query path finds its state in {@link SiteState};
 *                -1 for a server outside any configuration (its state is then the unknown one)
 * @param score   the operator's score of it (F5's virtual-server score, 0-100): what vs-score and
 *                quality-of-service read; 0 when not given
 * @param dependsOn the servers it depends on, by name: it is unavailable while any of them is not
 *                ({@link Site} resolves them to ordinals, {@link SitePublisher} applies the rule)
 */
public record VirtualServer(
        String name,
        InetAddress address,
        long hi,
        long lo,
        DataCenter dataCenter,
        int ratio,
        int order,
        String link,
        int ordinal,
        int score,
        List<String> dependsOn) {
    public VirtualServer {
        dependsOn = List.copyOf(dependsOn);
        if (ratio < 0) {
            throw new IllegalArgumentException("virtual server " + name + ": ratio must not be negative");
        }
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("virtual server " + name + ": score must be 0-100");
        }
        if (hi != Cidr.hiOf(address) || lo != Cidr.loOf(address)) {
            throw new IllegalArgumentException("virtual server " + name + ": hi and lo are not its address");
        }
    }

    public VirtualServer(
            String name, InetAddress address, DataCenter dataCenter, int ratio, int order, String link, int ordinal) {
        this(
                name,
                address,
                Cidr.hiOf(address),
                Cidr.loOf(address),
                dataCenter,
                ratio,
                order,
                link,
                ordinal,
                0,
                List.of());
    }

    public VirtualServer(String name, InetAddress address, DataCenter dataCenter, int ratio, int order, String link) {
        this(name, address, dataCenter, ratio, order, link, -1);
    }

    public VirtualServer(String name, InetAddress address, DataCenter dataCenter, int ratio, int order) {
        this(name, address, dataCenter, ratio, order, null);
    }

    public VirtualServer(String name, InetAddress address, DataCenter dataCenter) {
        this(name, address, dataCenter, 1, 0);
    }

    /** This server at position {@code i} of its configuration. */
    public VirtualServer at(int i) {
        return new VirtualServer(name, address, hi, lo, dataCenter, ratio, order, link, i, score, dependsOn);
    }

    /** This server with the operator's score. */
    public VirtualServer withScore(int s) {
        return new VirtualServer(name, address, hi, lo, dataCenter, ratio, order, link, ordinal, s, dependsOn);
    }

    /** This server depending on the servers named {@code names}. */
    public VirtualServer withDependsOn(List<String> names) {
        return new VirtualServer(name, address, hi, lo, dataCenter, ratio, order, link, ordinal, score, names);
    }

    public boolean isIpv4() {
        return Address.ipv4(hi, lo);
    }

    /** The DNS type that carries this address: A (1) or AAAA (28). */
    public int recordType() {
        return isIpv4() ? 1 : 28;
    }
}
