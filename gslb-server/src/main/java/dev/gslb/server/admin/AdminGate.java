package dev.gslb.server.admin;

import dev.gslb.api.Forbidden;
import dev.gslb.api.Json;
import dev.gslb.config.admin.AdminSettings;
import dev.gslb.server.access.Caller;
import dev.gslb.server.access.Tokens;
import dev.gslb.topology.LocalAddresses;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a request must show before its route may read a byte of its body or run: a Host that is
 * this server's (DNS rebinding), no Origin but the configured ones (a browser page), a bearer
 * token (except GET of the open paths) whose role the route allows, and JSON for anything that
 * changes state (a form post from a page cannot be JSON without a CORS preflight, which an Origin
 * check refuses).
 */
final class AdminGate {
    private final AdminSettings settings;
    private final Tokens tokens;
    private final Set<String> hosts = new HashSet<>();

    AdminGate(AdminSettings settings, Tokens tokens) throws IOException {
        this.settings = settings;
        this.tokens = tokens;
        InetSocketAddress address = settings.listen();
        hosts.add("localhost");
        hosts.add(address.getAddress().getHostAddress());
        hosts.add(InetAddress.getLoopbackAddress().getHostAddress());
        if (address.getAddress().isAnyLocalAddress()) { // listening everywhere: any address of this host
            LocalAddresses.all().forEach(a -> hosts.add(LocalAddresses.text(a)));
        }
        settings.allowedHosts().forEach(h -> hosts.add(h.toLowerCase(Locale.ROOT)));
    }

    /** Refused before the route is even looked up: a foreign Host or Origin. */
    AdminServer.Response foreign(HttpHeaders headers) {
        if (!hosts.contains(hostOf(headers.get(HttpHeaderNames.HOST)))) {
            return AdminServer.Response.error(403, "Host not accepted (admin.allowed-hosts)");
        }
        String origin = headers.get(HttpHeaderNames.ORIGIN);
        if (origin != null && !settings.allowedOrigins().contains(origin)) {
            return AdminServer.Response.error(403, "cross-origin requests are refused (admin.allowed-origins)");
        }
        return null;
    }

    /** Who the request's token names, or null when it names none. */
    Caller caller(HttpHeaders headers) {
        return tokens.admit(headers.get(HttpHeaderNames.AUTHORIZATION));
    }

    /** GET of a path anyone may read: the open paths, and the status page unless it is turned off. */
    boolean open(HttpMethod method, String path) {
        return method.equals(HttpMethod.GET)
                && (settings.openPaths().contains(path)
                        || settings.statusPage() && (path.equals("/") || path.startsWith(StatusPage.PREFIX)));
    }

    /** Refused before the route is chosen: no token where one is needed, and JSON for a method that changes state. */
    AdminServer.Response refusal(HttpMethod method, String path, Caller caller, HttpHeaders headers) {
        if (caller == null && !open(method, path)) {
            return AdminServer.Response.error(
                    401,
                    "the admin token is missing or wrong (gslb reads var/admin.token;"
                            + " --token-file FILE elsewhere)");
        }
        if (!method.equals(HttpMethod.GET)) {
            String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
            if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
                return AdminServer.Response.error(415, "request bodies must be application/json");
            }
        }
        return null;
    }

    /** 403 when {@code caller}'s role is less than {@code route} needs (an open path needs none). */
    AdminServer.Response forbidden(AdminServer.Route route, Caller caller) {
        if (open(HttpMethod.valueOf(route.method()), route.path())
                || caller.role().allows(route.role())) {
            return null;
        }
        return AdminServer.Response.json(
                403,
                Json.write(new Forbidden(
                        route.method() + " " + route.path() + " needs the "
                                + route.role().label() + " role; token " + caller.name() + " is "
                                + caller.role().label(),
                        route.role(),
                        caller.role())));
    }

    /** The host part of a Host header, lower case, without port; an IP literal in Java's spelling. */
    static String hostOf(String host) {
        if (host == null) {
            return "";
        }
        host = host.strip().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            host = close < 0 ? host : host.substring(1, close);
            try {
                return InetAddress.ofLiteral(host).getHostAddress(); // [::1] is 0:0:0:0:0:0:0:1 in the set
            } catch (IllegalArgumentException e) {
                return host;
            }
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }
}
