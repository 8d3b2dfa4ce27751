package dev.gslb.site;

/**
 * An ISP link as the site model knows it: which data center it serves and its size. How its
 * traffic is read and when it spills is the link monitor's (gslb-probe {@code LinkSpec}).
 *
 * @param capacityBps the link's size in bit/s, or -1 when not configured (then no headroom is known)
 */
public record Link(String name, String dataCenter, long capacityBps) {}
