package dev.gslb.dns.server;

import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.answer.Transport;
import dev.gslb.dns.transfer.Transfers;
import dev.gslb.topology.Cidr;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Answers the DNS messages {@link TcpFramer} hands on, one connection's worth, in order (RFC 7766).
 * A zone transfer request is handed to {@link Transfers} on a thread of its own, the connection's
 * reading paused until its last message is written, so no other answer comes between its messages.
 */
final class TcpQueryHandler extends SimpleChannelInboundHandler<ByteBuf> {
    /** Transfer messages written but not yet sent: the transfer waits beyond this, so a slow reader holds little. */
    private static final int MESSAGES_IN_FLIGHT = 4;
    /** A secondary that reads nothing for this long has its transfer ended. */
    private static final long STALL_SECONDS = 30;

    private final Responder responder;
    private final Transfers transfers;
    private final Consumer<Throwable> errors;
    private byte[] scratch = new byte[512];
    /** A transfer is being written on this connection: messages read meanwhile wait (RFC 5936 4.1.2 lets them). */
    private boolean transferring;
    /** Messages read during a transfer (the framer hands on what it had buffered): at most {@link #MAX_WAITING}. */
    private final java.util.ArrayDeque<byte[]> waiting = new java.util.ArrayDeque<>();

    private static final int MAX_WAITING = 16;
    /** The peer as the 128-bit form (IPv4 mapped), read once per connection. */
    private boolean peerRead;

    private long peerHi;
    private long peerLo;
    private int peerPort;

    TcpQueryHandler(Responder responder, Transfers transfers, Consumer<Throwable> errors) {
        this.responder = responder;
        this.transfers = transfers;
        this.errors = errors;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        int length = frame.readableBytes();
        if (transferring) { // frames read before reading paused wait for the transfer's end, in order
            if (waiting.size() == MAX_WAITING) {
                ctx.close();
                return;
            }
            byte[] copy = new byte[length];
            frame.getBytes(frame.readerIndex(), copy);
            waiting.add(copy);
            return;
        }
        if (scratch.length < length) {
            scratch = new byte[65535];
        }
        frame.getBytes(frame.readerIndex(), scratch, 0, length);
        answer(ctx, length);
    }

    /** Answers the message in {@code scratch[0, length)}. */
    private void answer(ChannelHandlerContext ctx, int length) {
        if (!peerRead) {
            InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
            InetAddress peer = remote.getAddress();
            peerHi = Cidr.hiOf(peer);
            peerLo = Cidr.loOf(peer);
            peerPort = remote.getPort();
            peerRead = true;
        }
        if (transfers != null && Transfers.isTransfer(scratch, length)) {
            transfer(ctx, java.util.Arrays.copyOf(scratch, length));
            return;
        }
        ByteBuf out = ctx.alloc().ioBuffer(514);
        out.writeShort(0); // length prefix, set below
        if (responder.respond(scratch, length, Transport.TCP, peerHi, peerLo, peerPort, out)) {
            out.setShort(0, out.readableBytes() - 2);
            ctx.write(out, ctx.voidPromise());
        } else {
            out.release();
            ctx.close(); // a connection that sends non-queries is not worth keeping
        }
    }

    /** On the event loop, after a transfer: the messages that waited are answered, then reading goes on. */
    private void transferEnded(ChannelHandlerContext ctx) {
        transferring = false;
        while (!transferring && !waiting.isEmpty() && ctx.channel().isActive()) {
            byte[] next = waiting.poll();
            System.arraycopy(
                    next, 0, scratch.length < next.length ? (scratch = new byte[65535]) : scratch, 0, next.length);
            answer(ctx, next.length);
        }
        ctx.flush();
        if (!transferring) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Streams a transfer's messages from a virtual thread, at most {@link #MESSAGES_IN_FLIGHT} unsent. */
    private void transfer(ChannelHandlerContext ctx, byte[] request) {
        Channel channel = ctx.channel();
        transferring = true;
        ctx.flush(); // answers before it go first
        channel.config().setAutoRead(false);
        InetAddress client = ((InetSocketAddress) channel.remoteAddress()).getAddress();
        Semaphore window = new Semaphore(MESSAGES_IN_FLIGHT);
        Thread.ofVirtual().name("transfer to " + client.getHostAddress()).start(() -> {
            try {
                transfers.answer(request, request.length, client, message -> {
                    try {
                        if (!channel.isActive() || !window.tryAcquire(STALL_SECONDS, TimeUnit.SECONDS)) {
                            throw new TransferEnded();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new TransferEnded();
                    }
                    ByteBuf frame = channel.alloc().buffer(message.length + 2);
                    frame.writeShort(message.length).writeBytes(message);
                    channel.writeAndFlush(frame).addListener(f -> window.release());
                });
                channel.eventLoop().execute(() -> transferEnded(ctx));
            } catch (TransferEnded e) {
                channel.close(); // a reader that stalled or left
            } catch (RuntimeException e) {
                channel.close(); // a bug: this connection only
                errors.accept(e);
            }
        });
    }

    /** The client stopped reading or closed: the rest of the transfer is not made. */
    private static final class TransferEnded extends RuntimeException {
        TransferEnded() {
            super(null, null, false, false);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        errors.accept(cause);
        ctx.close(); // whatever it was (a reset, an error answering), it ends this connection only
    }
}
