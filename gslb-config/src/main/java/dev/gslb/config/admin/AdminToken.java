package dev.gslb.config.admin;

import dev.gslb.probe.store.StateFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/** The admin API's bearer token: generated at first start into the state folder, mode 600. */
public final class AdminToken {
    private final byte[] value;

    private AdminToken(String value) {
        this.value = value.getBytes(StandardCharsets.US_ASCII);
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

    /** True when the Authorization header carries this token (compared in constant time). */
    public boolean admits(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(value, authorization.substring(7).strip().getBytes(StandardCharsets.US_ASCII));
    }
}
