package dev.gslb.server.admin;

import dev.gslb.api.Role;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.wideip.Explanation;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.util.List;
import java.util.function.Supplier;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * GET /resolve: runs a wide IP's decision for a given LDNS (and client subnet) exactly as a
 * query would, with a trace of every step. It raises no probe: explaining is not asking.
 */
public final class ResolveApi {
    private final Supplier<Authority> authority;
    private final WideIpResolver resolver;

    public ResolveApi(Supplier<Authority> authority, WideIpResolver resolver) {
        this.authority = authority;
        this.resolver = resolver;
    }

    public List<AdminServer.Route> routes() {
        return List.of(new AdminServer.Route(
                "GET",
                "/resolve",
                Role.VIEWER,
                r -> AdminServer.Response.ok(Replies.explanation(
                        explain(r.param("name"), r.param("ldns"), r.param("ecs"), r.param("type"))))));
    }

    public Explanation explain(String nameText, String ldnsText, String ecsText, String typeText) {
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
            throw new IllegalArgumentException(name + " is not a wide IP; wide IPs: "
                    + authority.get().wideIps().keySet());
        }
        int type = typeText == null || typeText.equalsIgnoreCase("A")
                ? Type.A
                : typeText.equalsIgnoreCase("AAAA") ? Type.AAAA : -1;
        if (type < 0) {
            throw new IllegalArgumentException("type must be A or AAAA");
        }
        InetAddress ldns = Address.parse(ldnsText).inetAddress();
        if (ecsText == null || ecsText.isBlank()) {
            return Explanation.of(resolver, w, type, ldns, null, 0, null);
        }
        Cidr ecs = Cidr.parse(ecsText);
        return Explanation.of(resolver, w, type, ldns, ecs.address(), ecs.length(), ecsText);
    }
}
