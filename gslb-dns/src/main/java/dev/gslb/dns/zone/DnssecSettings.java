package dev.gslb.dns.zone;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * A zone's {@code dnssec:} entry: signing is on when it is given ({@code dnssec: {}} takes every
 * default). Keys are made at first start into the state folder, or read from the files given.
 *
 * @param algorithm         ecdsap256sha256 (13) or ed25519 (15)
 * @param keys              ksk-zsk (a key-signing and a zone-signing key) or csk (one combined key)
 * @param kskFile           a BIND-format private key file ({@code K<zone>.+013+<tag>.private}) for the KSK (or the CSK), or null
 * @param zskFile           the same for the ZSK, or null
 * @param signatureValidity how long a signature is valid from when it is made
 * @param signatureRefresh  a signature is made again when less than this of its validity is left
 * @param zskLifetime       how long a ZSK signs before the next one replaces it (0: never rolled by itself)
 * @param kskLifetime       the same for the KSK or CSK (0: rolled only when an operator says so)
 * @param propagationDelay  how long a change takes to reach every instance and secondary, added to every roll step
 * @param dnskeyTtl         the TTL of DNSKEY, CDS and CDNSKEY (null: the SOA's TTL)
 */
public record DnssecSettings(
        String algorithm,
        String keys,
        Path kskFile,
        Path zskFile,
        Duration signatureValidity,
        Duration signatureRefresh,
        Duration zskLifetime,
        Duration kskLifetime,
        Duration propagationDelay,
        Duration dnskeyTtl) {
    public static final String ECDSAP256SHA256 = "ecdsap256sha256";
    public static final String ED25519 = "ed25519";
    public static final String KSK_ZSK = "ksk-zsk";
    public static final String CSK = "csk";

    public static final Setting<String> ALGORITHM = Setting.of(
                    "algorithm", String.class, ECDSAP256SHA256, "ecdsap256sha256 (13) or ed25519 (15)")
            .check("ecdsap256sha256, ed25519", a -> {
                if (!a.equals(ECDSAP256SHA256) && !a.equals(ED25519)) {
                    throw new IllegalArgumentException(
                            "dnssec algorithm '" + a + "' is not one of ecdsap256sha256, ed25519");
                }
            });
    public static final Setting<String> KEYS = Setting.of(
                    "keys", String.class, KSK_ZSK, "ksk-zsk (two keys) or csk (one combined signing key)")
            .check("ksk-zsk, csk", k -> {
                if (!k.equals(KSK_ZSK) && !k.equals(CSK)) {
                    throw new IllegalArgumentException("dnssec keys '" + k + "' is not one of ksk-zsk, csk");
                }
            });
    public static final Setting<Path> KSK_FILE = keyFile("ksk-file", "the KSK's (or CSK's) BIND-format .private file");
    public static final Setting<Path> ZSK_FILE = keyFile("zsk-file", "the ZSK's BIND-format .private file");
    public static final Setting<Duration> SIGNATURE_VALIDITY = Setting.duration(
                    "signature-validity", Duration.ofDays(14), "how long a signature is valid once made")
            .check("1h..90d", d -> within("signature-validity", d, Duration.ofHours(1), Duration.ofDays(90)));
    public static final Setting<Duration> SIGNATURE_REFRESH = Setting.duration(
                    "signature-refresh",
                    Duration.ofDays(7),
                    "sign again when less than this is left (each signature jittered by up to a tenth)")
            .check("30m..60d", d -> within("signature-refresh", d, Duration.ofMinutes(30), Duration.ofDays(60)));
    public static final Setting<Duration> ZSK_LIFETIME = Setting.duration(
                    "zsk-lifetime", Duration.ofDays(30), "a new ZSK this often, by pre-publication (0: never)")
            .check("0 or 1h..3650d", d -> lifetime("zsk-lifetime", d));
    public static final Setting<Duration> KSK_LIFETIME = Setting.duration(
                    "ksk-lifetime", Duration.ZERO, "a new KSK/CSK this often, with CDS/CDNSKEY (0: when told)")
            .check("0 or 1h..3650d", d -> lifetime("ksk-lifetime", d));
    public static final Setting<Duration> PROPAGATION_DELAY = Setting.duration(
                    "propagation-delay", Duration.ofHours(1), "added to every roll step: time for a change to spread")
            .check("0..7d", d -> within("propagation-delay", d, Duration.ZERO, Duration.ofDays(7)));
    public static final Setting<Duration> DNSKEY_TTL = Setting.of(
                    "dnskey-ttl", Duration.class, null, "TTL of DNSKEY, CDS and CDNSKEY")
            .shown("the SOA's TTL")
            .check("0..1d", d -> {
                if (d != null) {
                    within("dnskey-ttl", d, Duration.ZERO, Duration.ofDays(1));
                }
            });

    public static final SettingsTable<DnssecSettings> SETTINGS = SettingsTable.of(
            DnssecSettings.class,
            ALGORITHM,
            KEYS,
            KSK_FILE,
            ZSK_FILE,
            SIGNATURE_VALIDITY,
            SIGNATURE_REFRESH,
            ZSK_LIFETIME,
            KSK_LIFETIME,
            PROPAGATION_DELAY,
            DNSKEY_TTL);

    public static final DnssecSettings DEFAULTS = SETTINGS.defaults();

    public DnssecSettings {
        algorithm = algorithm.toLowerCase(Locale.ROOT);
        keys = keys.toLowerCase(Locale.ROOT);
        if (signatureRefresh.compareTo(signatureValidity) >= 0) {
            throw new IllegalArgumentException("dnssec signature-refresh (" + signatureRefresh
                    + ") must be shorter than signature-validity (" + signatureValidity + ")");
        }
        if (keys.equals(CSK) && zskFile != null) {
            throw new IllegalArgumentException("dnssec keys: csk uses one key: give it as ksk-file, not zsk-file");
        }
    }

    /** The DNSSEC algorithm number (RFC 8624): 13 or 15. */
    public int algorithmNumber() {
        return algorithm.equals(ED25519) ? 15 : 13;
    }

    /** One combined signing key rather than a KSK and a ZSK. */
    public boolean csk() {
        return keys.equals(CSK);
    }

    /** None by default (not a file named "none"): the keys are made. */
    private static Setting<Path> keyFile(String key, String doc) {
        return Setting.optionalPath(key, doc).shown("none: made at first start");
    }

    private static void within(String key, Duration d, Duration min, Duration max) {
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException("dnssec " + key + " must be " + min + ".." + max + ", not " + d);
        }
    }

    private static void lifetime(String key, Duration d) {
        if (!d.isZero()) {
            within(key, d, Duration.ofHours(1), Duration.ofDays(3650));
        }
    }
}
