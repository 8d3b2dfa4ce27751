package dev.gslb.dns.server;

import dev.gslb.dns.answer.ThrottledLog;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The last handler of a listening channel: what its accept fails with (EMFILE and ENFILE when the
 * descriptors run out, or anything else). netty's acceptor, just before it, has already paused
 * accepting for a second, so a lasting failure neither spins a core nor ends the listener; here the
 * failure is counted and logged (at most a few lines a second), not passed on to netty's default,
 * which logs every one with its stack trace.
 */
@ChannelHandler.Sharable
public final class AcceptErrors extends ChannelInboundHandlerAdapter implements AutoCloseable {
    private final String listener;
    private final Runnable count;
    private final ThrottledLog log;

    public AcceptErrors(String listener, String logger, Runnable count) {
        this.listener = listener;
        this.count = count;
        this.log = new ThrottledLog(logger);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        count.run();
        if (log.admit()) {
            log.line(listener + ": cannot accept a connection: " + cause.getMessage() + " (accepting again in 1 s)");
        }
    }

    @Override
    public void close() {
        log.close();
    }
}
