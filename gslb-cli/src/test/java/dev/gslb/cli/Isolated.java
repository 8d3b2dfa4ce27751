package dev.gslb.cli;

import dev.gslb.config.ConfigLoader;
import dev.gslb.config.GslbConfig;
import dev.gslb.server.GslbServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The embedded default on ephemeral loopback ports, with its own H2 file and peers file. */
final class Isolated {
    private Isolated() {}

    static GslbConfig embedded() throws Exception {
        System.setProperty("gslb.home", ".."); // what the ./gslb wrapper sets: the checkout
        return of(ConfigLoader.loadEmbedded(Path.of("..")));
    }

    /** A started server on the isolated embedded default. */
    static GslbServer started() throws Exception {
        GslbServer server = new GslbServer(embedded());
        server.start();
        server.proximityRead().get(30, TimeUnit.SECONDS); // its log line is not printed into a command's output
        return server;
    }

    static String adminUrl(GslbServer server) {
        return "http://" + server.admin().address();
    }

    /**
     * Also: probes loopback LDNS (the default excludes 127/8), and the in-process CLI finds this
     * server's admin token.
     */
    static GslbConfig of(GslbConfig base) throws Exception {
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        Path dir = Files.createTempDirectory("gslb");
        GslbConfig c = base.withListeners(base.dns().withAddresses(List.of(any), 1), any)
                .withStateDir(dir);
        dev.gslb.probe.schedule.Probing p = c.probing();
        c = c.withProbing(new dev.gslb.probe.schedule.Probing(
                p.probes().withExclusions(List.of()), p.proximity(), p.store(), p.flushInterval()));
        System.setProperty("gslb.token-file", c.admin().tokenFile().toString());
        return c.withSync(c.sync().listeningOn(List.of(any)));
    }

    /** The admin token of a server made by {@link #of}, as a header value. */
    static String bearer(GslbServer server) throws Exception {
        return "Bearer " + dev.gslb.config.admin.AdminToken.read(Path.of(System.getProperty("gslb.token-file")));
    }

    /** `gslb serve --config FILE` as its own Java process on this test's class path, as the launcher runs it. */
    static java.util.List<String> serveProcess(Path config) {
        return List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dgslb.home=..",
                "dev.gslb.cli.Gslb",
                "serve",
                "--config",
                config.toString());
    }
}
