package dev.gslb.sync;

import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.settings.HostPort;
import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Peer sync settings (docs/configuration.md "sync:" has the defaults).
 *
 * @param listen           where peers connect to this instance
 * @param advertise        the addresses peers should use, one per ISP link, in preference order
 * @param peersFile        the paired peers and their pinned certificates (mode 600)
 * @param identityFile     this instance's key pair and self-signed certificate (mode 600), made at first start
 * @param heartbeat        how often each side shows it is alive
 * @param deadAfter        a connection silent this long is dropped and redialled
 * @param pathTtl          TTL sent with path updates
 * @param healthTtl        TTL sent with health views (they are re-sent every heartbeat)
 * @param probeTtl         TTL of a probe request
 * @param queue            per-peer queue of items waiting to be sent; overflow is dropped and healed by a snapshot
 * @param joinTokenTtl     how long a token printed by `gslb peer pair` may be used (once)
 * @param handshakeTimeout a connection not authenticated (TLS and hello) within this is closed
 * @param limits           the connections the sync port holds, in all and before authentication
 * @param maxClockSkew     a peer's measurement time further ahead than this is clamped to now
 * @param peerItemsPerSecond items a peer may send a second (burst twice that); more are dropped and counted
 */
public record SyncSettings(
        List<InetSocketAddress> listen,
        List<InetSocketAddress> advertise,
        Path peersFile,
        Path identityFile,
        Duration heartbeat,
        Duration deadAfter,
        Duration pathTtl,
        Duration healthTtl,
        Duration probeTtl,
        int queue,
        Duration joinTokenTtl,
        Duration handshakeTimeout,
        SyncPortLimits limits,
        Duration maxClockSkew,
        int peerItemsPerSecond) {
    /** The port of a sync address written without one, and of the default listen address. */
    public static final int DEFAULT_PORT = 8054;

    /** Advertised: the listen addresses, the identity beside the peers file, paths the proximity table's TTL, unless given. */
    public SyncSettings {
        listen = List.copyOf(listen);
        advertise = List.copyOf(advertise == null || advertise.isEmpty() ? listen : advertise);
        identityFile = identityFile == null ? identityBeside(peersFile) : identityFile;
        pathTtl = pathTtl == null ? ProximitySettings.DEFAULTS.pathTtl() : pathTtl;
        if (deadAfter.compareTo(heartbeat.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("sync dead-after must be at least twice the heartbeat");
        }
    }

    public static final Setting<List<InetSocketAddress>> LISTEN = Setting.list(
                    "listen",
                    HostPort.class,
                    List.of(HostPort.parse("127.0.0.1:" + DEFAULT_PORT)),
                    "one address per ISP link")
            .map(
                    SyncSettings::withPorts,
                    List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), DEFAULT_PORT)));
    public static final Setting<List<InetSocketAddress>> ADVERTISE = Setting.list(
                    "advertise", HostPort.class, List.of(), "what peers dial, in preference order")
            .map(SyncSettings::withPorts, List.<InetSocketAddress>of())
            .derived("listen");
    public static final Setting<Path> PEERS_FILE =
            Setting.path("peers-file", "var/peers", "paired peers and their pinned certificates (mode 600)");
    public static final Setting<Path> IDENTITY = Setting.path(
                    "identity", "var/sync-identity.pem", "this instance's key and certificate (mode 600)")
            .derived("beside peers-file");
    public static final Setting<Duration> HEARTBEAT =
            Setting.duration("heartbeat", Duration.ofSeconds(10), "as F5's iQuery");
    public static final Setting<Duration> DEAD_AFTER = Setting.duration(
            "dead-after",
            Duration.ofSeconds(30),
            "a silent connection is dropped and redialled (2 heartbeats or more)");
    public static final Setting<Duration> PATH_TTL = Setting.duration(
                    "path-ttl", ProximitySettings.DEFAULTS.pathTtl(), "TTL sent with paths")
            .derived("probe.path-ttl");
    public static final Setting<Duration> HEALTH_TTL =
            Setting.duration("health-ttl", Duration.ofSeconds(30), "TTL of a health view (re-sent every heartbeat)");
    public static final Setting<Duration> PROBE_TTL =
            Setting.duration("probe-ttl", Duration.ofSeconds(10), "TTL of a probe request");
    public static final Setting<Integer> QUEUE =
            Setting.integer("queue", 100_000, 1, 10_000_000, "per-peer send queue; overflow is dropped, counted");
    public static final Setting<Duration> JOIN_TOKEN_TTL =
            Setting.duration("join-token-ttl", Duration.ofMinutes(15), "a join token is usable once, this long");
    public static final Setting<Duration> HANDSHAKE_TIMEOUT = Setting.duration(
            "handshake-timeout", Duration.ofSeconds(5), "a connection not authenticated by then is closed");
    public static final Setting<Duration> MAX_CLOCK_SKEW = Setting.duration(
            "max-clock-skew", Duration.ofSeconds(10), "a peer's measurement time further ahead is clamped to now");
    public static final Setting<Integer> PEER_ITEMS_PER_SECOND = Setting.integer(
            "peer-items-per-second", 200_000, 1, 100_000_000, "per peer (burst twice that); more are dropped");

    public static final SettingsTable<SyncSettings> SETTINGS = SettingsTable.of(
            SyncSettings.class,
            LISTEN,
            ADVERTISE,
            PEERS_FILE,
            IDENTITY,
            HEARTBEAT,
            DEAD_AFTER,
            PATH_TTL,
            HEALTH_TTL,
            PROBE_TTL,
            QUEUE,
            JOIN_TOKEN_TTL,
            HANDSHAKE_TIMEOUT,
            SyncPortLimits.SETTINGS,
            MAX_CLOCK_SKEW,
            PEER_ITEMS_PER_SECOND);

    public static final Section<SyncSettings> SECTION = Section.of("sync", SETTINGS);

    private static List<InetSocketAddress> withPorts(List<HostPort> addresses) {
        return addresses.stream().map(a -> a.orPort(DEFAULT_PORT)).toList();
    }

    /** The defaults: loopback, the peers file in {@code folder/var}, paths with the proximity table's TTL. */
    public static SyncSettings defaults(Path folder) {
        return SETTINGS.defaults(folder);
    }

    /** The defaults, listening on {@code listen}, keeping peers and identity beside {@code peersFile}. */
    public static SyncSettings of(
            List<InetSocketAddress> listen, Path peersFile, Duration heartbeat, Duration deadAfter, Duration pathTtl) {
        return SETTINGS.change(defaults(Path.of("")))
                .set(LISTEN, listen)
                .set(ADVERTISE, List.of())
                .set(PEERS_FILE, peersFile)
                .set(IDENTITY, identityBeside(peersFile))
                .set(HEARTBEAT, heartbeat)
                .set(DEAD_AFTER, deadAfter)
                .set(PATH_TTL, pathTtl)
                .build();
    }

    /** The same settings sending paths with another TTL. */
    public SyncSettings withPathTtl(Duration ttl) {
        return SETTINGS.with(this, PATH_TTL, ttl);
    }

    /** The same settings listening (and advertising) elsewhere. */
    public SyncSettings listeningOn(List<InetSocketAddress> addresses) {
        return SETTINGS.change(this)
                .set(LISTEN, addresses)
                .set(ADVERTISE, List.of())
                .build();
    }

    /** The same settings keeping the peers (and the identity beside them) in another folder. */
    public SyncSettings withPeersFile(Path file) {
        return SETTINGS.change(this)
                .set(PEERS_FILE, file)
                .set(IDENTITY, identityBeside(file))
                .build();
    }

    /** Where the identity is kept unless the config says otherwise: beside the peers file. */
    private static Path identityBeside(Path peersFile) {
        return peersFile.resolveSibling("sync-identity.pem");
    }
}
