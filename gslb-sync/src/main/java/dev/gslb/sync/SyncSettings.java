package dev.gslb.sync;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.settings.Bounds;
import dev.gslb.settings.HostPort;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Peer sync settings (README "Peer sync" has the defaults).
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

    public SyncSettings {
        listen = List.copyOf(listen);
        advertise = List.copyOf(advertise.isEmpty() ? listen : advertise);
        if (peerItemsPerSecond < 1 || queue < 1) {
            throw new IllegalArgumentException("sync peer-items-per-second and queue must be at least 1");
        }
    }

    /** The {@code sync:} section (README "Peer sync"); an absent key keeps its default. */
    @JsonCreator
    public static SyncSettings bind(
            @JsonProperty("listen") List<HostPort> listen,
            @JsonProperty("advertise") List<HostPort> advertise,
            @JsonProperty("peers-file") Path peersFile,
            @JsonProperty("identity") Path identity,
            @JsonProperty("heartbeat") Duration heartbeat,
            @JsonProperty("dead-after") Duration deadAfter,
            @JsonProperty("path-ttl") Duration pathTtl,
            @JsonProperty("health-ttl") Duration healthTtl,
            @JsonProperty("probe-ttl") Duration probeTtl,
            @JsonProperty("queue") Integer queue,
            @JsonProperty("join-token-ttl") Duration joinTokenTtl,
            @JsonProperty("handshake-timeout") Duration handshakeTimeout,
            @JsonProperty("max-connections") Integer maxConnections,
            @JsonProperty("max-handshakes") Integer maxHandshakes,
            @JsonProperty("max-handshakes-per-source") Integer maxHandshakesPerSource,
            @JsonProperty("peer-handshakes") Integer peerHandshakes,
            @JsonProperty("max-clock-skew") Duration maxClockSkew,
            @JsonProperty("peer-items-per-second") Integer peerItemsPerSecond,
            @JacksonInject Path folder) {
        SyncSettings d = defaults(folder);
        Path peers = requireNonNullElse(peersFile, d.peersFile());
        Duration beat = requireNonNullElse(heartbeat, d.heartbeat());
        Duration dead = requireNonNullElse(deadAfter, d.deadAfter());
        if (dead.compareTo(beat.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("sync dead-after must be at least twice the heartbeat");
        }
        return new SyncSettings(
                listen == null ? d.listen() : withPorts(listen),
                advertise == null ? List.of() : withPorts(advertise),
                peers,
                identity == null ? identityBeside(peers) : identity,
                beat,
                dead,
                requireNonNullElse(pathTtl, d.pathTtl()),
                requireNonNullElse(healthTtl, d.healthTtl()),
                requireNonNullElse(probeTtl, d.probeTtl()),
                Bounds.within("queue", requireNonNullElse(queue, d.queue()), 1, 10_000_000),
                requireNonNullElse(joinTokenTtl, d.joinTokenTtl()),
                requireNonNullElse(handshakeTimeout, d.handshakeTimeout()),
                new SyncPortLimits(
                        requireNonNullElse(maxConnections, d.limits().maxConnections()),
                        requireNonNullElse(maxHandshakes, d.limits().maxHandshakes()),
                        requireNonNullElse(maxHandshakesPerSource, d.limits().maxHandshakesPerSource()),
                        requireNonNullElse(peerHandshakes, d.limits().peerHandshakes())),
                requireNonNullElse(maxClockSkew, d.maxClockSkew()),
                Bounds.within(
                        "peer-items-per-second",
                        requireNonNullElse(peerItemsPerSecond, d.peerItemsPerSecond()),
                        1,
                        100_000_000));
    }

    /** The defaults: loopback, the peers file in {@code folder/var}, paths with the proximity table's TTL. */
    public static SyncSettings defaults(Path folder) {
        return of(
                List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), DEFAULT_PORT)),
                folder.resolve("var/peers"),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                ProximitySettings.DEFAULTS.pathTtl());
    }

    private static List<InetSocketAddress> withPorts(List<HostPort> addresses) {
        return addresses.stream().map(a -> a.orPort(DEFAULT_PORT)).toList();
    }

    /** The defaults, listening on {@code listen}, keeping peers and identity beside {@code peersFile}. */
    public static SyncSettings of(
            List<InetSocketAddress> listen, Path peersFile, Duration heartbeat, Duration deadAfter, Duration pathTtl) {
        return new SyncSettings(
                listen,
                List.of(),
                peersFile,
                identityBeside(peersFile),
                heartbeat,
                deadAfter,
                pathTtl,
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                100_000,
                Duration.ofMinutes(15),
                Duration.ofSeconds(5),
                SyncPortLimits.DEFAULTS,
                Duration.ofSeconds(10),
                200_000);
    }

    /** The same settings sending paths with another TTL. */
    public SyncSettings withPathTtl(Duration ttl) {
        return with(listen, advertise, peersFile, identityFile, ttl);
    }

    /** The same settings listening (and advertising) elsewhere. */
    public SyncSettings listeningOn(List<InetSocketAddress> addresses) {
        return with(addresses, List.of(), peersFile, identityFile, pathTtl);
    }

    /** The same settings keeping the peers (and the identity beside them) in another folder. */
    public SyncSettings withPeersFile(Path file) {
        return with(listen, advertise, file, identityBeside(file), pathTtl);
    }

    /** Where the identity is kept unless the config says otherwise: beside the peers file. */
    private static Path identityBeside(Path peersFile) {
        return peersFile.resolveSibling("sync-identity.pem");
    }

    /** The one copy the overrides above make: where it listens, where its state is, the path TTL. */
    private SyncSettings with(
            List<InetSocketAddress> listen,
            List<InetSocketAddress> advertise,
            Path peersFile,
            Path identityFile,
            Duration pathTtl) {
        return new SyncSettings(
                listen,
                advertise,
                peersFile,
                identityFile,
                heartbeat,
                deadAfter,
                pathTtl,
                healthTtl,
                probeTtl,
                queue,
                joinTokenTtl,
                handshakeTimeout,
                limits,
                maxClockSkew,
                peerItemsPerSecond);
    }
}
