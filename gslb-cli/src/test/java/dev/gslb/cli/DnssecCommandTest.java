package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.TokenAdded;
import dev.gslb.api.TokenRequest;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.dns.dnssec.KeyFile;
import dev.gslb.probe.Shell;
import dev.gslb.server.GslbServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Name;

/**
 * The signed zones' keys on a real server on loopback: made mode 600 at first start, kept across
 * a restart, their DS as BIND's and ldns's tools compute it, rolls and the parent's DS through
 * `gslb dnssec ...`, and a bad key file that leaves the zone served and says why.
 */
class DnssecCommandTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");

    @TempDir
    Path dir;

    private GslbServer server;
    private Path state;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start() throws Exception {
        var config = ConfigLoader.load(dir.resolve("gslb.yaml"));
        state = config.stateFolder();
        server = new GslbServer(config);
        server.start();
    }

    private void config(String badZone) throws IOException {
        if (!Files.exists(dir.resolve("example.com.zone"))) {
            Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
            Files.writeString(dir.resolve("bad.test.zone"), """
                    $ORIGIN bad.test.
                    $TTL 600
                    @ IN SOA ns1 hostmaster 1 3600 900 1209600 300
                    @ IN NS ns1
                    ns1 IN A 192.0.2.53
                    """);
        }
        String shared = LoopbackConfig.shared("")
                .replace(
                        "zones: [{file: example.com.zone}]",
                        "zones:\n  - {file: example.com.zone, dnssec: {}}\n" + badZone);
        Files.writeString(dir.resolve("gslb.yaml"), LoopbackConfig.local("signer", "CNC") + shared);
    }

    private TopologyCommandTest.Run gslb(String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of(
                "--admin",
                Isolated.adminUrl(server),
                "--token-file",
                dir.resolve("var/admin.token").toString()));
        return TopologyCommandTest.gslb(a.toArray(String[]::new));
    }

    private Path keys() {
        return state.resolve("dnssec/example.com");
    }

    private List<Path> files(String suffix) throws IOException {
        try (Stream<Path> s = Files.list(keys())) {
            return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        }
    }

    /** kdig at this server, without recursion. */
    private String kdig(String... query) {
        List<String> c = new ArrayList<>(List.of(
                "kdig",
                "@127.0.0.1",
                "-p",
                String.valueOf(server.dns().boundAddresses().getFirst().getPort()),
                "+norec"));
        c.addAll(List.of(query));
        return Shell.run(c.toArray(String[]::new));
    }

    /** The DS digests (hex, lower case) in a tool's output. */
    private static List<String> digests(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] t = line.trim().split("\\s+");
            int ds = List.of(t).indexOf("DS");
            if (ds >= 0 && t.length >= ds + 5) {
                out.add(String.join("", List.of(t).subList(ds + 4, t.length)).toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    @Test
    void keysAreMadeKeptAndTheirDsIsWhatBindAndLdnsCompute() throws Exception {
        config("  - {file: bad.test.zone, dnssec: {ksk-file: " + dir.resolve("Kbad.test.+013+00001.private") + "}}\n");
        Files.writeString(dir.resolve("Kbad.test.+013+00001.private"), "Private-key-format: v1.3\nAlgorithm 13\n");
        start();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keys())))
                .isEqualTo("rwx------");
        assertThat(files(".private")).hasSize(2);
        for (Path f : Stream.concat(files(".private").stream(), files(".key").stream())
                .toList()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                    .as(f.toString())
                    .isEqualTo("rw-------");
        }
        assertThat(server.dnssecKeys().ring().of(ZONE).complete()).isTrue();
        KeyFile ksk = files(".private").stream()
                .map(DnssecCommandTest::read)
                .filter(KeyFile::secureEntryPoint)
                .findFirst()
                .orElseThrow();

        TopologyCommandTest.Run status = gslb("dnssec", "status");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out())
                .containsPattern(ksk.tag() + " +ksk +13 +active +yes")
                .contains("example.com.  signed, ecdsap256sha256, ksk-zsk")
                .contains("bad.test.  NOT signed")
                .contains("why: " + dir.resolve("Kbad.test.+013+00001.key") + ": no such file");

        // the DS we print is the one BIND's and ldns's tools compute from the DNSKEY: the one served
        // once signing answers DNSKEY queries, until then the .key file
        TopologyCommandTest.Run ds = gslb("dnssec", "ds", "example.com", "--dnskey");
        assertThat(ds.exit()).as(ds.err()).isZero();
        assertThat(ds.out()).contains("; ksk " + ksk.tag(), "example.com. 86400 IN DS " + ksk.tag() + " 13 2 ");
        Path dnskeys = dir.resolve("dnskey.txt");
        String kdig = kdig("DNSKEY", "example.com.");
        List<String> served = kdig.lines()
                .filter(l -> l.matches("^example\\.com\\.\\s+\\d+\\s+IN\\s+DNSKEY\\s+257 .*"))
                .toList();
        Path key = KeyFile.publicFile(ksk.privateFile());
        if (served.isEmpty()) {
            Files.writeString(dnskeys, "$TTL 3600\n" + Files.readString(key)); // BIND writes .key without one
        } else {
            Files.write(dnskeys, served);
        }
        List<String> ours = digests(ds.out());
        assertThat(ours).hasSize(1);
        assertThat(digests(Shell.run("dnssec-dsfromkey", "-2", "-f", dnskeys.toString(), "example.com")))
                .containsExactlyElementsOf(ours);
        assertThat(digests(Shell.run("ldns-key2ds", "-n", "-2", key.toString())))
                .containsExactlyElementsOf(ours);

        // a restart keeps them
        List<Path> before = files(".private");
        server.close();
        start();
        assertThat(files(".private")).isEqualTo(before);
        assertThat(digests(gslb("dnssec", "ds", "example.com").out())).isEqualTo(ours);
    }

    @Test
    void aBadKeyFileSaysWhyAndTheZoneIsStillServed() throws Exception {
        config("");
        start();
        Path zsk = files(".private").stream()
                .filter(p -> !read(p).secureEntryPoint())
                .findFirst()
                .orElseThrow();
        server.close();
        String good = Files.readString(zsk);
        Files.writeString(zsk, good.replaceFirst("PrivateKey: \\S+", "PrivateKey: c2hvcnQ="));
        start();
        TopologyCommandTest.Run status = gslb("dnssec", "status", "example.com");
        assertThat(status.out())
                .contains("example.com.  NOT signed")
                .contains("why: " + zsk + ":3: PrivateKey has 5 bytes; algorithm 13 takes 32");
        assertThat(server.dnssecKeys().ring().of(ZONE)).isNull();
        String soa = kdig("+short", "SOA", "example.com.");
        assertThat(soa).contains("ns1.example.com. hostmaster.example.com. 2026112901");
        assertThat(files(".private"))
                .as("a bad file is not replaced by a new key")
                .hasSize(2);
    }

    @Test
    void rollsGoStepByStepAndTheOldKskWaitsForTheParent() throws Exception {
        config("");
        start();
        TopologyCommandTest.Run zsk = gslb("dnssec", "roll", "example.com", "zsk");
        assertThat(zsk.exit()).as(zsk.err()).isZero();
        assertThat(zsk.out()).contains("zsk", "Activate", "Inactive", "Delete");
        assertThat(files(".private")).hasSize(3);
        TopologyCommandTest.Run again = gslb("dnssec", "roll", "example.com", "zsk");
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("a ZSK roll is going on already");
        assertThat(gslb("dnssec", "status").out()).contains(" zsk  13  published", " zsk  13  active");

        assertThat(gslb("dnssec", "submitted", "example.com").err()).contains("no ksk roll waits for the parent's DS");
        TopologyCommandTest.Run ksk = gslb("dnssec", "roll", "example.com", "ksk");
        assertThat(ksk.exit()).as(ksk.err()).isZero();
        assertThat(ksk.out()).contains("SyncPublish", "SyncDelete", "gslb dnssec submitted example.com");
        TopologyCommandTest.Run ds = gslb("dnssec", "ds", "example.com");
        assertThat(ds.out()).contains("give it to the parent from");
        assertThat(digests(ds.out())).hasSize(1);
        assertThat(server.dnssecKeys().ring().of(ZONE).keySigning())
                .as("both KSKs sign DNSKEY")
                .hasSize(2);

        // reads take any token, changes the operator role
        AdminHttp http = new AdminHttp(server);
        String local = AdminToken.read(dir.resolve("var/admin.token"));
        String viewer = Json.MAPPER
                .readValue(
                        http.post(local, "/token/add", Json.write(new TokenRequest("watcher", Role.VIEWER)))
                                .body(),
                        TokenAdded.class)
                .token();
        assertThat(http.get(viewer, "/dnssec").statusCode()).isEqualTo(200);
        assertThat(http.get(viewer, "/dnssec/ds?zone=example.com").statusCode()).isEqualTo(200);
        assertThat(http.post(viewer, "/dnssec/submitted", "{\"zone\": \"example.com\"}")
                        .statusCode())
                .isEqualTo(403);
        assertThat(http.post(viewer, "/dnssec/roll", "{\"zone\": \"example.com\", \"kind\": \"zsk\"}")
                        .statusCode())
                .isEqualTo(403);

        TopologyCommandTest.Run submitted = gslb("dnssec", "submitted", "example.com");
        assertThat(submitted.exit()).as(submitted.err()).isZero();
        assertThat(submitted.out()).contains("ksk", "Delete");
        assertThat(Files.readString(dir.resolve("var/audit.log"))).contains("/dnssec/roll", "/dnssec/submitted");

        // a restart goes on with the rolls: their steps are in the files
        server.close();
        start();
        String status = gslb("dnssec", "status").out();
        assertThat(status).contains(" zsk  13  published", "Inactive", "DSPublish");
        assertThat(server.dnssecKeys().ring().of(ZONE).keySigning()).hasSize(2);
    }

    private static KeyFile read(Path p) {
        try {
            return KeyFile.read(p);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
