package dev.gslb.dns.server;

import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.answer.Transport;
import dev.gslb.topology.Cidr;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetAddress;

/** Answers datagrams on one UDP socket; one instance per socket, so its scratch buffer is unshared. */
final class UdpQueryHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    private final Responder responder;
    private final byte[] scratch = new byte[Responder.MAX_UDP_QUERY + 1];

    UdpQueryHandler(Responder responder) {
        this.responder = responder;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        ByteBuf in = packet.content();
        int length = Math.min(in.readableBytes(), scratch.length); // the receive buffer is this size anyway
        in.getBytes(in.readerIndex(), scratch, 0, length);
        ByteBuf out = ctx.alloc().ioBuffer(512);
        InetAddress client = packet.sender().getAddress(); // netty's own: read once into the 128-bit form
        int port = packet.sender().getPort();
        if (responder.respond(scratch, length, Transport.UDP, Cidr.hiOf(client), Cidr.loOf(client), port, out)) {
            ctx.write(new DatagramPacket(out, packet.sender()), ctx.voidPromise());
        } else {
            out.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush(); // one flush per read batch lets epoll send the answers together
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A send error for one client (e.g. ICMP unreachable) must not close the shared socket.
    }
}
