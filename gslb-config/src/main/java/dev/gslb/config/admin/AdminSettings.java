package dev.gslb.config.admin;

import dev.gslb.settings.ByteSize;
import dev.gslb.settings.HostPort;
import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * Who may use the admin API (docs/admin-api.md "Who may call it").
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
 * @param audit          where the audit log is written, and how much of it is kept
 */
public record AdminSettings(
        InetSocketAddress listen,
        Path tokenFile,
        List<String> allowedHosts,
        List<String> allowedOrigins,
        List<String> openPaths,
        int maxBody,
        boolean statusPage,
        AdminLimits limits,
        AuditSettings audit) {
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

    public static final Setting<InetSocketAddress> LISTEN = Setting.of(
                    "listen",
                    HostPort.class,
                    HostPort.parse("127.0.0.1:" + DEFAULT_PORT),
                    "admin HTTP API; keep it on loopback")
            .map(h -> h.orPort(DEFAULT_PORT), new InetSocketAddress(InetAddress.getLoopbackAddress(), DEFAULT_PORT));
    public static final Setting<Path> TOKEN_FILE = Setting.optionalPath(
            "token-file",
            "var/admin.token",
            "none",
            "bearer token, made at first start, mode 600; none only on loopback");
    public static final Setting<List<String>> ALLOWED_HOSTS = Setting.list(
            "allowed-hosts", String.class, List.of(), "Host names accepted besides the listen address and localhost");
    public static final Setting<List<String>> ALLOWED_ORIGINS =
            Setting.list("allowed-origins", String.class, List.of(), "browser origins accepted");
    public static final Setting<List<String>> OPEN_PATHS = Setting.list(
            "open-paths", String.class, DEFAULT_OPEN_PATHS, "GET paths readable without the token (Prometheus)");
    public static final Setting<Integer> MAX_BODY = Setting.of(
                    "max-body", ByteSize.class, new ByteSize(DEFAULT_MAX_BODY), "larger uploads get 413")
            .map(ByteSize::cappedInt, DEFAULT_MAX_BODY);
    public static final Setting<Boolean> STATUS_PAGE =
            Setting.of("status-page", Boolean.class, true, "GET / and /status/... need no token; false: they do");

    public static final SettingsTable<AdminSettings> SETTINGS = SettingsTable.of(
            AdminSettings.class,
            LISTEN,
            TOKEN_FILE,
            ALLOWED_HOSTS,
            ALLOWED_ORIGINS,
            OPEN_PATHS,
            MAX_BODY,
            STATUS_PAGE,
            AdminLimits.SETTINGS,
            AuditSettings.SETTINGS);

    public static final Section<AdminSettings> SECTION = Section.of("admin", SETTINGS);

    /** The defaults: loopback, the token in {@code folder/var/admin.token}. */
    public static AdminSettings defaults(Path folder) {
        return SETTINGS.defaults(folder);
    }

    /** The defaults on {@code listen}, the token in {@code tokenFile}. */
    public static AdminSettings of(InetSocketAddress listen, Path tokenFile) {
        return SETTINGS.change(SETTINGS.defaults())
                .set(LISTEN, listen)
                .set(TOKEN_FILE, tokenFile)
                .build();
    }

    public AdminSettings withListen(InetSocketAddress address) {
        return SETTINGS.with(this, LISTEN, address);
    }

    public AdminSettings withTokenFile(Path file) {
        return SETTINGS.with(this, TOKEN_FILE, file);
    }

    public AdminSettings withLimits(AdminLimits l) {
        return new AdminSettings(
                listen, tokenFile, allowedHosts, allowedOrigins, openPaths, maxBody, statusPage, l, audit);
    }

    public AdminSettings withAudit(AuditSettings a) {
        return new AdminSettings(
                listen, tokenFile, allowedHosts, allowedOrigins, openPaths, maxBody, statusPage, limits, a);
    }

    /** The same with the token (unless turned off), the named tokens and the audit log in {@code dir}. */
    public AdminSettings inStateDir(Path dir) {
        AdminSettings moved = tokenFile == null ? this : withTokenFile(dir.resolve("admin.token"));
        return moved.withAudit(audit.in(dir));
    }

    /** The named tokens (`gslb token add`), beside the token file; null when no token is asked. */
    public Path tokensFile() {
        return tokenFile == null ? null : tokenFile.resolveSibling("admin.tokens");
    }
}
