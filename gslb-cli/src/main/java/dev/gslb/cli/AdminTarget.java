package dev.gslb.cli;

import dev.gslb.config.admin.AdminSettings;
import dev.gslb.probe.store.StateFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The admin API a command talks to and the token it sends, each with where it came from, so that
 * every refusal can say what to change. An option beats a variable, which beats the configuration
 * (of which only the admin keys are read). The address: {@code --admin}, {@code $GSLB_ADMIN},
 * {@code admin.listen}, else 127.0.0.1:8053. The token: {@code --token-file}, {@code admin.token} in
 * {@code --state-dir} (as given to {@code serve --state-dir}), {@code $GSLB_TOKEN_FILE},
 * {@code $GSLB_STATE_DIR}/admin.token, {@code admin.token-file} (by default {@code var/admin.token}
 * beside the configuration), else var/admin.token of this installation.
 *
 * @param url       http://host:port
 * @param urlFrom   where the address came from ("--admin", "admin.listen in FILE"...)
 * @param tokenFile the token's file, or null when the configuration asks for none
 * @param tokenFrom where the token's file came from
 * @param explicit  the file was named by the operator (an option or variable): it must exist
 */
record AdminTarget(String url, String urlFrom, Path tokenFile, String tokenFrom, boolean explicit) {
    static final String ADDRESS_SOURCES = "--admin, $GSLB_ADMIN, or admin.listen of the configuration";

    /** A client with the token read, or none when the file does not exist and nobody named it. */
    AdminClient client() throws IOException {
        return new AdminClient(this, token());
    }

    private String token() throws IOException {
        if (tokenFile == null) {
            return null;
        }
        String token;
        try {
            StateFile.requirePrivate(tokenFile);
            token = Files.readString(tokenFile, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            if (!explicit) {
                return null; // the server may ask for none (token-file: none on loopback); a 401 says what to do
            }
            throw new IOException(tokenFile + " (" + tokenFrom + ") does not exist: the admin API needs the server's"
                    + " token; pass --token-file FILE with the server's admin.token or a token of `gslb token add`");
        } catch (AccessDeniedException e) {
            throw new IOException("cannot read " + tokenFile + " (" + tokenFrom + "): permission denied. It holds"
                    + " the server's admin token, which every command but `gslb serve` sends; run as the gslb user"
                    + " or root (sudo gslb ...), or pass --token-file FILE with a token of `gslb token add`");
        }
        if (token.length() < 16 || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            throw new IOException(tokenFile + " (" + tokenFrom + ") does not hold an admin token (one line of at"
                    + " least 16 characters, as the server writes admin.token or `gslb token add` prints);"
                    + " pass --token-file with the right file");
        }
        return token;
    }

    /** What a 401 means for this target: which token went, from where, and what to do. */
    String refusedToken(boolean sent) {
        if (!sent) {
            return "the admin API at " + url + " (" + urlFrom + ") asks for a token and none was sent: "
                    + (tokenFile == null
                            ? "the configuration says token-file: none, but this server wants one"
                            : tokenFile + " (" + tokenFrom + ") does not exist")
                    + ". Give the token of the server that listens there: --token-file FILE, or --state-dir DIR"
                    + " as given to `gslb serve --state-dir`, or --config FILE as given to `gslb serve --config`";
        }
        return "the admin API at " + url + " (" + urlFrom + ") refused the token in " + tokenFile + " (" + tokenFrom
                + "): it is not a token of that server, or it was removed. If that server runs with another"
                + " --state-dir or configuration, pass the same --state-dir DIR or --config FILE here; or pass"
                + " --token-file FILE with a token of `gslb token add`";
    }

    /**
     * Resolves the target from the options given ({@code null}: not given), the environment and
     * the configuration file, of which only the admin keys are read.
     */
    static AdminTarget resolve(String admin, Path tokenFile, Path stateDir, ConfigLocation config) throws IOException {
        String url;
        String urlFrom;
        ConfigLocation.AdminKeys keys = null;
        if (admin != null) {
            url = AdminOption.baseUrl(admin);
            urlFrom = "--admin";
        } else if (env("GSLB_ADMIN") != null) {
            url = AdminOption.baseUrl(env("GSLB_ADMIN"));
            urlFrom = "$GSLB_ADMIN";
        } else if (config.file() != null && (keys = config.adminKeys()).listen() != null) {
            url = AdminOption.baseUrl(keys.listen());
            urlFrom = "admin.listen of " + config.file() + config.because();
        } else {
            url = AdminOption.baseUrl("127.0.0.1:" + AdminSettings.DEFAULT_PORT);
            urlFrom = config.file() == null ? "the default" : "the default: " + config.file() + " sets no admin.listen";
        }
        url = url.replace("//0.0.0.0:", "//127.0.0.1:")
                .replace("//[::]:", "//[::1]:"); // listening on all: ask loopback

        if (tokenFile != null) {
            return new AdminTarget(url, urlFrom, tokenFile, "--token-file", true);
        }
        if (stateDir != null) {
            return new AdminTarget(url, urlFrom, stateDir.resolve("admin.token"), "in --state-dir", false);
        }
        if (env("GSLB_TOKEN_FILE") != null) {
            return new AdminTarget(url, urlFrom, Path.of(env("GSLB_TOKEN_FILE")), "$GSLB_TOKEN_FILE", true);
        }
        if (System.getProperty("gslb.token-file") != null) { // an embedding (tests) says where
            return new AdminTarget(
                    url, urlFrom, Path.of(System.getProperty("gslb.token-file")), "gslb.token-file", true);
        }
        if (env("GSLB_STATE_DIR") != null) {
            return new AdminTarget(
                    url, urlFrom, Path.of(env("GSLB_STATE_DIR"), "admin.token"), "in $GSLB_STATE_DIR", false);
        }
        if (config.file() != null) {
            keys = keys != null ? keys : config.adminKeys();
            if (keys.noToken()) {
                return new AdminTarget(url, urlFrom, null, "admin.token-file: none in " + config.file(), false);
            }
            return new AdminTarget(
                    url,
                    urlFrom,
                    keys.tokenFile(),
                    (keys.tokenFileSet() ? "admin.token-file in " : "the state folder of ") + config.file(),
                    false);
        }
        Path local = Gslb.home().resolve("var/admin.token");
        return new AdminTarget(url, urlFrom, local, "the state folder of this installation, var/", false);
    }

    /** A variable: a system property of that name first (as picocli's ${NAME}), then the environment. */
    static String env(String name) {
        String v = System.getProperty(name, System.getenv(name));
        return v == null || v.isBlank() ? null : v;
    }
}
