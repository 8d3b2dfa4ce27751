package dev.gslb.server.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.config.admin.AdminLimits;
import dev.gslb.config.admin.AdminSettings;
import dev.gslb.dns.answer.ThrottledLog;
import dev.gslb.dns.server.AcceptErrors;
import dev.gslb.dns.server.ConnectionLimit;
import dev.gslb.dns.server.DnsServer;
import dev.gslb.server.access.Tokens;
import dev.gslb.server.audit.AuditLog;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.BindException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP API (loopback by default), on netty: one event loop reads requests, each route
 * runs on a virtual thread. Each area (health, metrics, topology...) adds routes. What the
 * listener bounds (docs/security.md "The admin port"): connections in all and per source
 * ({@link ConnectionLimit}: a full table closes its idlest), requests at once in all and per
 * source ({@link RequestSlots}), the request head's size and time, the body by what its route
 * takes (none, a JSON command, an upload) and time, read only after {@link AdminGate} let the
 * head through.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
    /** The request line and the headers together: an admin client sends a few hundred bytes. */
    private static final int MAX_HEAD = 8192;

    /** A request as the handlers see it: query parameters, the body, and who sent it (the token's name and role). */
    public record Request(Map<String, String> query, String body, dev.gslb.server.access.Caller caller) {
        public String param(String name) {
            return query.get(name);
        }

        /** Who sent it, as the audit log and the runtime states name them: the token's name. */
        public String who() {
            return caller == null ? dev.gslb.server.access.Caller.UNCHECKED.name() : caller.name();
        }

        /** The parameter {@code name}; a 400 saying to give it when it is missing or blank. */
        public String required(String name) {
            String v = param(name);
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException("give ?" + name + "=...");
            }
            return v;
        }
    }

    /**
     * An answer, and what it changed as the route can say it (null: the audit log writes the
     * request's query as its target, and no before or after).
     */
    public record Response(int status, String body, String contentType, Change change) {
        public Response(int status, String body, String contentType) {
            this(status, body, contentType, null);
        }

        /** The same answer, saying what it acted on and the state before and after. */
        public Response changed(String target, String before, String after) {
            return new Response(status, body, contentType, new Change(target, before, after));
        }

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

    /** What a call acted on, and the state before and after it (a line of the audit log). */
    public record Change(String target, String before, String after) {}

    @FunctionalInterface
    public interface Handler {
        Response handle(Request request) throws Exception;
    }

    /** What a route reads of a request body; a body sent to a route that takes none is refused unread. */
    public enum Body {
        NONE,
        /** A JSON command (pair, join): at most {@link AdminSettings#MAX_COMMAND}. */
        COMMAND,
        /** Lists and files (topology, BIND views, LDNS dumps): at most admin.max-body, two at once. */
        UPLOAD
    }

    /**
     * A route, with the least role that may call it: every route says it where it is registered
     * (viewer: reads; operator: acts on what runs; admin: configuration, pairing, tokens).
     */
    public record Route(String method, String path, Role role, Handler handler, Body body) {
        public Route(String method, String path, Role role, Handler handler) {
            this(method, path, role, handler, Body.NONE);
        }
    }

    /** The route table and what the connections share: the gate, the slots, the counters. */
    static final class Routes {
        private final Map<String, Map<String, Route>> byPath = new HashMap<>();
        private final AdminSettings settings;
        private final AdminGate gate;
        private final AuditLog audit;
        private final RequestSlots slots;
        private final Map<String, Counter> refusals = new ConcurrentHashMap<>();
        private final MeterRegistry registry;
        private final Executor runner;
        private final ThrottledLog errors = new ThrottledLog("gslb.admin");

        /** {@code runner} runs each route: a virtual thread each in service, the caller's thread in the fuzz test. */
        Routes(
                AdminSettings settings,
                Tokens tokens,
                AuditLog audit,
                List<Route> routes,
                MeterRegistry registry,
                Executor runner)
                throws IOException {
            this.settings = settings;
            this.gate = new AdminGate(settings, tokens);
            this.audit = audit;
            this.slots = new RequestSlots(settings.limits());
            this.registry = registry;
            this.runner = runner;
            for (Route r : routes) {
                byPath.computeIfAbsent(r.path(), p -> new HashMap<>()).put(r.method(), r);
            }
        }

        /** The routes at {@code path} by method, or null when there is none. */
        Map<String, Route> at(String path) {
            return byPath.get(path);
        }

        AdminGate gate() {
            return gate;
        }

        RequestSlots slots() {
            return slots;
        }

        AdminLimits limits() {
            return settings.limits();
        }

        Executor runner() {
            return runner;
        }

        int bodyLimit(Body body) {
            return switch (body) {
                case NONE -> 0;
                case COMMAND -> AdminSettings.MAX_COMMAND;
                case UPLOAD -> settings.maxBody();
            };
        }

        /** The route's answer; whatever it throws becomes 400 (a bad argument) or 500, never an open exchange. */
        Response run(Route route, Request request) {
            try {
                return route.handler().handle(request);
            } catch (IllegalArgumentException e) {
                return Response.error(400, e.getMessage());
            } catch (JsonProcessingException e) {
                return Response.error(
                        400, "the request body is not the JSON this route takes: " + e.getOriginalMessage());
            } catch (Exception | Error e) {
                log.warn("admin API {} {} failed: {}", route.method(), route.path(), e.toString());
                return Response.error(500, e.toString());
            }
        }

        /** One line in the audit log when {@code call} is one it keeps. */
        void audit(AdminCall call, Response response) {
            if (call != null && call.audited(response.status())) {
                audit.record(call.entry(response, Instant.now()));
            }
        }

        /** Counts a request or connection refused by a limit, by reason. */
        void refused(String reason) {
            refusals.computeIfAbsent(
                            reason,
                            r -> Counter.builder("admin_refused")
                                    .tag("reason", r)
                                    .description("Admin requests and connections refused or closed by a limit")
                                    .register(registry))
                    .increment();
        }

        void connectionError(Throwable cause) {
            if (!(cause instanceof IOException) && errors.admit()) {
                errors.line("admin API: a connection failed and was closed: " + cause);
            }
        }
    }

    private final AdminSettings settings;
    private final Routes routes;
    private final ConnectionLimit connections;
    private final AcceptErrors acceptErrors;
    private EventLoopGroup group;
    private Channel listener;
    private volatile boolean stopping;
    private volatile String failure;

    /** {@code tokens} admit the callers; every call that changes state is written to {@code audit}. */
    public AdminServer(
            AdminSettings settings, Tokens tokens, AuditLog audit, List<Route> routes, MeterRegistry registry)
            throws IOException {
        this.settings = settings;
        this.routes = new Routes(
                settings,
                tokens,
                audit,
                routes,
                registry,
                task -> Thread.ofVirtual().name("admin").start(task));
        AdminLimits l = settings.limits();
        this.connections = new ConnectionLimit(
                l.maxConnections(),
                l.maxConnectionsPerSource(),
                action -> this.routes.refused(
                        switch (action) {
                            case SOURCE_REFUSED -> "connections_per_source";
                            case IDLE_CLOSED -> "idle_closed";
                            case FULL_REFUSED -> "connections";
                        }));
        this.acceptErrors = new AcceptErrors("admin API", "gslb.admin", () -> this.routes.refused("accept_failed"));
        bind();
    }

    /** Binds now, so a port in use fails the construction, as a config error would; accepts from {@link #start()}. */
    private void bind() throws IOException {
        boolean epoll = DnsServer.nativeTransport();
        group = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("admin"), epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 128)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.AUTO_READ, false)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        connections,
                                        new HttpServerCodec(new HttpDecoderConfig()
                                                .setMaxInitialLineLength(MAX_HEAD)
                                                .setMaxHeaderSize(MAX_HEAD)
                                                .setMaxChunkSize(64 << 10)),
                                        new AdminExchange(routes));
                    }
                });
        ChannelFuture bound = b.bind(settings.listen()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new BindException("cannot listen for the admin API on "
                    + Address.hostPort(settings.listen()) + ": " + bound.cause().getMessage()
                    + " (another gslb serve? stop it, or change admin.listen / serve --admin)");
        }
        listener = bound.channel();
        listener.pipeline().addLast(acceptErrors); // after netty's acceptor, which pauses on a failure
        listener.closeFuture().addListener(f -> {
            if (!stopping) {
                failure = "the admin API on " + address() + " stopped: its socket was closed";
                log.error(failure);
            }
        });
    }

    public void start() {
        listener.config().setAutoRead(true);
        log.info("admin API listening on http://{}", address());
    }

    /** The bound address, printed as host:port ([v6]:port) for URLs. */
    public String address() {
        return Address.hostPort((java.net.InetSocketAddress) listener.localAddress());
    }

    /** Why the listener stopped serving, or null while it serves. */
    public String failure() {
        return failure;
    }

    @Override
    public synchronized void close() {
        stopping = true;
        if (listener != null) {
            listener.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        acceptErrors.close();
        routes.errors.close();
    }
}
