package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.server.GslbServer;
import dev.gslb.server.ServiceManagerNotifier;
import dev.gslb.settings.SettingsException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Lookup;
import org.xbill.DNS.Record;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * What systemd hears from a server of a Type=notify unit, received on a real Unix datagram socket
 * that the test binds (netty's epoll domain datagram channel: another implementation than the
 * server's, so the two must agree on the wire): READY=1 only once every listener is bound,
 * RELOADING=1 with MONOTONIC_USEC then READY=1 around a reload, a refused reload in STATUS, and
 * STOPPING=1.
 */
class ServiceManagerNotifyTest {
    @TempDir
    Path dir;

    EventLoopGroup loop;
    final BlockingQueue<String> heard = new LinkedBlockingQueue<>();

    @BeforeEach
    void loop() {
        loop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    }

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }

    /** A bound datagram socket whose every datagram lands in {@link #heard}. */
    Channel serviceManager(String path) throws Exception {
        return new Bootstrap()
                .group(loop)
                .channel(EpollDomainDatagramChannel.class)
                .handler(new SimpleChannelInboundHandler<DomainDatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket p) {
                        heard.add(p.content().toString(StandardCharsets.UTF_8));
                    }
                })
                .bind(new DomainSocketAddress(path))
                .sync()
                .channel();
    }

    String next() throws InterruptedException {
        String m = heard.poll(10, TimeUnit.SECONDS);
        assertThat(m).as("a message to the service manager").isNotNull();
        return m;
    }

    @Test
    void readyOnlyOnceTheListenersAreBoundThenReloadingAndStopping() throws Exception {
        String path = dir.resolve("notify").toString();
        Channel socket = serviceManager(path);
        try (ServiceManagerNotifier notifier = ServiceManagerNotifier.at(path)) {
            GslbServer server = new GslbServer(Isolated.embedded(), notifier);
            try {
                // everything is made and nothing is said: a reload before start is not a readiness
                server.reload();
                assertThat(heard.poll(300, TimeUnit.MILLISECONDS)).isNull();

                server.start();
                String ready = next();
                assertThat(ready.lines().toList())
                        .containsExactly("READY=1", "STATUS=serving 1 wide IP(s) in 1 zone(s)");
                assertThat(server.dns().boundAddresses()).isNotEmpty();
                SimpleResolver resolver =
                        new SimpleResolver(server.dns().boundAddresses().getFirst());
                Lookup lookup = new Lookup("www.example.com.", Type.A);
                lookup.setResolver(resolver);
                lookup.setCache(null);
                assertThat(lookup.run()).extracting(Record::rdataToString).containsExactly("202.106.83.177");

                long before = System.nanoTime() / 1000;
                server.reload();
                String reloading = next();
                assertThat(reloading).startsWith("RELOADING=1\nMONOTONIC_USEC=");
                long usec = Long.parseLong(reloading
                        .lines()
                        .filter(l -> l.startsWith("MONOTONIC_USEC="))
                        .findFirst()
                        .orElseThrow()
                        .substring("MONOTONIC_USEC=".length()));
                assertThat(usec).isBetween(before, System.nanoTime() / 1000);
                assertThat(next()).isEqualTo("READY=1\nSTATUS=serving 1 wide IP(s) in 1 zone(s)");

                server.reloadFrom(() -> {
                    throw new SettingsException("gslb.yaml:7: wide-ips[0].pools: no pool 'nope'\nand more");
                });
                assertThatThrownBy(server::reload).isInstanceOf(SettingsException.class);
                assertThat(next()).startsWith("RELOADING=1\n");
                assertThat(next())
                        .isEqualTo("READY=1\nSTATUS=serving 1 wide IP(s) in 1 zone(s); last reload refused:"
                                + " gslb.yaml:7: wide-ips[0].pools: no pool 'nope'");
            } finally {
                server.close();
            }
            assertThat(next()).isEqualTo("STOPPING=1\nSTATUS=stopping");
        } finally {
            socket.close().sync();
        }
    }

    @Test
    void anAbstractSocketNameIsWrittenWithAnAt() throws Exception {
        String name = "gslb-notify-test-" + ProcessHandle.current().pid();
        Channel socket = serviceManager("\0" + name);
        try (ServiceManagerNotifier notifier = ServiceManagerNotifier.at("@" + name)) {
            notifier.status("serving 2 wide IP(s)\nREADY=1");
            assertThat(next())
                    .as("a newline in a status starts no other assignment")
                    .isEqualTo("STATUS=serving 2 wide IP(s) READY=1");
        } finally {
            socket.close().sync();
        }
    }

    @Test
    void withoutNotifySocketNothingIsSent() {
        ServiceManagerNotifier none = ServiceManagerNotifier.at(null);
        assertThat(none).isSameAs(ServiceManagerNotifier.NONE);
        none.ready("x"); // no socket, no failure
    }
}
