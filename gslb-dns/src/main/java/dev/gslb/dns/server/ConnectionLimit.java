package dev.gslb.dns.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Bounds a TCP listener's connections, in all and per source address. A source over its share is
 * closed at once, so one busy (or hostile) address cannot hold the table. When the table is full,
 * the connection that has been idle longest (read nothing for the longest time) is closed to make
 * room for the new one, as NSD and Knot do: a full table of idle connections cannot lock new
 * clients out, and a real client whose idle connection goes simply connects again. The maps hold
 * only open connections, so they are bounded by the cap; the idlest is found by one scan, done only
 * when the table is full.
 */
@ChannelHandler.Sharable
public final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    /** What the limit did to a connection (for counters). */
    public enum Action {
        /** A new connection closed because its source holds its share already. */
        SOURCE_REFUSED,
        /** An idle connection closed to make room for a new one. */
        IDLE_CLOSED,
        /** A new connection closed because the table is full and none is idle to give way. */
        FULL_REFUSED
    }

    private static final AttributeKey<InetAddress> COUNTED = AttributeKey.valueOf("gslb.source");

    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> perSource = new ConcurrentHashMap<>();
    /** Open connections and when each last read anything (System.nanoTime). */
    private final ConcurrentHashMap<Channel, long[]> lastRead = new ConcurrentHashMap<>();

    private final int max;
    private final int maxPerSource;
    private final Consumer<Action> events;

    public ConnectionLimit(int max, int maxPerSource, Consumer<Action> events) {
        this.max = max;
        this.maxPerSource = maxPerSource;
        this.events = events;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        Channel ch = ctx.channel();
        InetAddress source = ((InetSocketAddress) ch.remoteAddress()).getAddress();
        if (perSource.merge(source, 1, Integer::sum) > maxPerSource) {
            release(source);
            events.accept(Action.SOURCE_REFUSED);
            ctx.close();
            return;
        }
        if (open.incrementAndGet() > max && !closeIdlest()) {
            open.decrementAndGet();
            release(source);
            events.accept(Action.FULL_REFUSED);
            ctx.close();
            return;
        }
        ch.attr(COUNTED).set(source);
        lastRead.put(ch, new long[] {System.nanoTime()});
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        long[] at = lastRead.get(ctx.channel());
        if (at != null) {
            at[0] = System.nanoTime(); // read by the scan without a lock: a stale value only picks a near-idlest
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        InetAddress source = ctx.channel().attr(COUNTED).getAndSet(null);
        if (source != null) { // counted in channelActive (a refused one gave its place back there)
            open.decrementAndGet();
            lastRead.remove(ctx.channel());
            release(source);
        }
        super.channelInactive(ctx);
    }

    /** Connections open now, as counted. */
    public int open() {
        return open.get();
    }

    private void release(InetAddress source) {
        perSource.computeIfPresent(source, (k, n) -> n > 1 ? n - 1 : null);
    }

    /**
     * Closes the open connection that has read nothing for the longest time; false when none is
     * open. Taking it out of {@link #lastRead} claims it, so two newcomers never count one closing.
     */
    private boolean closeIdlest() {
        for (int attempt = 0; attempt < 8; attempt++) {
            Channel idlest = null;
            long oldest = 0;
            for (Map.Entry<Channel, long[]> e : lastRead.entrySet()) {
                long at = e.getValue()[0];
                if (idlest == null || at - oldest < 0) {
                    idlest = e.getKey();
                    oldest = at;
                }
            }
            if (idlest == null) {
                return false;
            }
            if (lastRead.remove(idlest) != null) {
                idlest.close(); // its channelInactive gives back its place in the count
                events.accept(Action.IDLE_CLOSED);
                return true;
            }
        }
        return false;
    }
}
