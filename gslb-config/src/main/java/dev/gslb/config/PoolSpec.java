package dev.gslb.config;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.wideip.CnameMembers;
import dev.gslb.dns.wideip.CnameTarget;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.util.List;

/**
 * A pool as configured: methods by name, instantiated per wide IP when the server wires them, with
 * the pool's own method settings (its {@code qos:}) over the global ones; a CNAME pool's names in
 * {@code cnames} (null for a pool of virtual servers), each wide IP's copy with turns of its own.
 */
public record PoolSpec(
        String name,
        List<VirtualServer> members,
        List<String> methods,
        int maxAnswers,
        long ttl,
        List<InetAddress> fallbackIps,
        MethodSettings settings,
        int minUpMembers,
        Pool.MinUpAction minUpAction,
        List<CnameTarget> cnames) {
    public Pool build(MethodRegistry registry) {
        return new Pool(
                name,
                members,
                methods.stream().map(m -> registry.create(m, settings)).toList(),
                maxAnswers,
                ttl,
                fallbackIps,
                minUpMembers,
                minUpAction,
                cnames == null ? null : new CnameMembers(cnames));
    }
}
