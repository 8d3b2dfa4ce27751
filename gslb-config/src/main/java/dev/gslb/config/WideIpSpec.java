package dev.gslb.config;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.WideIp;
import java.util.List;
import org.xbill.DNS.Name;

/**
 * A wide IP as configured (see docs/configuration.md for every key): its pools as listed, each
 * with its ratio, the last-resort pool among them (index, or -1).
 */
public record WideIpSpec(
        Name name,
        List<PoolSpec> pools,
        WideIp.PoolMethod poolMethod,
        long ttl,
        Failure failure,
        boolean decisionLog,
        long persistTtl,
        List<Integer> ratios,
        int lastResort) {
    public WideIp build(MethodRegistry registry) {
        return new WideIp(
                name,
                pools.stream().map(p -> p.build(registry)).toList(),
                poolMethod,
                ttl,
                failure,
                decisionLog,
                persistTtl,
                ratios,
                lastResort);
    }
}
