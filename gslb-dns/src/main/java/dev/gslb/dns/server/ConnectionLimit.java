package dev.gslb.dns.server;

import dev.gslb.dns.answer.DnsMetrics;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closes TCP connections above the cap, in all and per source address, so neither slow clients
 * nor one busy (or hostile) source can use up the server's connections. The per-source map holds
 * only sources with open connections, so it is bounded by the global cap.
 */
@ChannelHandler.Sharable
final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    private static final AttributeKey<InetAddress> COUNTED = AttributeKey.valueOf("gslb.source");

    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> perSource = new ConcurrentHashMap<>();
    private final int max;
    private final int maxPerSource;
    private final DnsMetrics metrics;

    ConnectionLimit(int max, int maxPerSource, DnsMetrics metrics) {
        this.max = max;
        this.maxPerSource = maxPerSource;
        this.metrics = metrics;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (open.incrementAndGet() > max) {
            metrics.dropped(DnsMetrics.Drop.TCP_CONNECTION_LIMIT);
            ctx.close();
            return;
        }
        InetAddress source = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress();
        if (perSource.merge(source, 1, Integer::sum) > maxPerSource) {
            perSource.computeIfPresent(source, (k, n) -> n > 1 ? n - 1 : null);
            metrics.dropped(DnsMetrics.Drop.TCP_SOURCE_LIMIT);
            ctx.close();
            return;
        }
        ctx.channel().attr(COUNTED).set(source);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        open.decrementAndGet();
        InetAddress source = ctx.channel().attr(COUNTED).getAndSet(null);
        if (source != null) {
            perSource.computeIfPresent(source, (k, n) -> n > 1 ? n - 1 : null);
        }
        super.channelInactive(ctx);
    }
}
