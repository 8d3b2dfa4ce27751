package dev.gslb.config.admin;

import dev.gslb.probe.store.StateFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The admin API's first token, {@code local} (an admin): generated at first start into the state
 * folder, mode 600, kept in clear because the gslb command on this host reads it to authenticate.
 */
public final class AdminToken {
    private final String value;

    private AdminToken(String value) {
        this.value = value;
    }

    /** The token as a client sends it. */
    public String value() {
        return value;
    }

    /** The token in {@code file}, created (256 random bits) when the file does not exist. */
    public static AdminToken loadOrCreate(Path file) throws IOException {
        if (!Files.exists(file)) {
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            StateFile.createPrivate(
                    file,
                    (Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n")
                            .getBytes(StandardCharsets.US_ASCII)); // made by another process meanwhile: that one counts
        }
        return new AdminToken(read(file));
    }

    /** What the CLI sends: the token in {@code file}, which must be private. */
    public static String read(Path file) throws IOException {
        StateFile.requirePrivate(file);
        String token = Files.readString(file, StandardCharsets.US_ASCII).strip();
        if (token.length() < 16) {
            throw new IOException(file + " does not hold an admin token (delete it and restart to make one)");
        }
        return token;
    }
}
