package dev.gslb.dns.tsig;

import java.util.Locale;
import java.util.Map;
import org.xbill.DNS.Name;
import org.xbill.DNS.TSIG;

/**
 * A shared secret for TSIG (RFC 8945), named as every peer names it. Its secret never leaves this
 * record: {@link #toString()} shows the name and algorithm only, so a key logged by mistake shows
 * no secret.
 *
 * @param name      the key's name, as in the TSIG record ({@code transfer-key.})
 * @param algorithm hmac-sha256 (the default), hmac-sha512 or hmac-sha1, as an algorithm name
 */
public record TsigKey(Name name, Name algorithm, byte[] secret) {
    public static final String DEFAULT_ALGORITHM = "hmac-sha256";

    /** The algorithms accepted: RFC 8945 6's mandatory and recommended ones, and SHA-1 for old peers. */
    private static final Map<String, Name> ALGORITHMS = Map.of(
            "hmac-sha256", TSIG.HMAC_SHA256,
            "hmac-sha512", TSIG.HMAC_SHA512,
            "hmac-sha1", TSIG.HMAC_SHA1);

    /** Bytes a secret must have at least: RFC 8945 6 asks for as many as the MAC, half of it is the floor we hold to. */
    static final int MIN_SECRET = 16;

    public TsigKey {
        if (!name.isAbsolute()) {
            throw new IllegalArgumentException("TSIG key name must be absolute: " + name);
        }
        if (!ALGORITHMS.containsValue(algorithm)) {
            throw new IllegalArgumentException("TSIG algorithm " + algorithm + " is not one of " + ALGORITHMS.keySet());
        }
        if (secret.length < MIN_SECRET) {
            throw new IllegalArgumentException("TSIG key " + name + ": the secret has " + secret.length
                    + " bytes; at least " + MIN_SECRET + " are needed (e.g. `openssl rand -base64 32`)");
        }
        secret = secret.clone();
    }

    /** The algorithm as written in a configuration ({@code hmac-sha256}), or an error naming those accepted. */
    public static Name algorithm(String text) {
        Name a = ALGORITHMS.get(text.toLowerCase(Locale.ROOT));
        if (a == null) {
            throw new IllegalArgumentException("TSIG algorithm must be one of "
                    + ALGORITHMS.keySet().stream().sorted().toList() + ", not '" + text + "'");
        }
        return a;
    }

    /** A signer and verifier with this key (dnsjava's; a new one each time, as its MAC is not shared). */
    public TSIG tsig() {
        return new TSIG(algorithm, name, secret);
    }

    @Override
    public byte[] secret() {
        return secret.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TsigKey k
                && k.name.equals(name)
                && k.algorithm.equals(algorithm)
                && java.security.MessageDigest.isEqual(k.secret, secret);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return "TsigKey[" + name + ", " + TSIG.nameToAlgorithm(algorithm) + "]";
    }
}
