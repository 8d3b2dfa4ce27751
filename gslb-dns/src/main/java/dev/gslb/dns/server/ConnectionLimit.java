package dev.gslb.dns.server;

import dev.gslb.dns.answer.DnsMetrics;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;

/** Closes TCP connections above the cap, so idle or slow clients cannot use up the server. */
@ChannelHandler.Sharable
final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    private final AtomicInteger open = new AtomicInteger();
    private final int max;
    private final DnsMetrics metrics;

    ConnectionLimit(int max, DnsMetrics metrics) {
        this.max = max;
        this.metrics = metrics;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (open.incrementAndGet() > max) {
            metrics.dropped(DnsMetrics.Drop.TCP_CONNECTION_LIMIT);
            ctx.close();
            return;
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        open.decrementAndGet();
        super.channelInactive(ctx);
    }
}
