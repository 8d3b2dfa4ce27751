package dev.gslb.dns.dnssec;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSKEYRecord;
import org.xbill.DNS.DNSSEC;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * One key pair in BIND's format, so keys made by {@code dnssec-keygen} or {@code ldns-keygen}
 * are read and keys made here work with BIND's tools: {@code K<zone>.+<alg>+<tag>.key} holds
 * the DNSKEY record as text, {@code .private} the private key ({@code Private-key-format: v1.3})
 * and the key's {@link KeyTimings}. ECDSA P-256 (13) keeps the 32-byte scalar, Ed25519 (15) the
 * 32-byte seed. Files are written mode 600 in a folder of mode 700, each whole or not at all.
 *
 * @param privateFile where the {@code .private} file is (its {@code .key} beside it)
 * @param dnskey      the public half as the {@code .key} file has it
 * @param privateKey  the private half
 * @param timings     what the key does when
 */
public record KeyFile(Path privateFile, DNSKEYRecord dnskey, PrivateKey privateKey, KeyTimings timings) {
    /** A key file is a few hundred bytes: a larger one is not a key file. */
    private static final int MAX_BYTES = 64 * 1024;

    public static final int ECDSAP256SHA256 = 13;
    public static final int ED25519 = 15;
    public static final int KSK_FLAGS = 257;
    public static final int ZSK_FLAGS = 256;

    public Name zone() {
        return dnskey.getName();
    }

    public int tag() {
        return dnskey.getFootprint();
    }

    public int algorithm() {
        return dnskey.getAlgorithm();
    }

    /** Flags 257: a KSK, or a CSK. */
    public boolean secureEntryPoint() {
        return (dnskey.getFlags() & DNSKEYRecord.Flags.SEP_KEY) != 0;
    }

    /** BIND's base name: {@code K<zone>.+<alg>+<tag>}. */
    public static String baseName(Name zone, int algorithm, int tag) {
        return String.format(Locale.ROOT, "K%s.+%03d+%05d", fileName(zone), algorithm, tag);
    }

    /**
     * A zone's name as a file or folder name: lower case, without the final dot ({@code root} for
     * the root), every character but letters, digits, '-', '_' and the dots between labels as
     * {@code %XX}, so that no zone name (a label may hold '/' or be "..") leaves the key folder.
     */
    public static String fileName(Name zone) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < zone.labels() - 1; i++) { // the last label is the root's, empty
            if (i > 0) {
                b.append('.');
            }
            byte[] label = zone.getLabel(i); // its length first
            for (int j = 1; j < label.length; j++) {
                byte c = label[j];
                char ch = Character.toLowerCase((char) (c & 0xff));
                if (ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_') {
                    b.append(ch);
                } else {
                    b.append(String.format(Locale.ROOT, "%%%02X", c & 0xff));
                }
            }
        }
        return b.isEmpty() ? "root" : b.toString();
    }

    /** The {@code .key} file beside a {@code .private} one. */
    public static Path publicFile(Path privateFile) {
        String n = privateFile.getFileName().toString();
        String base = n.endsWith(".private") ? n.substring(0, n.length() - ".private".length()) : n;
        return privateFile.resolveSibling(base + ".key");
    }

    /** The same key with other timings (not written: {@link #write}). */
    public KeyFile withTimings(KeyTimings t) {
        return new KeyFile(privateFile, dnskey, privateKey, t);
    }

    /** A new key pair for {@code zone}, not yet written ({@link #write}). */
    public static KeyFile generate(Name zone, int algorithm, int flags, KeyTimings timings) {
        try {
            KeyPair pair;
            if (algorithm == ECDSAP256SHA256) {
                KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
                g.initialize(new ECGenParameterSpec("secp256r1"));
                pair = g.generateKeyPair();
            } else if (algorithm == ED25519) {
                pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            } else {
                throw new IllegalArgumentException("DNSSEC algorithm " + algorithm + " is not made here (13 or 15)");
            }
            DNSKEYRecord r = new DNSKEYRecord(
                    zone, DClass.IN, 0, flags, DNSKEYRecord.Protocol.DNSSEC, algorithm, pair.getPublic());
            return new KeyFile(null, r, pair.getPrivate(), timings);
        } catch (GeneralSecurityException | DNSSEC.DNSSECException e) {
            throw new IllegalStateException("making a DNSSEC key: " + e, e);
        }
    }

    /**
     * Writes the {@code .key} and {@code .private} files into {@code folder} (made mode 700),
     * each mode 600 by a rename, and returns this key as written there.
     */
    public KeyFile write(Path folder) throws IOException {
        Files.createDirectories(folder);
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        String base = baseName(zone(), algorithm(), tag());
        Path priv = folder.resolve(base + ".private");
        writeSecret(folder.resolve(base + ".key"), keyText());
        writeSecret(priv, privateText());
        return new KeyFile(priv, dnskey, privateKey, timings);
    }

    /** The {@code .key} file's text: comments with the timings, then the DNSKEY record (no TTL, as BIND writes it). */
    public String keyText() {
        StringBuilder b = new StringBuilder();
        b.append("; This is a ")
                .append(secureEntryPoint() ? "key-signing" : "zone-signing")
                .append(" key, keyid ")
                .append(tag())
                .append(", for ")
                .append(zone())
                .append('\n');
        for (Map.Entry<String, Instant> e : timings.byTag().entrySet()) {
            b.append("; ")
                    .append(e.getKey())
                    .append(": ")
                    .append(KeyTimings.format(e.getValue()))
                    .append(" (")
                    .append(e.getValue())
                    .append(")\n");
        }
        b.append(zone()).append(" IN DNSKEY ").append(dnskey.rdataToString()).append('\n');
        return b.toString();
    }

    /** The {@code .private} file's text, v1.3 with BIND's timing lines. */
    public String privateText() {
        StringBuilder b = new StringBuilder("Private-key-format: v1.3\n");
        b.append("Algorithm: ")
                .append(algorithm())
                .append(algorithm() == ED25519 ? " (ED25519)" : " (ECDSAP256SHA256)")
                .append('\n');
        b.append("PrivateKey: ")
                .append(Base64.getEncoder().encodeToString(privateBytes(privateKey)))
                .append('\n');
        for (Map.Entry<String, Instant> e : timings.byTag().entrySet()) {
            b.append(e.getKey())
                    .append(": ")
                    .append(KeyTimings.format(e.getValue()))
                    .append('\n');
        }
        return b.toString();
    }

    /**
     * Reads a {@code .private} file and the {@code .key} file beside it, and checks that they are
     * halves of one key (a signature made with the one verifies with the other).
     */
    public static KeyFile read(Path privateFile) throws KeyFileException {
        Path keyFile = publicFile(privateFile);
        DNSKEYRecord dnskey = readDnskey(keyFile);
        Parsed p = readPrivate(privateFile);
        if (p.algorithm != dnskey.getAlgorithm()) {
            throw new KeyFileException(privateFile + ":" + p.algorithmLine + ": algorithm " + p.algorithm + " but "
                    + keyFile + " has a key of algorithm " + dnskey.getAlgorithm());
        }
        PrivateKey key = privateKey(privateFile, p);
        PublicKey pub;
        try {
            pub = dnskey.getPublicKey();
        } catch (DNSSEC.DNSSECException e) {
            throw new KeyFileException(keyFile + ": the DNSKEY's public key does not decode: " + e.getMessage());
        }
        if (!halves(key, pub)) {
            throw new KeyFileException(privateFile + ": its private key is not the one of " + keyFile + " (key tag "
                    + dnskey.getFootprint() + ")");
        }
        String n = privateFile.getFileName().toString();
        String expected = baseName(dnskey.getName(), dnskey.getAlgorithm(), dnskey.getFootprint()) + ".private";
        if (n.startsWith("K") && n.matches("K.*\\+[0-9]{3}\\+[0-9]{5}\\.private") && !n.equalsIgnoreCase(expected)) {
            throw new KeyFileException(
                    privateFile + ": its name says another key than the one it holds: " + "expected " + expected);
        }
        return new KeyFile(privateFile, dnskey, key, p.timings);
    }

    private static DNSKEYRecord readDnskey(Path file) throws KeyFileException {
        List<String> lines = lines(file);
        DNSKEYRecord found = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = stripComment(lines.get(i)).trim();
            if (line.isEmpty()) {
                continue;
            }
            String where = file + ":" + (i + 1) + ": ";
            if (found != null) {
                throw new KeyFileException(where + "a second record; a .key file holds one DNSKEY");
            }
            String[] t = line.split("\\s+");
            int at = 1;
            long ttl = 0;
            while (at < t.length && !t[at].equalsIgnoreCase("DNSKEY")) {
                if (t[at].matches("[0-9]+")) {
                    ttl = Long.parseLong(t[at]);
                } else if (!t[at].equalsIgnoreCase("IN")) {
                    throw new KeyFileException(where + "'" + t[at] + "' where a TTL, IN or DNSKEY belongs");
                }
                at++;
            }
            if (at >= t.length - 3) {
                throw new KeyFileException(where + "not a DNSKEY record (owner [TTL] IN DNSKEY flags 3 algorithm key)");
            }
            try {
                Name owner = Name.fromString(t[0], Name.root);
                String rdata = String.join(" ", java.util.Arrays.copyOfRange(t, at + 1, t.length));
                Record r = Record.fromString(owner, Type.DNSKEY, DClass.IN, ttl, rdata, Name.root);
                DNSKEYRecord k = (DNSKEYRecord) r;
                if (k.getProtocol() != DNSKEYRecord.Protocol.DNSSEC) {
                    throw new KeyFileException(where + "protocol " + k.getProtocol() + ", not 3");
                }
                if (k.getFlags() != KSK_FLAGS && k.getFlags() != ZSK_FLAGS) {
                    throw new KeyFileException(where + "flags " + k.getFlags() + ": a zone key has 256 or 257");
                }
                if (k.getAlgorithm() != ECDSAP256SHA256 && k.getAlgorithm() != ED25519) {
                    throw new KeyFileException(
                            where + "algorithm " + k.getAlgorithm() + ": signing here takes 13 or 15");
                }
                found = k;
            } catch (TextParseException e) {
                throw new KeyFileException(where + e.getMessage());
            } catch (IOException | IllegalArgumentException e) {
                throw new KeyFileException(where + "not a DNSKEY record: " + e.getMessage());
            }
        }
        if (found == null) {
            throw new KeyFileException(file + ": holds no DNSKEY record");
        }
        return found;
    }

    private record Parsed(int algorithm, int algorithmLine, byte[] privateKey, int keyLine, KeyTimings timings) {}

    private static Parsed readPrivate(Path file) throws KeyFileException {
        List<String> lines = lines(file);
        String format = null;
        int algorithm = -1;
        int algorithmLine = 0;
        byte[] key = null;
        int keyLine = 0;
        KeyTimings timings = KeyTimings.NONE;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) {
                continue;
            }
            String where = file + ":" + (i + 1) + ": ";
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new KeyFileException(where + "not a 'Tag: value' line");
            }
            String tag = line.substring(0, colon);
            String value = line.substring(colon + 1).trim();
            switch (tag) {
                case "Private-key-format" -> {
                    if (!value.matches("v1\\.[0-9]+")) {
                        throw new KeyFileException(where + "format '" + value + "', not v1.x");
                    }
                    format = value;
                }
                case "Algorithm" -> {
                    String n = value.split("\\s+")[0];
                    if (!n.matches("[0-9]{1,3}")) {
                        throw new KeyFileException(where + "algorithm '" + value + "' is not a number");
                    }
                    algorithm = Integer.parseInt(n);
                    algorithmLine = i + 1;
                    if (algorithm != ECDSAP256SHA256 && algorithm != ED25519) {
                        throw new KeyFileException(where + "algorithm " + algorithm
                                + ": signing here takes 13 (ECDSAP256SHA256) or 15 (ED25519)");
                    }
                }
                case "PrivateKey" -> {
                    try {
                        key = Base64.getDecoder().decode(value);
                    } catch (IllegalArgumentException e) {
                        throw new KeyFileException(where + "PrivateKey is not base64: " + e.getMessage());
                    }
                    keyLine = i + 1;
                }
                default -> {
                    if (KeyTimings.isTag(tag)) {
                        try {
                            timings = timings.with(tag, KeyTimings.parse(value));
                        } catch (IllegalArgumentException e) {
                            throw new KeyFileException(where + tag + ": " + e.getMessage());
                        }
                    } // other tags (Revoke, a key of another kind's fields) are not used here
                }
            }
        }
        if (format == null) {
            throw new KeyFileException(file + ": no Private-key-format line: not a BIND private key file");
        }
        if (algorithm < 0) {
            throw new KeyFileException(file + ": no Algorithm line");
        }
        if (key == null) {
            throw new KeyFileException(file + ": no PrivateKey line");
        }
        if (algorithm == ECDSAP256SHA256 && key.length >= 28 && key.length < 32) {
            // a big-endian number, whose leading zero bytes some writers drop: BIND 9.18's
            // dnssec-keygen (OpenSSL's BN_bn2bin) writes a 31-byte key once in 256; four zero
            // bytes are as far as chance goes (once in four billion keys), fewer bytes are no key
            key = scalarBytes(key);
        }
        if (key.length != 32) {
            throw new KeyFileException(file + ":" + keyLine + ": PrivateKey has " + key.length + " bytes; algorithm "
                    + algorithm + " takes 32");
        }
        return new Parsed(algorithm, algorithmLine, key, keyLine, timings);
    }

    private static PrivateKey privateKey(Path file, Parsed p) throws KeyFileException {
        try {
            if (p.algorithm == ECDSAP256SHA256) {
                var params = java.security.AlgorithmParameters.getInstance("EC");
                params.init(new ECGenParameterSpec("secp256r1"));
                var spec = params.getParameterSpec(java.security.spec.ECParameterSpec.class);
                BigInteger s = new BigInteger(1, p.privateKey);
                if (s.signum() == 0 || s.compareTo(spec.getOrder()) >= 0) {
                    throw new KeyFileException(file + ":" + p.keyLine + ": PrivateKey is not a P-256 key");
                }
                return KeyFactory.getInstance("EC").generatePrivate(new ECPrivateKeySpec(s, spec));
            }
            return KeyFactory.getInstance("Ed25519")
                    .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, p.privateKey));
        } catch (GeneralSecurityException e) {
            throw new KeyFileException(file + ":" + p.keyLine + ": PrivateKey does not load: " + e.getMessage());
        }
    }

    /** The private key as BIND writes it: the 32-byte scalar (P-256) or seed (Ed25519). */
    static byte[] privateBytes(PrivateKey key) {
        if (key instanceof ECPrivateKey ec) {
            return scalarBytes(ec.getS().toByteArray());
        }
        if (key instanceof EdECPrivateKey ed) {
            return ed.getBytes().orElseThrow(() -> new IllegalStateException("an Ed25519 key without its seed"));
        }
        throw new IllegalArgumentException("not a key made or read here: " + key.getAlgorithm());
    }

    /**
     * A P-256 scalar, a big-endian number, in the 32 bytes BIND writes: a leading sign byte
     * ({@code BigInteger.toByteArray}) dropped, dropped leading zeros put back.
     */
    private static byte[] scalarBytes(byte[] number) {
        byte[] out = new byte[32];
        int n = Math.min(32, number.length);
        System.arraycopy(number, number.length - n, out, 32 - n, n);
        return out;
    }

    /** True when a signature made with {@code key} verifies with {@code pub}. */
    private static boolean halves(PrivateKey key, PublicKey pub) {
        try {
            String alg = pub instanceof ECPublicKey ? "SHA256withECDSA" : "Ed25519";
            byte[] probe = "gslb key pair check".getBytes(StandardCharsets.US_ASCII);
            Signature s = Signature.getInstance(alg);
            s.initSign(key);
            s.update(probe);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance(alg);
            v.initVerify(pub);
            v.update(probe);
            return v.verify(sig);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static List<String> lines(Path file) throws KeyFileException {
        try {
            if (!Files.isRegularFile(file)) {
                throw new KeyFileException(file + ": no such file");
            }
            if (Files.size(file) > MAX_BYTES) {
                throw new KeyFileException(file + ": " + Files.size(file) + " bytes: not a key file");
            }
            byte[] b = Files.readAllBytes(file);
            return new ArrayList<>(List.of(new String(b, StandardCharsets.UTF_8).split("\r?\n", -1)));
        } catch (IOException e) {
            throw new KeyFileException(file + ": cannot be read: " + e.getMessage(), e);
        }
    }

    private static String stripComment(String line) {
        int semi = line.indexOf(';');
        return semi < 0 ? line : line.substring(0, semi);
    }

    private static void writeSecret(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, text);
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
