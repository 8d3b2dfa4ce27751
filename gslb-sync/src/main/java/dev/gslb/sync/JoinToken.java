package dev.gslb.sync;

import dev.gslb.topology.Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What `gslb peer pair` prints and `gslb peer join` reads: the offering instance (name, data
 * center, sync addresses, certificate fingerprint), a one-time secret and its expiry, as one
 * base64url line ("v2|instance|dc|addr,addr|fingerprint|secret|expires-millis").
 */
record JoinToken(Peer offerer, byte[] secret, long expiresMillis) {
    static final int SECRET_BYTES = 32;
    private static final String NOT_A_TOKEN = "not a join token (copy the whole token printed by `gslb peer pair`)";

    String encode() {
        String payload = String.join(
                "|",
                "v2",
                offerer.name(),
                offerer.dataCenter(),
                String.join(
                        ",", offerer.addresses().stream().map(Address::hostPort).toList()),
                offerer.fingerprint(),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret),
                Long.toString(expiresMillis));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads a token; every malformed one is refused with what to do (expiry is the caller's check). */
    static JoinToken parse(String token) {
        String[] f;
        try {
            f = new String(Base64.getUrlDecoder().decode(token.strip()), StandardCharsets.UTF_8).split("\\|", -1);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(NOT_A_TOKEN);
        }
        if (f.length == 5 && f[0].equals("v1")) {
            throw new IllegalArgumentException(
                    "this token is from an older gslb (shared-key sync); upgrade that instance");
        }
        if (f.length != 7 || !f[0].equals("v2")) {
            throw new IllegalArgumentException(NOT_A_TOKEN);
        }
        try {
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (String a : f[3].split(",")) {
                addresses.add(PeersFile.parse(a));
            }
            byte[] secret = Base64.getUrlDecoder().decode(f[5]);
            if (secret.length != SECRET_BYTES) {
                throw new IllegalArgumentException("the secret is not " + SECRET_BYTES + " bytes");
            }
            return new JoinToken(new Peer(f[1], f[2], addresses, f[4]), secret, Long.parseLong(f[6]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(NOT_A_TOKEN + ": " + e.getMessage());
        }
    }
}
