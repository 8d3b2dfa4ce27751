package dev.gslb.dns.site;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * A service address (load-balancer VIP) in one data center; what a wide IP answers.
 *
 * @param ratio weight for the ratio method (0 = never chosen by it)
 * @param order position in global-availability order inside a pool (lower first; ties keep listing order)
 * @param link  the name of the ISP link that reaches it, or null: its limit and state then apply to it
 */
public record VirtualServer(
        String name, InetAddress address, DataCenter dataCenter, int ratio, int order, String link) {
    public VirtualServer {
        if (ratio < 0) {
            throw new IllegalArgumentException("virtual server " + name + ": ratio must not be negative");
        }
    }

    public VirtualServer(String name, InetAddress address, DataCenter dataCenter, int ratio, int order) {
        this(name, address, dataCenter, ratio, order, null);
    }

    public VirtualServer(String name, InetAddress address, DataCenter dataCenter) {
        this(name, address, dataCenter, 1, 0);
    }

    public boolean isIpv4() {
        return address instanceof Inet4Address;
    }

    /** The DNS type that carries this address: A or AAAA. */
    public int recordType() {
        return isIpv4() ? org.xbill.DNS.Type.A : org.xbill.DNS.Type.AAAA;
    }
}
