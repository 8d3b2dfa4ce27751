package dev.gslb.dns.wideip;

import java.util.List;
import org.xbill.DNS.Name;

/** A name inside a served zone whose A/AAAA answer is chosen by load balancing (F5 "wide IP"). */
public record WideIp(Name name, List<Pool> pools, long ttl) {
    /** F5's default wide-IP TTL. */
    public static final long DEFAULT_TTL = 30;

    public WideIp {
        pools = List.copyOf(pools);
        if (!name.isAbsolute()) {
            throw new IllegalArgumentException("wide IP name must be absolute: " + name);
        }
    }
}
