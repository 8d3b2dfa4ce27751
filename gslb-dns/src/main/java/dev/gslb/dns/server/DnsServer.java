package dev.gslb.dns.server;

import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.answer.ThrottledLog;
import dev.gslb.dns.transfer.Transfers;
import dev.gslb.topology.Address;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UDP and TCP listeners. On Linux, UDP is served by {@link BatchedUdpListener}s: per address,
 * one socket (SO_REUSEPORT) and one thread per configured thread, batching with recvmmsg and
 * sendmmsg. TCP is served by netty event loops (epoll, or NIO elsewhere). Where the batched
 * listener cannot run, netty serves UDP too: with epoll every event loop owns one UDP socket,
 * with NIO one socket per address serves all loops.
 */
public final class DnsServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DnsServer.class);
    /** The longest a stop waits for a channel or for the event loops (their own grace period is 2 s). */
    private static final long CLOSE_WAIT_MILLIS = 5000;
    /** Bytes read of one datagram: one more than the largest query taken, so a longer one shows as oversize. */
    private static final int UDP_SLOT = Responder.MAX_UDP_QUERY + 1;
    /** Datagrams one receive call may take (recvmmsg); 15 slots stay under 64 KiB, a pooled buffer size. */
    private static final int UDP_BATCH = 15;

    private final ListenerSettings settings;
    private final Responder responder;
    private final DnsMetrics metrics;
    private final List<Channel> channels = new ArrayList<>();
    private final List<BatchedUdpListener> udpListeners = new ArrayList<>();
    /**
     * UDP by the batched listeners, unless they cannot run here or the operator asked for netty
     * ({@code -Dgslb.udp=netty}: a way around a platform where the native calls misbehave).
     */
    private final boolean batched = BatchedUdpListener.available() && !"netty".equals(System.getProperty("gslb.udp"));

    private final List<InetSocketAddress> bound = new ArrayList<>();
    private final ListenerHealth health = new ListenerHealth();
    private final TimeSlice slice = new TimeSlice();
    private final List<AcceptErrors> acceptErrors = new ArrayList<>();
    private final ThrottledLog connectionErrors = new ThrottledLog("gslb.dns");
    private volatile boolean stopping;
    private EventLoopGroup group;

    /** Transfers out, or null: AXFR and IXFR are answered REFUSED. */
    private final Transfers transfers;

    public DnsServer(ListenerSettings settings, Responder responder, DnsMetrics metrics) {
        this(settings, responder, null, metrics);
    }

    public DnsServer(ListenerSettings settings, Responder responder, Transfers transfers, DnsMetrics metrics) {
        this.settings = settings;
        this.responder = responder;
        this.transfers = transfers;
        this.metrics = metrics;
    }

    /** Which listening loops serve; what failed, for /health. */
    public ListenerHealth health() {
        return health;
    }

    public static boolean nativeTransport() {
        return Epoll.isAvailable();
    }

    /**
     * Links what the listeners will call into the system: the UDP loop's downcalls, the DNS threads'
     * scheduler call ({@link TimeSlice}, 40-55 ms more without the AOT cache) and netty's epoll
     * library (with its own downcalls), about a tenth of a second of cold code, which serve runs on
     * a thread of its own while it reads its configuration. Otherwise the server's construction and
     * the first listener link them.
     */
    public static void linkNatives() {
        BatchedUdpListener.available();
        TimeSlice.available();
        nativeTransport();
    }

    public synchronized void start() throws InterruptedException {
        boolean epoll = nativeTransport();
        int threads = settings.effectiveThreads();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        // Named threads: a profile or `top -H` shows which time is the query path's.
        group = new MultiThreadIoEventLoopGroup(
                threads,
                new DefaultThreadFactory("dns") {
                    @Override
                    protected Thread newThread(Runnable r, String name) {
                        return super.newThread(
                                () -> {
                                    slice.requestForCurrentThread();
                                    r.run();
                                },
                                name);
                    }
                },
                io);
        try {
            for (InetSocketAddress address : settings.addresses()) {
                bound.add(bindBoth(address, epoll ? threads : 1, epoll));
            }
        } catch (InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
        log.info(
                "DNS listening on {} ({} threads; UDP {}, TCP {})",
                bound,
                threads,
                batched ? "recvmmsg/sendmmsg" : epoll ? "epoll" : "nio",
                epoll ? "epoll" : "nio");
    }

    /**
     * UDP and TCP on one address and port. When port 0 was asked, the kernel picks the UDP port and
     * TCP takes the same number, which another TCP socket may already hold: then both are tried
     * again on a new port (a few times), instead of failing the start.
     */
    private InetSocketAddress bindBoth(InetSocketAddress address, int sockets, boolean epoll)
            throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            int before = channels.size();
            int udpBefore = udpListeners.size();
            int port =
                    batched ? bindBatchedUdp(address, settings.effectiveThreads()) : bindUdp(address, sockets, epoll);
            InetSocketAddress actual = new InetSocketAddress(address.getAddress(), port);
            TcpBind tcp = bindTcp(actual, epoll);
            if (tcp.failure() == null) {
                String where = Address.hostPort(actual);
                int udp = channels.size() - before; // netty's UDP channels, if any
                for (Channel listening : tcp.channels()) {
                    AcceptErrors errors = new AcceptErrors(
                            "DNS over TCP on " + where,
                            "gslb.dns",
                            () -> metrics.dropped(DnsMetrics.Drop.TCP_ACCEPT_FAILED));
                    acceptErrors.add(errors);
                    listening.pipeline().addLast(errors); // after netty's acceptor, which pauses on a failure
                    channels.add(listening);
                }
                for (int i = before; i < channels.size(); i++) {
                    int n = i - before;
                    boolean isTcp = n >= udp;
                    watch(
                            channels.get(i),
                            (isTcp ? "dns-tcp-" + (n - udp) : "dns-udp-" + n) + "-" + where,
                            (isTcp ? "TCP on " : "UDP on ") + where);
                }
                return actual;
            }
            Throwable failed = tcp.failure();
            if (address.getPort() != 0 || attempt == 8) {
                throw new IllegalStateException(inUse("TCP " + Address.hostPort(actual), failed), failed);
            }
            while (channels.size() > before) {
                channels.removeLast().close().sync();
            }
            while (udpListeners.size() > udpBefore) {
                udpListeners.removeLast().close();
            }
            log.debug("TCP port {} is taken; binding UDP and TCP on another ephemeral port", port);
        }
    }

    /** A start-up failure that names the listener and what to do. */
    private static String inUse(String where, Throwable cause) {
        String why = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        return "cannot listen for DNS on " + where + ": "
                + why.replaceFirst("^bind\\(\\.\\.\\) failed with error\\(-\\d+\\): ", "")
                + " (another DNS server holds it? stop it, or change dns.listen / serve --listen)";
    }

    /** Starts {@code threads} batched UDP listeners on one address; the first fixes the port when 0 was asked. */
    private int bindBatchedUdp(InetSocketAddress address, int threads) {
        int port = address.getPort();
        for (int i = 0; i < threads; i++) {
            try {
                BatchedUdpListener l = BatchedUdpListener.start(
                        new InetSocketAddress(address.getAddress(), port),
                        responder,
                        health,
                        slice,
                        "dns-udp-" + port + "-" + i);
                udpListeners.add(l);
                port = l.port();
            } catch (IllegalStateException e) {
                throw new IllegalStateException(inUse("UDP " + Address.hostPort(address), e), e);
            }
        }
        return port;
    }

    /** Binds {@code sockets} netty UDP sockets on one address; the first fixes the port when 0 was asked. */
    private int bindUdp(InetSocketAddress address, int sockets, boolean epoll) throws InterruptedException {
        int port = address.getPort();
        for (int i = 0; i < sockets; i++) {
            Bootstrap b = new Bootstrap()
                    .group(group)
                    .channel(epoll ? EpollDatagramChannel.class : NioDatagramChannel.class)
                    .option(ChannelOption.SO_RCVBUF, 4 << 20)
                    .option(ChannelOption.SO_SNDBUF, 4 << 20)
                    // Room for UDP_BATCH datagrams of one byte more than the largest query taken: with epoll,
                    // one recvmmsg call fills a slot per datagram, and a longer datagram arrives cut to its
                    // slot, which the guard drops as oversize, unparsed. The buffer stays within the
                    // allocator's pooled sizes. NIO reads one datagram a call: one slot.
                    .option(
                            ChannelOption.RCVBUF_ALLOCATOR,
                            new FixedRecvByteBufAllocator(epoll ? UDP_BATCH * UDP_SLOT : UDP_SLOT))
                    .handler(new ChannelInitializer<DatagramChannel>() {
                        @Override
                        protected void initChannel(DatagramChannel ch) {
                            ch.pipeline().addLast(new UdpQueryHandler(responder));
                        }
                    });
            if (epoll) {
                b.option(EpollChannelOption.SO_REUSEPORT, true)
                        .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, UDP_SLOT);
            }
            ChannelFuture bound =
                    b.bind(new InetSocketAddress(address.getAddress(), port)).await();
            if (!bound.isSuccess()) {
                throw new IllegalStateException(
                        inUse("UDP " + Address.hostPort(address), bound.cause()), bound.cause());
            }
            Channel ch = bound.channel();
            channels.add(ch);
            port = ((InetSocketAddress) ch.localAddress()).getPort();
        }
        return port;
    }

    /** A listening channel serves until it is closed; closed other than by {@link #close()}, it has failed. */
    private void watch(Channel ch, String name, String what) {
        health.serving(name);
        ch.closeFuture().addListener(f -> {
            if (stopping) {
                health.stopped(name);
            } else {
                health.failed(name, what + " stopped: its socket was closed");
            }
        });
    }

    /**
     * The listening channels, or why one could not bind (the others then closed). With epoll,
     * a listening socket per event loop (SO_REUSEPORT, as NSD's processes each listen): a
     * connection is accepted and served on one loop, where one listener handed each to another
     * loop, a cross-thread wake-up that was most of a fresh connection's slow tail. Reuse-port
     * would also let another server join the port group unnoticed, so the port is first bound
     * plainly: that fails while anyone holds it.
     */
    private TcpBind bindTcp(InetSocketAddress address, boolean epoll) throws InterruptedException {
        ConnectionLimit limit = new ConnectionLimit(
                settings.tcpMaxConnections(),
                settings.tcpMaxConnectionsPerSource(),
                action -> metrics.dropped(
                        switch (action) {
                            case SOURCE_REFUSED -> DnsMetrics.Drop.TCP_SOURCE_LIMIT;
                            case IDLE_CLOSED -> DnsMetrics.Drop.TCP_IDLE_CLOSED;
                            case FULL_REFUSED -> DnsMetrics.Drop.TCP_CONNECTION_LIMIT;
                        }));
        long idleMillis = settings.tcpIdle().toMillis();
        ServerBootstrap b = new ServerBootstrap()
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                // Back-pressure: above 32 KiB of unsent answers a connection is unwritable and stops
                // being read (TcpFramer); reads are at most 16 KiB, so each connection's memory is bounded.
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(16 << 10, 32 << 10))
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(64, 1024, 16 << 10))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        limit,
                                        new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS),
                                        new TcpFramer(settings.tcpQueryTimeout(), settings.tcpIdle(), metrics),
                                        new TcpQueryHandler(responder, transfers, DnsServer.this::connectionError));
                    }
                });
        if (!epoll || settings.effectiveThreads() == 1) {
            ChannelFuture f = b.group(group).bind(address).await();
            return f.isSuccess() ? new TcpBind(List.of(f.channel()), null) : new TcpBind(List.of(), f.cause());
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(address);
        } catch (IOException e) {
            return new TcpBind(List.of(), e);
        }
        b.option(EpollChannelOption.SO_REUSEPORT, true);
        List<Channel> bound = new ArrayList<>();
        for (EventExecutor loop : group) {
            ChannelFuture f = b.clone()
                    .group((EventLoop) loop, (EventLoop) loop)
                    .bind(address)
                    .await();
            if (!f.isSuccess()) {
                for (Channel ok : bound) {
                    ok.close().sync();
                }
                return new TcpBind(List.of(), f.cause());
            }
            bound.add(f.channel());
        }
        return new TcpBind(bound, null);
    }

    /** TCP's listening channels on one address, or why they could not bind. */
    private record TcpBind(List<Channel> channels, Throwable failure) {}

    /**
     * What one connection threw (an error answering it, a failed allocation): it is closed, the
     * listener goes on; counted and logged, a few lines a second at most. A reset is no error.
     */
    private void connectionError(Throwable cause) {
        if (cause instanceof java.io.IOException) {
            return;
        }
        health.survived();
        if (connectionErrors.admit()) {
            connectionErrors.line("DNS over TCP: a connection failed and was closed: " + cause);
        }
    }

    /** The batched UDP listeners (for the test that breaks one). */
    synchronized List<BatchedUdpListener> udpListeners() {
        return List.copyOf(udpListeners);
    }

    /** netty's channels: UDP ones where the batched listener does not run, and the TCP listeners. */
    synchronized List<Channel> channels() {
        return List.copyOf(channels);
    }

    /** The addresses actually bound (ports filled in when 0 was configured). */
    public synchronized List<InetSocketAddress> boundAddresses() {
        return List.copyOf(bound);
    }

    /** Stops accepting, lets in-flight answers go out, then releases the event loops. */
    @Override
    public synchronized void close() {
        stopping = true;
        udpListeners.forEach(BatchedUdpListener::close);
        udpListeners.clear();
        for (Channel ch : channels) {
            ch.close().awaitUninterruptibly(CLOSE_WAIT_MILLIS);
        }
        channels.clear();
        if (group != null) {
            // Waits on the loops themselves: the group's termination future is completed by a
            // listener on netty's GlobalEventExecutor, which was seen never to run at shutdown
            // (loops ended, future open: the stop hung until SIGKILL).
            group.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
            try {
                if (!group.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    log.warn("DNS event loops did not stop within {} ms; going on", CLOSE_WAIT_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        group = null;
        acceptErrors.forEach(AcceptErrors::close);
        connectionErrors.close();
    }
}
