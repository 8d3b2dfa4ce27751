package dev.gslb.server.access;

import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.TokenAdded;
import dev.gslb.api.TokenInfo;
import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.probe.store.StateFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The tokens that let a caller in, each with a name and a {@link Role}. {@code local} is the admin
 * token of admin.token, which the gslb command on this host reads: it stays in clear there, as it
 * always was. The named ones (`gslb token add`) are kept only as the SHA-256 of their 256 random
 * bits, in admin.tokens beside it (mode 600, rewritten whole and atomically, at most
 * {@link #MAX_NAMED}). Per instance, as F5's users are per device: nothing here goes to a peer.
 */
public final class Tokens {
    public static final String LOCAL = "local";
    public static final int MAX_NAMED = 100;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");
    private static final String BEARER = "Bearer ";

    /** One token as admin.tokens keeps it: its hash, never its value. */
    record Stored(String name, Role role, String sha256, String created) {}

    /** A token in service: what is stored, and its hash as bytes to compare. */
    private record Known(Stored stored, byte[] hash) {
        Known(Stored stored) {
            this(stored, HexFormat.of().parseHex(stored.sha256()));
        }

        String name() {
            return stored.name();
        }
    }

    /** admin.tokens. */
    record StoredTokens(List<Stored> tokens) {}

    private final Path file;
    private final Known local;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    /** Swapped whole under this object's lock; read without it. */
    private volatile List<Known> named;
    /** Since start only: writing it down on every request would cost a file write each. */
    private final Map<String, Instant> lastUsed = new ConcurrentHashMap<>();

    private Tokens(Path file, Stored local, List<Stored> named, Clock clock) {
        this.file = file;
        this.local = local == null ? null : new Known(local);
        this.named = named.stream().map(Known::new).toList();
        this.clock = clock;
    }

    /**
     * The tokens of {@code settings}: admin.token (made at first start) as {@code local} and the
     * named ones beside it; none checked at all when no token file is configured.
     */
    public static Tokens open(AdminSettings settings, Clock clock) throws IOException {
        Path tokenFile = settings.tokenFile();
        if (tokenFile == null) {
            return new Tokens(null, null, List.of(), clock);
        }
        String clear = AdminToken.loadOrCreate(tokenFile).value();
        String created = Files.getLastModifiedTime(tokenFile)
                .toInstant()
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        Stored local = new Stored(LOCAL, Role.ADMIN, sha256(clear), created);
        Path file = settings.tokensFile();
        List<Stored> named = List.of();
        if (Files.exists(file)) {
            StateFile.requirePrivate(file);
            named = read(file);
        }
        return new Tokens(file, local, named, clock);
    }

    private static List<Stored> read(Path file) throws IOException {
        try {
            StoredTokens stored = Json.MAPPER.readValue(file.toFile(), StoredTokens.class);
            List<Stored> tokens = stored.tokens() == null ? List.of() : stored.tokens();
            for (Stored s : tokens) {
                if (s.name() == null
                        || s.role() == null
                        || s.sha256() == null
                        || s.sha256().length() != 64) {
                    throw new IOException("an entry without a name, a role or a SHA-256: " + s.name());
                }
                HexFormat.of().parseHex(s.sha256()); // else refused here rather than at a request
            }
            return tokens;
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException(file + " is not a token file (" + e.getMessage()
                    + "); fix or delete it: the tokens in it are then gone");
        }
    }

    /** False when no token file is configured: every caller is {@link Caller#UNCHECKED}. */
    public boolean checked() {
        return local != null;
    }

    /**
     * Who the Authorization header's bearer token belongs to, or null when it is missing or no
     * token's. Its hash is compared with every token's in constant time.
     */
    public Caller admit(String authorization) {
        if (!checked()) {
            return Caller.UNCHECKED;
        }
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        byte[] shown = digest(authorization.substring(BEARER.length()).strip());
        Known match = MessageDigest.isEqual(shown, local.hash()) ? local : null;
        for (Known k : named) { // all of them, whether one matched or not
            if (MessageDigest.isEqual(shown, k.hash())) {
                match = k;
            }
        }
        if (match == null) {
            return null;
        }
        lastUsed.put(match.name(), clock.instant());
        return new Caller(match.name(), match.stored().role());
    }

    /** A new token: its value is in the answer and nowhere else. */
    public synchronized TokenAdded add(String name, Role role) throws IOException {
        if (!checked()) {
            throw new IllegalStateException("this server asks no token (admin.token-file: none)");
        }
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a token's name is 1 to 64 letters, digits, '.', '_', '@' or '-',"
                    + " starting with a letter or digit: not '" + name + "'");
        }
        if (role == null) {
            throw new IllegalArgumentException("give the token's role: viewer, operator or admin");
        }
        if (role(name) != null) {
            throw new IllegalStateException("a token named " + name + " exists; remove it first");
        }
        if (named.size() >= MAX_NAMED) {
            throw new IllegalStateException(
                    "this server holds " + MAX_NAMED + " named tokens, the most it keeps; remove one first");
        }
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String token = "gslb_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        String created = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        List<Stored> next = new ArrayList<>(stored());
        next.add(new Stored(name, role, sha256(token), created));
        save(next);
        return new TokenAdded(name, role, token, created);
    }

    /** Removes the named token; false when there is none of that name. */
    public synchronized boolean remove(String name) throws IOException {
        if (!checked()) {
            throw new IllegalStateException("this server asks no token (admin.token-file: none)");
        }
        if (LOCAL.equals(name)) {
            throw new IllegalArgumentException("local is the token in " + file.resolveSibling("admin.token")
                    + ", which the gslb command on this host reads: to replace it, delete that file and restart");
        }
        List<Stored> next =
                stored().stream().filter(s -> !s.name().equals(name)).toList();
        if (next.size() == named.size()) {
            return false;
        }
        save(next);
        lastUsed.remove(name);
        return true;
    }

    /** The role of the token named {@code name}, or null when there is none. */
    public Role role(String name) {
        return list().stream()
                .filter(t -> t.name().equals(name))
                .map(TokenInfo::role)
                .findFirst()
                .orElse(null);
    }

    /** Every token, {@code local} first, without its value. */
    public List<TokenInfo> list() {
        List<TokenInfo> out = new ArrayList<>();
        if (local != null) {
            out.add(info(local.stored()));
        }
        named.forEach(k -> out.add(info(k.stored())));
        return out;
    }

    private List<Stored> stored() {
        return named.stream().map(Known::stored).toList();
    }

    private TokenInfo info(Stored s) {
        Instant used = lastUsed.get(s.name());
        return new TokenInfo(s.name(), s.role(), s.created(), used == null ? null : used.toString());
    }

    /** Writes the file first: a token is in service only once it is on disk, and gone only once it is not. */
    private void save(List<Stored> next) throws IOException {
        StateFile.writePrivate(file, Json.write(new StoredTokens(next)).getBytes(StandardCharsets.UTF_8));
        named = next.stream().map(Known::new).toList();
    }

    private static String sha256(String token) {
        return HexFormat.of().formatHex(digest(token));
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
