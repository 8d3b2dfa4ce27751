package dev.gslb.cli.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The admin HTTP API (loopback by default): /health and Prometheus /metrics; later issues add more. */
public final class AdminServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);

    private final HttpServer http;

    public AdminServer(InetSocketAddress address, Supplier<String> healthJson, Supplier<String> metricsText)
            throws IOException {
        http = HttpServer.create(address, 64);
        http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        http.createContext("/health", get(healthJson, "application/json"));
        http.createContext("/metrics", get(metricsText, "text/plain; version=0.0.4; charset=utf-8"));
    }

    public void start() {
        http.start();
        log.info("admin API listening on http://{}", address());
    }

    public InetSocketAddress address() {
        InetSocketAddress a = http.getAddress();
        String host = a.getAddress().getHostAddress();
        return new InetSocketAddress(a.getAddress(), a.getPort()) {
            @Override
            public String toString() {
                return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
            }
        };
    }

    private static HttpHandler get(Supplier<String> body, String contentType) {
        return exchange -> {
            try (exchange) {
                if (!"GET".equals(exchange.getRequestMethod())) {
                    send(exchange, 405, "only GET is allowed here\n", "text/plain");
                    return;
                }
                send(exchange, 200, body.get(), contentType);
            }
        };
    }

    private static void send(HttpExchange exchange, int status, String body, String contentType) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
