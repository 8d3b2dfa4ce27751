package dev.gslb.sync;

import dev.gslb.topology.Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What `gslb peer pair` prints and `gslb peer join` reads: the offering instance (name, data
 * center, sync addresses, certificate fingerprint), a one-time secret, its expiry and the terms of
 * the offer, as one base64url line
 * ("v3|instance|dc|addr,addr|fingerprint|secret|expires-millis|for-dc|shared", for-dc empty for
 * any, shared 1 or 0). The terms are in the token so the joining side can refuse early; the
 * offering side checks its own copy, never the token's.
 */
record JoinToken(Peer offerer, byte[] secret, long expiresMillis, JoinTerms terms) {
    static final int SECRET_BYTES = 32;
    private static final String NOT_A_TOKEN = "not a join token (copy the whole token printed by `gslb peer pair`)";

    String encode() {
        String payload = String.join(
                "|",
                "v3",
                offerer.name(),
                offerer.dataCenter(),
                String.join(
                        ",", offerer.addresses().stream().map(Address::hostPort).toList()),
                offerer.fingerprint(),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret),
                Long.toString(expiresMillis),
                terms.dataCenter() == null ? "" : terms.dataCenter(),
                terms.sharedDataCenter() ? "1" : "0");
        return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    }

    /** Refuses an address no peer can dial (a wildcard); the warnings for one only this host can (loopback). */
    static List<String> checkAddresses(List<InetSocketAddress> addresses) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no sync address to advertise: set sync.listen and sync.advertise");
        }
        List<String> warnings = new ArrayList<>();
        for (InetSocketAddress a : addresses) {
            if (a.getAddress().isAnyLocalAddress()) {
                throw new IllegalArgumentException(
                        "sync listens on " + Address.hostPort(a) + ", which no peer can dial: "
                                + "set sync.advertise to this instance's address on each ISP link, or pass --advertise ADDR");
            }
            if (a.getAddress().isLoopbackAddress()) {
                warnings.add(
                        Address.hostPort(a) + " is a loopback address: only an instance on this same host can use it"
                                + " (set sync.advertise or --advertise for another host)");
            }
        }
        return warnings;
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
        if (f.length == 7 && f[0].equals("v2")) {
            throw new IllegalArgumentException("this token is from an older gslb (join token v2, which names no data"
                    + " center rules); upgrade " + f[1] + " and run `gslb peer pair` there again");
        }
        if (f.length != 9 || !f[0].equals("v3") || !(f[8].equals("0") || f[8].equals("1"))) {
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
            return new JoinToken(
                    new Peer(f[1], f[2], addresses, f[4]),
                    secret,
                    Long.parseLong(f[6]),
                    new JoinTerms(f[7].isEmpty() ? null : f[7], f[8].equals("1")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(NOT_A_TOKEN + ": " + e.getMessage());
        }
    }
}
