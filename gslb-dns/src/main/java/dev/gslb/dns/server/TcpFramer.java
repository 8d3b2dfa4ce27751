package dev.gslb.dns.server;

import dev.gslb.dns.answer.DnsMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Splits a TCP stream into DNS messages (two-byte length prefix, RFC 1035 4.2.2) and enforces
 * what a hostile client could otherwise abuse:
 * <ul>
 * <li>a message must arrive whole within {@code tcp-query-timeout} of its first byte, else the
 *     connection is closed (a client trickling one byte at a time holds nothing for long);</li>
 * <li>messages are handed on only while the connection is writable: when a client pipelines
 *     queries but does not read its answers and the outbound buffer passes the high-water mark,
 *     reading stops until it drains, so the server never queues answers without bound; a
 *     connection that stays unwritable for {@code tcp-idle-timeout} is closed.</li>
 * </ul>
 * Messages are handed on in the order they arrived, so pipelined queries are answered in order.
 */
final class TcpFramer extends ChannelInboundHandlerAdapter {
    private final long queryTimeoutNanos;
    private final long unwritableNanos;
    private final DnsMetrics metrics;
    /** Bytes read but not yet handed on: at most one partial message and one read's worth. */
    private ByteBuf pending;

    private ScheduledFuture<?> deadline;
    private ScheduledFuture<?> unwritable;

    TcpFramer(Duration queryTimeout, Duration unwritableTimeout, DnsMetrics metrics) {
        this.queryTimeoutNanos = queryTimeout.toNanos();
        this.unwritableNanos = unwritableTimeout.toNanos();
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        pending = pending == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), pending, in);
        drain(ctx);
    }

    /** Hands on every whole message while the connection can take answers; times the partial one. */
    private void drain(ChannelHandlerContext ctx) {
        boolean handedOn = false;
        while (pending != null && ctx.channel().isWritable() && pending.readableBytes() >= 2) {
            int length = pending.getUnsignedShort(pending.readerIndex());
            if (length == 0) {
                ctx.close(); // not a DNS message: this is not a DNS client
                return;
            }
            if (pending.readableBytes() < 2 + length) {
                break;
            }
            pending.skipBytes(2);
            handedOn = true;
            ctx.fireChannelRead(pending.readRetainedSlice(length));
        }
        if (pending != null && !pending.isReadable()) {
            pending.release();
            pending = null;
        }
        if (handedOn || pending == null) {
            cancel(deadline);
            deadline = null;
        }
        if (pending != null && deadline == null && !hasWholeMessage()) {
            deadline = ctx.executor()
                    .schedule(
                            () -> close(ctx, DnsMetrics.Drop.TCP_QUERY_TIMEOUT),
                            queryTimeoutNanos,
                            TimeUnit.NANOSECONDS);
        }
        if (!ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    private boolean hasWholeMessage() {
        return pending.readableBytes() >= 2
                && pending.readableBytes() >= 2 + pending.getUnsignedShort(pending.readerIndex());
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            cancel(unwritable);
            unwritable = null;
            drain(ctx);
            ctx.flush();
            if (ctx.channel().isWritable()) {
                ctx.channel().config().setAutoRead(true);
            }
        } else {
            ctx.channel().config().setAutoRead(false);
            if (unwritable == null) {
                unwritable = ctx.executor()
                        .schedule(
                                () -> close(ctx, DnsMetrics.Drop.TCP_UNWRITABLE),
                                unwritableNanos,
                                TimeUnit.NANOSECONDS);
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    /**
     * The idle timeout and the unwritable one are both {@code tcp-idle-timeout} and race: a
     * connection closed as idle while its answers wait unsent is counted as unwritable, whichever
     * timer came first.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent && !ctx.channel().isWritable()) {
            close(ctx, DnsMetrics.Drop.TCP_UNWRITABLE);
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    private void close(ChannelHandlerContext ctx, DnsMetrics.Drop reason) {
        if (!ctx.channel().isActive()) {
            return; // closed already (the other timer): counted once
        }
        metrics.dropped(reason);
        ctx.close();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel(deadline);
        cancel(unwritable);
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    private static void cancel(ScheduledFuture<?> f) {
        if (f != null) {
            f.cancel(false);
        }
    }
}
