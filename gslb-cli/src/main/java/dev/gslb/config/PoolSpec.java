package dev.gslb.config;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.site.VirtualServer;
import dev.gslb.dns.wideip.Pool;
import java.net.InetAddress;
import java.util.List;

/** A pool as configured: methods by name, instantiated per wide IP when the server wires them. */
public record PoolSpec(
        String name,
        List<VirtualServer> members,
        List<String> methods,
        int maxAnswers,
        long ttl,
        List<InetAddress> fallbackIps) {
    public Pool build(MethodRegistry registry) {
        return new Pool(name, members, methods.stream().map(registry::create).toList(), maxAnswers, ttl, fallbackIps);
    }
}
