package dev.gslb.cli.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The admin HTTP API (loopback by default). Each area (health, metrics, topology...) adds routes. */
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
    }

    @FunctionalInterface
    public interface Handler {
        Response handle(Request request) throws Exception;
    }

    public record Route(String method, String path, Handler handler) {}

    private final HttpServer http;

    public AdminServer(InetSocketAddress address, List<Route> routes) throws IOException {
        http = HttpServer.create(address, 64);
        http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        Map<String, Map<String, Handler>> byPath = new HashMap<>();
        for (Route r : routes) {
            byPath.computeIfAbsent(r.path(), p -> new HashMap<>()).put(r.method(), r.handler());
        }
        byPath.forEach((path, methods) -> http.createContext(path, exchange -> serve(exchange, path, methods)));
    }

    private static void serve(HttpExchange exchange, String path, Map<String, Handler> methods) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(path)) {
                send(exchange, new Response(404, "no such path\n", "text/plain"));
                return;
            }
            Handler h = methods.get(exchange.getRequestMethod());
            if (h == null) {
                send(exchange, new Response(405, "allowed: " + methods.keySet() + "\n", "text/plain"));
                return;
            }
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Response r;
            try {
                r = h.handle(new Request(query(exchange.getRequestURI().getRawQuery()), body));
            } catch (IllegalArgumentException e) {
                r = Response.json(400, "{\"error\":" + Json.quote(e.getMessage()) + "}\n");
            } catch (Exception e) {
                log.warn("admin API {} {} failed: {}", exchange.getRequestMethod(), path, e.toString());
                r = Response.json(500, "{\"error\":" + Json.quote(e.toString()) + "}\n");
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
        InetSocketAddress a = http.getAddress();
        String host = a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
