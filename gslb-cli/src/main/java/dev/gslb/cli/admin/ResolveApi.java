package dev.gslb.cli.admin;

import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.method.Trace;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * GET /resolve: runs a wide IP's decision for a given LDNS (and client subnet) exactly as a
 * query would, with a trace of every step. It raises no probe: explaining is not asking.
 */
public final class ResolveApi {
    public record Answer(String server, String address, String datacenter) {}

    private final Supplier<Authority> authority;
    private final WideIpResolver resolver;

    public ResolveApi(Supplier<Authority> authority, WideIpResolver resolver) {
        this.authority = authority;
        this.resolver = resolver;
    }

    public List<AdminServer.Route> routes() {
        return List.of(new AdminServer.Route("GET", "/resolve", r -> AdminServer.Response.json(200,
                Json.write(explain(r.param("name"), r.param("ldns"), r.param("ecs"), r.param("type"))))));
    }

    public Map<String, Object> explain(String nameText, String ldnsText, String ecsText, String typeText) {
        if (nameText == null || ldnsText == null) {
            throw new IllegalArgumentException("give ?name=WIDE-IP&ldns=IP (and optionally &ecs=CIDR&type=A|AAAA)");
        }
        Name name;
        try {
            name = Name.fromString(nameText, Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("'" + nameText + "' is not a domain name");
        }
        WideIp w = authority.get().wideIp(name);
        if (w == null) {
            throw new IllegalArgumentException(name + " is not a wide IP; wide IPs: " + authority.get().wideIps().keySet());
        }
        int type = typeText == null || typeText.equalsIgnoreCase("A") ? Type.A
                : typeText.equalsIgnoreCase("AAAA") ? Type.AAAA : -1;
        if (type < 0) {
            throw new IllegalArgumentException("type must be A or AAAA");
        }
        InetAddress ldns;
        try {
            ldns = InetAddress.ofLiteral(ldnsText.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ldns '" + ldnsText + "' is not an IP address");
        }
        WideIpResolver.Scratch s = new WideIpResolver.Scratch();
        Trace trace = new Trace();
        s.query.set(ldns, type, System.currentTimeMillis()).trace(trace);
        if (ecsText != null && !ecsText.isBlank()) {
            Cidr ecs = Cidr.parse(ecsText);
            String addr = ecs.toString().substring(0, ecs.toString().indexOf('/'));
            s.query.clientSubnet(InetAddress.ofLiteral(addr), ecs.length());
        }
        WideIpResolver.Result r = resolver.resolve(w, s);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", w.name().toString());
        out.put("type", Type.string(type));
        out.put("ldns", ldns.getHostAddress());
        out.put("ecs", ecsText);
        out.put("steps", trace.steps());
        List<Answer> answers = new ArrayList<>();
        if (r.outcome() == Outcome.PICKED) {
            for (int i = 0; i < r.count(); i++) {
                answers.add(new Answer(r.answer(i).name(), r.answer(i).address().getHostAddress(),
                        r.answer(i).dataCenter().name()));
            }
        } else if (r.outcome() == Outcome.FALLBACK_IP) {
            answers.add(new Answer("fallback-ip", r.fallback().getHostAddress(), null));
        } else if (r.outcome() == null && !r.failure().addresses().isEmpty()) {
            r.failure().addresses().forEach(a -> answers.add(new Answer("failure fallback-ip", a.getHostAddress(), null)));
        }
        out.put("decidedBy", r.outcome() == null ? null : Map.of("pool", r.pool().name(), "tier", r.tierName(),
                "method", r.method().name(), "outcome", r.outcome().name().toLowerCase()));
        out.put("failure", r.outcome() == null ? r.failure().kind().name().toLowerCase() : null);
        out.put("answers", answers);
        out.put("ttl", r.ttl());
        out.put("ecsScope", s.query.scope());
        return out;
    }
}
