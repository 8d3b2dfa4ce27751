package dev.gslb.dns.server;

import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.answer.Transport;
import dev.gslb.topology.Cidr;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/** Answers the DNS messages {@link TcpFramer} hands on, one connection's worth, in order (RFC 7766). */
final class TcpQueryHandler extends SimpleChannelInboundHandler<ByteBuf> {
    private final Responder responder;
    private final Consumer<Throwable> errors;
    private byte[] scratch = new byte[512];
    /** The peer as the 128-bit form (IPv4 mapped), read once per connection. */
    private boolean peerRead;

    private long peerHi;
    private long peerLo;
    private int peerPort;

    TcpQueryHandler(Responder responder, Consumer<Throwable> errors) {
        this.responder = responder;
        this.errors = errors;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        int length = frame.readableBytes();
        if (scratch.length < length) {
            scratch = new byte[65535];
        }
        frame.getBytes(frame.readerIndex(), scratch, 0, length);
        ByteBuf out = ctx.alloc().ioBuffer(514);
        out.writeShort(0); // length prefix, set below
        if (!peerRead) {
            InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
            InetAddress peer = remote.getAddress();
            peerHi = Cidr.hiOf(peer);
            peerLo = Cidr.loOf(peer);
            peerPort = remote.getPort();
            peerRead = true;
        }
        if (responder.respond(scratch, length, Transport.TCP, peerHi, peerLo, peerPort, out)) {
            out.setShort(0, out.readableBytes() - 2);
            ctx.write(out, ctx.voidPromise());
        } else {
            out.release();
            ctx.close(); // a connection that sends non-queries is not worth keeping
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
