package dev.gslb.cli;

import dev.gslb.cli.log.LogFormat;
import dev.gslb.cli.log.LogProvider;
import dev.gslb.cli.log.LogSettings;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.GslbConfig;
import dev.gslb.dns.server.DnsServer;
import dev.gslb.dns.server.ListenerSettings;
import dev.gslb.probe.store.StateFolderLock;
import dev.gslb.server.GslbServer;
import dev.gslb.server.ServiceManagerNotifier;
import dev.gslb.settings.HostPort;
import dev.gslb.settings.SettingsException;
import dev.gslb.sync.SyncSettings;
import dev.gslb.topology.TopologyException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "serve", description = "Run the DNS server (embedded default config unless --config is given).")
final class ServeCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);
    /** EX_SOFTWARE: every DNS listener failed; systemd's Restart=on-failure starts the server again. */
    static final int EXIT_NOTHING_SERVING = 70;

    static final String TOPOLOGY_REFUSED = "gslb: the topology does not load (topology.data and topology.records):";

    @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration of a real deployment.")
    Path config;

    @Option(
            names = "--listen",
            paramLabel = "ADDR",
            description = "DNS listen address (repeatable); replaces dns.listen.")
    List<String> listen;

    @Option(
            names = "--admin",
            paramLabel = "ADDR",
            description = "Admin API address (host:port or URL); replaces admin.listen.")
    String adminListen;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Event loops (0 = one per core); replaces dns.threads.")
    Integer threads;

    @Option(
            names = "--sync",
            paramLabel = "ADDR",
            description = "Peer-sync listen address (repeatable); replaces sync.listen.")
    List<String> syncListen;

    @Option(names = "--store", paramLabel = "FILE", description = "Proximity-table H2 file; replaces probe.store only.")
    Path store;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            description = "Keep all state here: proximity table, peers, sync identity, admin token and named tokens,"
                    + " audit log (replaces probe.store, sync.peers-file, sync.identity, admin.token-file,"
                    + " admin.audit-log).")
    Path stateDir;

    @Option(
            names = "--log-level",
            paramLabel = "LEVEL",
            description = "Least severe events logged: error, warn, info, debug (adds stack traces) or trace"
                    + " (default: $GSLB_LOG_LEVEL, else info).")
    String logLevel;

    @Option(
            names = "--log-format",
            paramLabel = "FORMAT",
            description = "text, or json (a JSON object a line: time, level, logger, message)"
                    + " (default: $GSLB_LOG_FORMAT, else text).")
    String logFormat;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        // beside the configuration's reading; joined before the server is made, which uses them
        Thread natives = Thread.ofPlatform().daemon().name("link-natives").start(DnsServer::linkNatives);
        Gslb root = Gslb.root(spec); // gslb --config FILE --state-dir DIR serve
        config = config == null && root != null ? root.config : config;
        stateDir = stateDir == null && root != null ? root.stateDir : stateDir;
        GslbConfig cfg;
        try {
            LogSettings logs = LogProvider.current();
            LogProvider.use(new LogSettings(
                    logLevel == null ? logs.level() : LogSettings.level(logLevel),
                    logFormat == null ? logs.format() : LogFormat.parse(logFormat)));
            cfg = config != null ? ConfigLoader.load(config) : ConfigLoader.loadEmbedded(Gslb.home());
            cfg = withOverrides(cfg);
        } catch (SettingsException | IllegalArgumentException e) {
            System.err.println("gslb: " + e.getMessage());
            return 2;
        }
        log.info(
                "{}; configuration {}; state folder {}; heap max {} MiB",
                String.join(", ", new GslbVersion().getVersion()),
                config == null ? "embedded default" : config.toAbsolutePath(),
                cfg.stateFolder(),
                Runtime.getRuntime().maxMemory() >> 20);
        try (StateFolderLock held = StateFolderLock.take(cfg.stateFolder())) {
            natives.join();
            return serve(cfg);
        } catch (IOException e) { // the folder's lock, or a state file the server could not open
            System.err.println("gslb: " + e.getMessage());
            return 2;
        }
    }

    private int serve(GslbConfig cfg) throws Exception {
        GslbServer server;
        try {
            server = new GslbServer(cfg, ServiceManagerNotifier.fromEnvironment());
        } catch (TopologyException e) {
            System.err.println(TOPOLOGY_REFUSED + "\n" + e.getMessage());
            return 2;
        } catch (java.sql.SQLException e) {
            System.err.println("gslb: " + e.getMessage());
            return 2;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean nothingServing = new AtomicBoolean();
        server.onNothingServing(() -> {
            nothingServing.set(true);
            stopped.countDown();
        });
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            log.info("shutting down");
            server.close();
            stopped.countDown();
        }));
        Path file = config;
        server.reloadFrom(
                () -> withOverrides(file != null ? ConfigLoader.load(file) : ConfigLoader.loadEmbedded(Gslb.home())));
        reloadOnHangup(server);
        try {
            server.start();
        } catch (IllegalStateException e) { // a port another process holds
            System.err.println("gslb: " + e.getMessage());
            return 1;
        }
        log.info(
                "serving {} zone(s), {} wide IP(s) as instance {} in data center {}",
                cfg.zones().size(),
                cfg.wideIps().size(),
                cfg.instance().name(),
                cfg.instance().dataCenter());
        stopped.await();
        if (nothingServing.get()) {
            System.err.println("gslb: no DNS listener is left serving (see the log); exiting so the service restarts");
            return EXIT_NOTHING_SERVING;
        }
        return 0;
    }

    /** SIGHUP reloads, as operators of BIND, NSD and gdnsd expect. */
    @SuppressWarnings("restriction")
    private static void reloadOnHangup(GslbServer server) {
        try {
            sun.misc.Signal.handle(
                    new sun.misc.Signal("HUP"),
                    sig -> Thread.ofVirtual().start(() -> {
                        try {
                            server.reload();
                        } catch (SettingsException | IllegalArgumentException e) {
                            log.warn(
                                    "SIGHUP: configuration reload refused; the previous one stays in service: {}",
                                    String.join(
                                            "; ",
                                            String.valueOf(e.getMessage())
                                                    .lines()
                                                    .toList()));
                        }
                    }));
        } catch (IllegalArgumentException e) {
            log.debug("SIGHUP is not available here: {}", e.toString());
        }
    }

    private GslbConfig withOverrides(GslbConfig c) {
        ListenerSettings dns = c.dns();
        if (listen != null || threads != null) {
            List<InetSocketAddress> addresses = listen == null
                    ? dns.addresses()
                    : listen.stream()
                            .map(a -> HostPort.parse(a, ListenerSettings.DEFAULT_PORT))
                            .toList();
            dns = dns.withAddresses(addresses, threads == null ? dns.threads() : threads);
        }
        InetSocketAddress admin = adminListen == null ? c.admin().listen() : AdminOption.listenAddress(adminListen);
        GslbConfig out = c.withListeners(dns, admin);
        if (stateDir != null) {
            out = out.withStateDir(stateDir.toAbsolutePath());
        }
        if (store != null) {
            out = out.withStore(store.toAbsolutePath());
        }
        if (syncListen != null) {
            out = out.withSync(out.sync()
                    .listeningOn(syncListen.stream()
                            .map(a -> HostPort.parse(a, SyncSettings.DEFAULT_PORT))
                            .toList()));
        }
        return out;
    }
}
