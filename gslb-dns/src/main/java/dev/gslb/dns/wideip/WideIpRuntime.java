package dev.gslb.dns.wideip;

import dev.gslb.site.RuntimeState;
import dev.gslb.site.SiteState;
import java.util.HashMap;
import java.util.Map;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * The wide IPs' runtime states (docs/operator-guide.md "Take something out of service") by DNS
 * name: the published state keeps them by name as text; this indexes each published set once, so a
 * query reads one map (and none while no wide IP has a state) and allocates nothing.
 */
final class WideIpRuntime {
    private record Index(Map<String, RuntimeState> source, Map<Name, RuntimeState> byName) {}

    private volatile Index index = new Index(Map.of(), Map.of());

    /** The state of {@code w} in force in {@code state}, or null (enabled). */
    RuntimeState of(WideIp w, SiteState state) {
        Map<String, RuntimeState> set = state.wideIps();
        if (set.isEmpty()) {
            return null;
        }
        Index i = index;
        if (i.source() != set) { // a new publication: indexed by the first query that sees it
            Map<Name, RuntimeState> byName = new HashMap<>();
            set.forEach((name, st) -> {
                try {
                    byName.put(Name.fromString(name), st);
                } catch (TextParseException e) {
                    // not a wide IP's name: it names nothing here
                }
            });
            i = new Index(set, byName);
            index = i;
        }
        return i.byName().get(w.name());
    }
}
