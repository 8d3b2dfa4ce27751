package dev.gslb.server.admin;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One admin connection, one request at a time: the head is checked ({@link AdminGate}, the route,
 * the body the route takes, a free {@link RequestSlots slot}) before a byte of the body is read; a
 * refused request is answered and the connection closed without reading on. The body is read up
 * to what the route takes, within the body timeout; the route runs on a virtual thread (routes
 * may wait: probes, pairing; {@link AdminServer.Routes#runner}); its answer is written back here. A connection must send each
 * request head within the header timeout (from when it opens, or its last answer). Requests sent
 * before the previous answer (pipelining, which no admin client does) close the connection once
 * that answer is written.
 */
final class AdminExchange extends ChannelInboundHandlerAdapter {
    private final AdminServer.Routes routes;

    /** The request being read or answered, if any. */
    private AdminServer.Route route;

    private HttpRequest head;
    /** Who asked what, for the audit log (from the head on, until the answer is written). */
    private AdminCall call;

    private CompositeByteBuf body;
    private int limit;
    private RequestSlots.Slot slot;
    private boolean answering;
    private boolean pipelined;
    private ScheduledFuture<?> timer;

    AdminExchange(AdminServer.Routes routes) {
        this.routes = routes;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        awaitHead(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (answering || !ctx.channel().isOpen()) {
                pipelined |= answering;
                return;
            }
            if (msg instanceof HttpRequest request) {
                begin(ctx, request);
            }
            if (route != null && msg instanceof HttpContent content) {
                read(ctx, content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** The request being answered is a HEAD. */
    private boolean headRequest;

    private void begin(ChannelHandlerContext ctx, HttpRequest request) {
        cancelTimer();
        headRequest = request.method().equals(HttpMethod.HEAD); // even a malformed one: the codec sends no body then
        if (request.decoderResult().isFailure()) {
            Throwable why = request.decoderResult().cause();
            routes.refused("bad_request");
            refuse(
                    ctx,
                    AdminServer.Response.error(
                            why instanceof TooLongFrameException ? 431 : 400,
                            "malformed request: " + why.getMessage()));
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        Map<String, AdminServer.Route> methods = routes.at(path);
        AdminGate gate = routes.gate();
        call = new AdminCall(
                request.method().name(),
                path,
                params(uri),
                source(ctx).getHostAddress(),
                gate.caller(request.headers()));
        AdminServer.Response refused = request.method().equals(HttpMethod.HEAD)
                ? new AdminServer.Response(405, "", "text/plain") // no route answers HEAD; its answer carries no body
                : gate.foreign(request.headers());
        if (refused == null && methods == null) {
            refused = new AdminServer.Response(404, "no such path\n", "text/plain");
        }
        if (refused == null) {
            refused = gate.refusal(request.method(), path, call.caller(), request.headers());
        }
        AdminServer.Route r =
                methods == null ? null : methods.get(request.method().name());
        if (refused == null && r == null) {
            refused = new AdminServer.Response(405, "allowed: " + methods.keySet() + "\n", "text/plain");
        }
        if (refused == null) {
            refused = gate.forbidden(r, call.caller());
        }
        long declared = HttpUtil.getContentLength(request, -1L);
        boolean hasBody = declared > 0 || HttpUtil.isTransferEncodingChunked(request);
        int takes = r == null ? 0 : routes.bodyLimit(r.body());
        if (refused == null && hasBody && (takes == 0 || declared > takes)) {
            routes.refused("too_large");
            refused = AdminServer.Response.error(
                    413, takes == 0 ? path + " takes no request body" : "request body over " + takes + " bytes");
        }
        if (refused == null) {
            slot = routes.slots().take(source(ctx), r.body() == AdminServer.Body.UPLOAD);
            if (slot == null) {
                routes.refused("busy");
                refused = AdminServer.Response.error(503, "too many admin requests at once; try again");
            }
        }
        if (refused != null) {
            refuse(ctx, refused);
            return;
        }
        route = r;
        head = request;
        limit = takes;
        body = ctx.alloc().compositeBuffer();
        if (hasBody) {
            timer = ctx.executor()
                    .schedule(
                            () -> {
                                routes.refused("body_timeout");
                                refuse(ctx, AdminServer.Response.error(408, "the request body did not arrive in time"));
                            },
                            routes.limits().bodyTimeout().toMillis(),
                            TimeUnit.MILLISECONDS);
        }
    }

    private void read(ChannelHandlerContext ctx, HttpContent content) {
        ByteBuf chunk = content.content();
        if (body.readableBytes() + chunk.readableBytes() > limit) {
            routes.refused("too_large");
            refuse(ctx, AdminServer.Response.error(413, "request body over " + limit + " bytes"));
            return;
        }
        if (chunk.isReadable()) {
            body.addComponent(true, chunk.retain());
        }
        if (content instanceof LastHttpContent) {
            cancelTimer();
            answer(ctx);
        }
    }

    /** Runs the route on a virtual thread and writes its answer back on this connection's loop. */
    private void answer(ChannelHandlerContext ctx) {
        answering = true;
        AdminServer.Request request =
                new AdminServer.Request(call.query(), body.toString(StandardCharsets.UTF_8), call.caller());
        body.release();
        body = null;
        AdminServer.Route r = route;
        AdminCall c = call;
        boolean keepAlive = HttpUtil.isKeepAlive(head);
        routes.runner().execute(() -> {
            AdminServer.Response response = routes.run(r, request);
            routes.audit(c, response); // on the route's thread: the event loop never waits for the file
            ctx.executor().execute(() -> finish(ctx, response, keepAlive));
        });
    }

    private void finish(ChannelHandlerContext ctx, AdminServer.Response response, boolean keepAlive) {
        boolean close = !keepAlive || pipelined;
        write(ctx, response, close);
        clear();
        answering = false;
        if (!close) {
            awaitHead(ctx);
        }
    }

    /** Answers and closes without reading on: whatever the client sends next is not read. */
    private void refuse(ChannelHandlerContext ctx, AdminServer.Response response) {
        routes.audit(call, response); // a line append: the one file write on the event loop
        clear();
        if (ctx.channel().isOpen()) {
            write(ctx, response, true);
        }
    }

    private void write(ChannelHandlerContext ctx, AdminServer.Response r, boolean close) {
        // An answer to HEAD has no body (netty's codec drops it): its length says so, or the
        // client would wait for bytes that never come and read the next answer as this one's body.
        byte[] bytes = headRequest ? new byte[0] : r.body().getBytes(StandardCharsets.UTF_8);
        FullHttpResponse out = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()), Unpooled.wrappedBuffer(bytes));
        var h = out.headers();
        h.set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        h.set("X-Content-Type-Options", "nosniff");
        if (r.contentType().startsWith("text/html")) { // the status page: its own files only, never in a frame
            h.set(
                    "Content-Security-Policy",
                    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'");
        }
        if (r.status() == 401) {
            h.set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
        }
        if (close) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.channel().config().setAutoRead(false);
            ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(out);
        }
    }

    private void awaitHead(ChannelHandlerContext ctx) {
        cancelTimer();
        timer = ctx.executor()
                .schedule(
                        () -> {
                            routes.refused("header_timeout");
                            ctx.close();
                        },
                        routes.limits().headerTimeout().toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    /** The client's address (a test's embedded channel has none: it counts as loopback). */
    private static InetAddress source(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress a
                ? a.getAddress()
                : InetAddress.getLoopbackAddress();
    }

    private static Map<String, String> params(QueryStringDecoder uri) {
        Map<String, String> q = new HashMap<>();
        for (Map.Entry<String, List<String>> e : uri.parameters().entrySet()) {
            q.put(e.getKey(), e.getValue().getLast());
        }
        return q;
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** Gives back what the request held: its slot, its body, its timer. */
    private void clear() {
        cancelTimer();
        if (slot != null) {
            slot.release();
            slot = null;
        }
        if (body != null) {
            body.release();
            body = null;
        }
        route = null;
        head = null;
        call = null;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!answering) { // a route still running gives its slot back when its answer is written
            clear();
        }
        cancelTimer();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        routes.connectionError(cause);
        ctx.close();
    }
}
