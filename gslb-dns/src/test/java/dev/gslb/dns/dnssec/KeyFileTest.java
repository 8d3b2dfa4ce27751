package dev.gslb.dns.dnssec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSSEC;
import org.xbill.DNS.DSRecord;
import org.xbill.DNS.Name;

/** BIND's key pair format, read from and checked against the real dnssec-keygen, ldns-keygen, dnssec-dsfromkey and ldns-key2ds. */
class KeyFileTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");

    @TempDir
    Path dir;

    static String run(Path in, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(in.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
        return out;
    }

    /** The one file of {@code folder} ending with {@code suffix}. */
    static Path only(Path folder, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            List<Path> found = s.filter(p -> p.toString().endsWith(suffix)).toList();
            assertThat(found).hasSize(1);
            return found.getFirst();
        }
    }

    @Test
    void readsTheKeysOfDnssecKeygenWithTheirTimings() throws Exception {
        String base = run(
                        dir,
                        "dnssec-keygen",
                        "-q",
                        "-a",
                        "ECDSAP256SHA256",
                        "-f",
                        "KSK",
                        "-P",
                        "20300101000000",
                        "-A",
                        "20300102000000",
                        "example.com")
                .trim();
        KeyFile k = KeyFile.read(dir.resolve(base + ".private"));
        assertThat(k.secureEntryPoint()).isTrue();
        assertThat(k.algorithm()).isEqualTo(13);
        assertThat(base).endsWith(String.format(Locale.ROOT, "+013+%05d", k.tag()));
        assertThat(k.timings().publish()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(k.timings().activate()).isEqualTo(Instant.parse("2030-01-02T00:00:00Z"));

        String ed =
                run(dir, "dnssec-keygen", "-q", "-a", "ED25519", "example.com").trim();
        KeyFile z = KeyFile.read(dir.resolve(ed + ".private"));
        assertThat(z.secureEntryPoint()).isFalse();
        assertThat(z.algorithm()).isEqualTo(15);
        assertThat(z.timings().created()).isNotNull();
    }

    @Test
    void readsTheKeysOfLdnsKeygen() throws Exception {
        for (String alg : List.of("ECDSAP256SHA256", "ED25519")) {
            Path d = Files.createDirectory(dir.resolve(alg));
            String base = run(d, "ldns-keygen", "-a", alg, "-k", "example.com").trim();
            KeyFile k = KeyFile.read(d.resolve(base + ".private"));
            assertThat(k.secureEntryPoint()).isTrue();
            assertThat(k.timings()).isEqualTo(KeyTimings.NONE);
            // what ldns-keygen wrote beside it: the DS of the same key
            String ds = Files.readString(d.resolve(base + ".ds"));
            assertThat(ds.toLowerCase(Locale.ROOT))
                    .contains(ds(k).rdataToString().toLowerCase(Locale.ROOT));
        }
    }

    @Test
    void writtenKeysAreMode600InAFolderOf700AndBindsToolsGiveTheSameDs() throws Exception {
        Instant at = Instant.parse("2026-12-02T10:00:00Z");
        for (int alg : List.of(13, 15)) {
            Path folder = dir.resolve("keys" + alg);
            KeyFile k = KeyFile.generate(ZONE, alg, 257, KeyTimings.madeAt(at)).write(folder);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)))
                    .isEqualTo("rwx------");
            Path key = KeyFile.publicFile(k.privateFile());
            for (Path f : List.of(k.privateFile(), key)) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                        .isEqualTo("rw-------");
            }
            String ours = ds(k).rdataToString().toLowerCase(Locale.ROOT);
            String bind = run(folder, "dnssec-dsfromkey", "-2", key.toString());
            assertThat(bind.toLowerCase(Locale.ROOT)).contains(ours);
            String ldns = run(folder, "ldns-key2ds", "-n", "-2", key.toString());
            assertThat(ldns.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ")).contains(ours);

            KeyFile back = KeyFile.read(k.privateFile());
            assertThat(back.dnskey().rdataToString()).isEqualTo(k.dnskey().rdataToString());
            assertThat(back.timings()).isEqualTo(KeyTimings.madeAt(at));
            assertThat(KeyFile.privateBytes(back.privateKey())).isEqualTo(KeyFile.privateBytes(k.privateKey()));
            // and BIND reads our .private: it signs a zone with it
            Path zone = folder.resolve("db");
            Files.writeString(
                    zone,
                    "$TTL 300\n@ IN SOA ns hostmaster 1 3600 600 86400 300\n@ IN NS ns\nns IN A 192.0.2.1\n"
                            + "$INCLUDE " + key + "\n");
            run(
                    folder,
                    "dnssec-signzone",
                    "-o",
                    "example.com",
                    "-K",
                    folder.toString(),
                    "-P",
                    "-x",
                    "-k",
                    key.toString(),
                    zone.toString(),
                    key.toString());
            assertThat(Files.readString(folder.resolve("db.signed"))).contains("RRSIG");
        }
    }

    @Test
    void aFileThatDoesNotParseNamesTheFileTheLineAndWhat() throws Exception {
        KeyFile k = KeyFile.generate(ZONE, 13, 256, KeyTimings.madeAt(Instant.EPOCH))
                .write(dir);
        Path priv = k.privateFile();
        String good = Files.readString(priv);

        Files.writeString(priv, good.replace("PrivateKey: ", "PrivateKey: !!"));
        assertThatThrownBy(() -> KeyFile.read(priv)).hasMessageContaining(priv + ":3: PrivateKey is not base64");
        Files.writeString(priv, good.replace("Created: 19700101000000", "Created: 1970-01-01"));
        assertThatThrownBy(() -> KeyFile.read(priv))
                .hasMessageContaining(priv + ":4: Created: '1970-01-01' is not a time as YYYYMMDDHHMMSS");
        Files.writeString(priv, good.replace("Algorithm: 13", "Algorithm: 8"));
        assertThatThrownBy(() -> KeyFile.read(priv)).hasMessageContaining(priv + ":2: algorithm 8");
        Files.writeString(priv, good.replace("Private-key-format: v1.3\n", ""));
        assertThatThrownBy(() -> KeyFile.read(priv)).hasMessageContaining(priv + ": no Private-key-format line");
        Files.writeString(priv, "just text\n");
        assertThatThrownBy(() -> KeyFile.read(priv)).hasMessageContaining(priv + ":1: not a 'Tag: value' line");

        // halves of two different keys
        KeyFile other = KeyFile.generate(ZONE, 13, 256, KeyTimings.madeAt(Instant.EPOCH));
        Files.writeString(priv, other.privateText());
        assertThatThrownBy(() -> KeyFile.read(priv))
                .hasMessageContaining(priv + ": its private key is not the one of " + KeyFile.publicFile(priv));

        Files.writeString(priv, good);
        Path key = KeyFile.publicFile(priv);
        List<String> lines = new ArrayList<>(Files.readAllLines(key));
        lines.set(lines.size() - 1, "example.com. IN DNSKEY 256 3 13 AAAA");
        Files.write(key, lines);
        assertThatThrownBy(() -> KeyFile.read(priv)).hasMessageContaining(key + ":");
        Files.delete(key);
        assertThatThrownBy(() -> KeyFile.read(priv)).hasMessageContaining(key + ": no such file");
    }

    /**
     * A P-256 key whose scalar begins with a zero byte, as dnssec-keygen wrote one in 256 (OpenSSL's
     * BN_bn2bin drops leading zeros): 31 bytes of PrivateKey are the same key. The end-to-end test
     * met one. An Ed25519 seed has no such form: 31 bytes of it are refused; and 27 bytes are no
     * P-256 key (four leading zero bytes are once in four billion keys).
     */
    @Test
    void aP256KeyWrittenWithoutItsLeadingZeroByteIsTheSameKey() throws Exception {
        KeyFile k;
        do {
            k = KeyFile.generate(ZONE, 13, 257, KeyTimings.madeAt(Instant.EPOCH));
        } while (KeyFile.privateBytes(k.privateKey())[0] != 0);
        Path priv = k.write(dir).privateFile();
        byte[] whole = KeyFile.privateBytes(k.privateKey());
        String shortened = Base64.getEncoder().encodeToString(Arrays.copyOfRange(whole, 1, 32));
        Files.writeString(
                priv, Files.readString(priv).replace(Base64.getEncoder().encodeToString(whole), shortened));
        assertThat(Files.readString(priv)).contains("PrivateKey: " + shortened);

        KeyFile read = KeyFile.read(priv); // refused if the halves did not match
        assertThat(KeyFile.privateBytes(read.privateKey())).isEqualTo(whole);
        assertThat(read.tag()).isEqualTo(k.tag());
        String tooShort = Base64.getEncoder().encodeToString(Arrays.copyOfRange(whole, 5, 32));
        Files.writeString(priv, Files.readString(priv).replace(shortened, tooShort));
        assertThatThrownBy(() -> KeyFile.read(priv))
                .hasMessageContaining(priv + ":3: PrivateKey has 27 bytes; algorithm 13 takes 32");

        KeyFile ed = KeyFile.generate(ZONE, 15, 256, KeyTimings.madeAt(Instant.EPOCH))
                .write(dir.resolve("ed"));
        byte[] seed = KeyFile.privateBytes(ed.privateKey());
        Files.writeString(
                ed.privateFile(),
                Files.readString(ed.privateFile())
                        .replace(
                                Base64.getEncoder().encodeToString(seed),
                                Base64.getEncoder().encodeToString(Arrays.copyOf(seed, 31))));
        assertThatThrownBy(() -> KeyFile.read(ed.privateFile()))
                .hasMessageContaining(ed.privateFile() + ":3: PrivateKey has 31 bytes; algorithm 15 takes 32");
    }

    @Test
    void noZoneNameLeavesTheKeyFolder() throws Exception {
        assertThat(KeyFile.fileName(ZONE)).isEqualTo("example.com");
        assertThat(KeyFile.fileName(Name.root)).isEqualTo("root");
        Name hostile = Name.fromString("\\.\\..a\\/b.Example.com.");
        assertThat(KeyFile.fileName(hostile)).isEqualTo("%2E%2E.a%2Fb.example.com");
        KeyFile k = KeyFile.generate(hostile, 13, 257, KeyTimings.NONE).write(dir);
        assertThat(k.privateFile().getParent()).isEqualTo(dir);
        assertThat(k.privateFile().getFileName().toString()).startsWith("K%2E%2E.a%2Fb.example.com.+013+");
        assertThat(KeyFile.read(k.privateFile()).zone()).isEqualTo(hostile);
    }

    static DSRecord ds(KeyFile k) {
        return new DSRecord(k.zone(), DClass.IN, 0, DNSSEC.Digest.SHA256, k.dnskey());
    }
}
