package dev.gslb.config;

import dev.gslb.dns.tsig.TsigKey;
import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.util.Base64;
import java.util.List;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * One entry of {@code tsig-keys:}: a TSIG key as BIND, Knot and NSD write one (name, algorithm,
 * base64 secret). The secret is written as {@code secret-file:} (a file only its owner may read),
 * {@code ${env:GSLB_...}}, or inline; the configuration a sync group shares holds the reference.
 */
public record TsigKeySpec(String name, String algorithm, String secret) {
    public static final Setting<String> NAME = Setting.of(
                    "name", String.class, null, "the key's name, as its peers name it")
            .shown("required");
    public static final Setting<String> ALGORITHM =
            Setting.of("algorithm", String.class, TsigKey.DEFAULT_ALGORITHM, "hmac-sha256, hmac-sha512 or hmac-sha1");
    public static final Setting<String> SECRET = Setting.of(
                    "secret", String.class, null, "the base64 secret (or secret-file:, its mode checked)")
            .asSecret()
            .shown("required");

    public static final SettingsTable<TsigKeySpec> SETTINGS =
            SettingsTable.of(TsigKeySpec.class, NAME, ALGORITHM, SECRET);

    public static final Section<List<TsigKeySpec>> SECTION = Section.list("tsig-keys", TsigKeySpec.class);

    public TsigKeySpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a TSIG key needs 'name:'");
        }
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("TSIG key " + name
                    + " needs 'secret:' or 'secret-file:' (base64, e.g. from `openssl rand -base64 32`)");
        }
        key(name, algorithm, secret);
    }

    /** The key itself. */
    public TsigKey key() {
        return key(name, algorithm, secret);
    }

    private static TsigKey key(String name, String algorithm, String secret) {
        Name keyName;
        try {
            keyName = Name.fromString(name, Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("TSIG key name '" + name + "' is not a domain name");
        }
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(secret.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("TSIG key " + name + ": the secret is not base64");
        }
        return new TsigKey(keyName, TsigKey.algorithm(algorithm), bytes);
    }

    @Override
    public String toString() {
        return "TsigKeySpec[" + name + ", " + algorithm + "]";
    }
}
