package dev.gslb.config.admin;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.settings.ByteSize;
import dev.gslb.settings.HostPort;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Who may use the admin API (README "The admin API").
 *
 * @param listen         where it listens (loopback by default)
 * @param tokenFile      the bearer token every request but the open paths needs; generated at first
 *                       start (mode 600); null only on loopback (no token asked)
 * @param allowedHosts   Host names accepted besides the listen address and localhost (DNS rebinding)
 * @param allowedOrigins browser origins accepted; a request with any other Origin gets 403
 * @param openPaths      GET paths readable without the token (Prometheus scrapes /metrics)
 * @param maxBody        uploads (topology lists, BIND views, LDNS dumps) beyond this many bytes get
 *                       413; a route that takes a JSON command takes at most {@link #MAX_COMMAND},
 *                       one that takes no body none
 * @param statusPage     the status page ({@code /} and {@code /status/...}, read-only) is readable
 *                       without the token; false: the page asks for it
 * @param limits         connections, requests and read times
 */
public record AdminSettings(
        InetSocketAddress listen,
        Path tokenFile,
        List<String> allowedHosts,
        List<String> allowedOrigins,
        List<String> openPaths,
        int maxBody,
        boolean statusPage,
        AdminLimits limits) {
    public static final int DEFAULT_PORT = 8053;
    /** The largest JSON command (pair, join): a few hundred bytes in practice. */
    public static final int MAX_COMMAND = 64 << 10;

    public static final List<String> DEFAULT_OPEN_PATHS = List.of("/health", "/metrics");
    public static final int DEFAULT_MAX_BODY = 16 << 20; // a whole ISP CIDR list fits

    public AdminSettings {
        allowedHosts = List.copyOf(allowedHosts);
        allowedOrigins = List.copyOf(allowedOrigins);
        openPaths = List.copyOf(openPaths);
        if (tokenFile == null && !listen.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException(
                    "the admin API listens on " + listen.getAddress().getHostAddress()
                            + " without a token file: set admin.token-file, or listen on loopback");
        }
    }

    /** The {@code admin:} section; an absent key keeps its default, {@code token-file: none} asks no token. */
    @JsonCreator
    public static AdminSettings bind(
            @JsonProperty("listen") HostPort listen,
            @JsonProperty("token-file") String tokenFile,
            @JsonProperty("allowed-hosts") List<String> allowedHosts,
            @JsonProperty("allowed-origins") List<String> allowedOrigins,
            @JsonProperty("open-paths") List<String> openPaths,
            @JsonProperty("max-body") ByteSize maxBody,
            @JsonProperty("status-page") Boolean statusPage,
            @JsonProperty("max-connections") Integer maxConnections,
            @JsonProperty("max-connections-per-source") Integer maxConnectionsPerSource,
            @JsonProperty("max-requests") Integer maxRequests,
            @JsonProperty("max-requests-per-source") Integer maxRequestsPerSource,
            @JsonProperty("header-timeout") Duration headerTimeout,
            @JsonProperty("body-timeout") Duration bodyTimeout,
            @JacksonInject Path folder) {
        AdminSettings d = defaults(folder);
        AdminLimits l = AdminLimits.DEFAULTS;
        return new AdminSettings(
                listen == null ? d.listen() : listen.orPort(DEFAULT_PORT),
                tokenFile == null ? d.tokenFile() : tokenFile.equals("none") ? null : folder.resolve(tokenFile),
                requireNonNullElse(allowedHosts, d.allowedHosts()),
                requireNonNullElse(allowedOrigins, d.allowedOrigins()),
                requireNonNullElse(openPaths, d.openPaths()),
                maxBody == null ? d.maxBody() : maxBody.cappedInt(),
                statusPage == null || statusPage,
                new AdminLimits(
                        requireNonNullElse(maxConnections, l.maxConnections()),
                        requireNonNullElse(maxConnectionsPerSource, l.maxConnectionsPerSource()),
                        requireNonNullElse(maxRequests, l.maxRequests()),
                        requireNonNullElse(maxRequestsPerSource, l.maxRequestsPerSource()),
                        requireNonNullElse(headerTimeout, l.headerTimeout()),
                        requireNonNullElse(bodyTimeout, l.bodyTimeout())));
    }

    /** The defaults: loopback, the token in {@code folder/var/admin.token}. */
    public static AdminSettings defaults(Path folder) {
        return of(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), DEFAULT_PORT),
                folder.resolve("var/admin.token"));
    }

    /** The defaults on {@code listen}, the token in {@code tokenFile}. */
    public static AdminSettings of(InetSocketAddress listen, Path tokenFile) {
        return new AdminSettings(
                listen,
                tokenFile,
                List.of(),
                List.of(),
                DEFAULT_OPEN_PATHS,
                DEFAULT_MAX_BODY,
                true,
                AdminLimits.DEFAULTS);
    }

    public AdminSettings withListen(InetSocketAddress address) {
        return new AdminSettings(
                address, tokenFile, allowedHosts, allowedOrigins, openPaths, maxBody, statusPage, limits);
    }

    public AdminSettings withTokenFile(Path file) {
        return new AdminSettings(listen, file, allowedHosts, allowedOrigins, openPaths, maxBody, statusPage, limits);
    }

    public AdminSettings withLimits(AdminLimits l) {
        return new AdminSettings(listen, tokenFile, allowedHosts, allowedOrigins, openPaths, maxBody, statusPage, l);
    }
}
