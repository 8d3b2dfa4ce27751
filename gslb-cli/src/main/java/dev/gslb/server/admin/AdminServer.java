package dev.gslb.server.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gslb.api.Json;
import dev.gslb.topology.Address;
import dev.gslb.topology.LocalAddresses;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP API (loopback by default). Each area (health, metrics, topology...) adds routes.
 * Before a handler runs, what a browser page or a stranger could send is refused: a Host that is
 * not this server's (DNS rebinding) or any Origin not configured gets 403, a missing or wrong
 * bearer token 401 (except the open read paths), a body that is not JSON 415, a large one 413.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);

    /** A request as the handlers see it: query parameters and the body. */
    public record Request(Map<String, String> query, String body) {
        public String param(String name) {
            return query.get(name);
        }
    }

    public record Response(int status, String body, String contentType) {
        public static Response json(int status, String body) {
            return new Response(status, body, "application/json");
        }

        /** A refusal with one message ({"error": "..."}). */
        public static Response error(int status, String message) {
            return json(status, Json.write(new dev.gslb.api.ErrorBody(message)));
        }

        /** 200 with a value as JSON. */
        public static Response ok(Object value) {
            return json(200, Json.write(value));
        }

        /** 422: a change refused, nothing changed. */
        public static Response refused(dev.gslb.api.Refusal refusal) {
            return json(422, Json.write(refusal));
        }
    }

    @FunctionalInterface
    public interface Handler {
        Response handle(Request request) throws Exception;
    }

    public record Route(String method, String path, Handler handler) {}

    private final HttpServer http;
    private final AdminSettings settings;
    private final AdminToken token;
    private final Set<String> hosts = new HashSet<>();

    public AdminServer(AdminSettings settings, List<Route> routes) throws IOException {
        this.settings = settings;
        this.token = settings.tokenFile() == null ? null : AdminToken.loadOrCreate(settings.tokenFile());
        InetSocketAddress address = settings.listen();
        // A client that sends headers and then trickles (or never sends) its body holds a thread:
        // the JDK server closes a request after this many seconds (read once, at its first use).
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", "30");
        }
        try {
            http = HttpServer.create(address, 64);
        } catch (java.net.BindException e) {
            throw new java.net.BindException("cannot listen for the admin API on "
                    + Address.hostPort(address) + ": " + e.getMessage() + " (another gslb serve? stop it, or change"
                    + " admin.listen / serve --admin)");
        }
        http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        Map<String, Map<String, Handler>> byPath = new HashMap<>();
        for (Route r : routes) {
            byPath.computeIfAbsent(r.path(), p -> new HashMap<>()).put(r.method(), r.handler());
        }
        byPath.forEach((path, methods) -> http.createContext(path, exchange -> serve(exchange, path, methods)));
        hosts.add("localhost");
        hosts.add(address.getAddress().getHostAddress());
        hosts.add(InetAddress.getLoopbackAddress().getHostAddress());
        if (address.getAddress().isAnyLocalAddress()) { // listening everywhere: any address of this host
            LocalAddresses.all().forEach(a -> hosts.add(LocalAddresses.text(a)));
        }
        settings.allowedHosts().forEach(h -> hosts.add(h.toLowerCase(Locale.ROOT)));
    }

    /** Why this request is refused before its handler runs, or null. */
    private Response refusal(HttpExchange exchange, String path) {
        var headers = exchange.getRequestHeaders();
        if (!hosts.contains(hostOf(headers.getFirst("Host")))) {
            return Response.error(403, "Host not accepted (admin.allowed-hosts)");
        }
        String origin = headers.getFirst("Origin");
        if (origin != null && !settings.allowedOrigins().contains(origin)) {
            return Response.error(403, "cross-origin requests are refused (admin.allowed-origins)");
        }
        boolean open = exchange.getRequestMethod().equals("GET")
                && (settings.openPaths().contains(path)
                        || settings.statusPage() && (path.equals("/") || path.startsWith(StatusPage.PREFIX)));
        if (token != null && !open && !token.admits(headers.getFirst("Authorization"))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            return Response.error(
                    401,
                    "the admin token is missing or wrong (gslb reads var/admin.token;"
                            + " --token-file FILE elsewhere)");
        }
        if (!exchange.getRequestMethod().equals("GET")) {
            String type = headers.getFirst("Content-Type");
            if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
                return Response.error(415, "request bodies must be application/json");
            }
            String length = headers.getFirst("Content-Length");
            if (length != null && length.length() > 12
                    || length != null && Long.parseLong(length) > settings.maxBody()) {
                return Response.error(413, "request body over " + settings.maxBody() + " bytes");
            }
        }
        return null;
    }

    /** The host part of a Host header, lower case, without port; an IP literal in Java's spelling. */
    private static String hostOf(String host) {
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

    private void serve(HttpExchange exchange, String path, Map<String, Handler> methods) throws IOException {
        try (exchange) {
            Response refused;
            try {
                refused = refusal(exchange, path);
            } catch (NumberFormatException e) {
                refused = Response.error(400, "bad Content-Length");
            }
            if (refused != null) {
                send(exchange, refused);
                return;
            }
            if (!exchange.getRequestURI().getPath().equals(path)) {
                send(exchange, new Response(404, "no such path\n", "text/plain"));
                return;
            }
            Handler h = methods.get(exchange.getRequestMethod());
            if (h == null) {
                send(exchange, new Response(405, "allowed: " + methods.keySet() + "\n", "text/plain"));
                return;
            }
            byte[] raw = exchange.getRequestBody().readNBytes(settings.maxBody() + 1);
            if (raw.length > settings.maxBody()) {
                send(exchange, Response.error(413, "request body over " + settings.maxBody() + " bytes"));
                return;
            }
            String body = new String(raw, StandardCharsets.UTF_8);
            Response r;
            try {
                r = h.handle(new Request(query(exchange.getRequestURI().getRawQuery()), body));
            } catch (IllegalArgumentException e) {
                r = Response.error(400, e.getMessage());
            } catch (Exception e) {
                log.warn("admin API {} {} failed: {}", exchange.getRequestMethod(), path, e.toString());
                r = Response.error(500, e.toString());
            }
            send(exchange, r);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                q.put(k, v);
            }
        }
        return q;
    }

    private static void send(HttpExchange exchange, Response r) throws IOException {
        byte[] bytes = r.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", r.contentType());
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        if (r.contentType().startsWith("text/html")) { // the status page: its own files only, never in a frame
            exchange.getResponseHeaders()
                    .set(
                            "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'");
        }
        exchange.sendResponseHeaders(r.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    public void start() {
        http.start();
        log.info("admin API listening on http://{}", address());
    }

    /** The bound address, printed as host:port ([v6]:port) for URLs. */
    public String address() {
        return Address.hostPort(http.getAddress());
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
