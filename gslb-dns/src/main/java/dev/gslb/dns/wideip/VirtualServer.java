package dev.gslb.dns.wideip;

import java.net.Inet4Address;
import java.net.InetAddress;

/** A service address (load-balancer VIP) in one data center; what a wide IP answers. */
public record VirtualServer(String name, InetAddress address, DataCenter dataCenter) {
    public boolean isIpv4() {
        return address instanceof Inet4Address;
    }

    /** The DNS type that carries this address: A or AAAA. */
    public int recordType() {
        return isIpv4() ? org.xbill.DNS.Type.A : org.xbill.DNS.Type.AAAA;
    }
}
