package dev.gslb.dns.wideip;

import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.method.Trace;
import dev.gslb.topology.Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.xbill.DNS.Type;

/**
 * A wide IP's decision for one LDNS (and client subnet), step by step: what `gslb resolve
 * --explain` prints and GET /resolve answers. Made by running the same decision a query runs, with
 * a {@link Trace}.
 */
public record Explanation(
        String name,
        String type,
        String ldns,
        String ecs,
        List<Trace.Step> steps,
        DecidedBy decidedBy,
        String failure,
        List<Answer> answers,
        long ttl,
        int ecsScope) {

    /** The pool, tier and method that decided, and how. */
    public record DecidedBy(String pool, String tier, String method, Outcome outcome) {}

    /**
     * One answered address (or a CNAME pool's name); {@code server} and {@code dataCenter} are null
     * for a fallback IP and a name.
     */
    public record Answer(String server, String address, String dataCenter) {}

    /**
     * Runs {@code w}'s decision for {@code ldns} (with {@code ecs}, a subnet, when not null) exactly
     * as a query would, except that it asks for no probe: explaining is not asking.
     */
    public static Explanation of(
            WideIpResolver resolver,
            WideIp w,
            int type,
            InetAddress ldns,
            InetAddress ecsAddress,
            int ecsLength,
            String ecsText) {
        WideIpResolver.Scratch s = new WideIpResolver.Scratch();
        Trace trace = new Trace();
        s.query.set(Address.of(ldns), type, System.currentTimeMillis()).trace(trace);
        if (ecsAddress != null) {
            s.query.clientSubnet(ecsAddress, ecsLength);
        }
        WideIpResolver.Result r = resolver.resolve(w, s);
        List<Answer> answers = new ArrayList<>();
        if (r.cname() != null) { // a CNAME pool's name stands where an address would
            answers.add(new Answer(null, r.cname().name().toString(), null));
        } else if (r.outcome() == Outcome.PICKED) {
            for (int i = 0; i < r.count(); i++) {
                answers.add(new Answer(
                        r.answer(i).name(),
                        r.answer(i).address().getHostAddress(),
                        r.answer(i).dataCenter().name()));
            }
        } else if (r.outcome() == Outcome.FALLBACK_IP) {
            answers.add(new Answer(null, r.fallback().getHostAddress(), null));
        } else if (r.outcome() == null) {
            r.failure().addresses().forEach(a -> answers.add(new Answer(null, a.getHostAddress(), null)));
        }
        DecidedBy by = r.outcome() == null
                ? null
                : new DecidedBy(r.pool().name(), r.tierName(), r.method().name(), r.outcome());
        return new Explanation(
                w.name().toString(),
                Type.string(type),
                ldns.getHostAddress(),
                ecsText,
                List.copyOf(trace.steps()),
                by,
                r.outcome() == null ? r.failure().kind().name().toLowerCase(java.util.Locale.ROOT) : null,
                answers,
                r.ttl(),
                s.query.scope());
    }
}
