package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/** What travels between peers is read as hostile: names outside files/, too much unzipped. */
class SharedConfigTest {
    static byte[] zip(String... nameAndContent) throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(b)) {
            for (int i = 0; i < nameAndContent.length; i += 2) {
                z.putNextEntry(new ZipEntry(nameAndContent[i]));
                z.write(nameAndContent[i + 1].getBytes(StandardCharsets.UTF_8));
                z.closeEntry();
            }
        }
        return b.toByteArray();
    }

    @Test
    void aPeersBundleMayNotReachOutsideItsFolder() throws Exception {
        assertThatThrownBy(() -> SharedConfig.unzip(zip("shared.yaml", "{}", "files/../../etc/passwd", "x")))
                .hasMessageContaining("only files/... is allowed");
        assertThatThrownBy(() -> SharedConfig.unzip(zip("shared.yaml", "{}", "/etc/passwd", "x")))
                .hasMessageContaining("only files/");
        assertThatThrownBy(() -> SharedConfig.unzip(zip("files/a", "x"))).hasMessageContaining("no shared.yaml");
        assertThatThrownBy(() -> SharedConfig.unzip("not a zip".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("no shared.yaml");
        SharedConfig ok = SharedConfig.unzip(zip("shared.yaml", "zones: []\n", "files/zones/0/x.zone", "; zone"));
        assertThat(SharedConfig.unzip(ok.zip())).usingRecursiveComparison().isEqualTo(ok);
        assertThat(SharedConfig.unzip(ok.zip()).digest()).isEqualTo(ok.digest());
    }

    @Test
    void aBombIsRefusedAtTheBound() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(b)) {
            z.putNextEntry(new ZipEntry("shared.yaml"));
            z.write("{}".getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 3; i++) {
                z.putNextEntry(new ZipEntry("files/big" + i));
                for (int k = 0; k < 100; k++) {
                    z.write(zeros);
                }
                z.closeEntry();
            }
        }
        assertThat(b.size()).as("300 MiB of zeros zip small").isLessThan(1 << 20);
        assertThatThrownBy(() -> SharedConfig.unzip(b.toByteArray())).hasMessageContaining("exceeds 256 MiB");
    }

    @Test
    void quotedLookalikesSurviveTheRoundTrip(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        java.nio.file.Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        String text = """
                instance: {name: "08", datacenter: "yes"}
                dns: {listen: ["[::1]:0"]}
                zones: [{file: example.com.zone}]
                datacenters: ["yes", "no", "null"]
                virtual-servers:
                  - {name: "true", address: 198.18.2.10, datacenter: "yes"}
                  - {name: "0x10", address: 198.18.3.10, datacenter: "no"}
                pools:
                  - {name: "1e3", members: ["true", "0x10"]}
                wide-ips:
                  - {name: www.example.com, pools: ["1e3"]}
                """;
        java.nio.file.Files.writeString(dir.resolve("gslb.yaml"), text);
        GslbConfig c = ConfigLoader.load(dir.resolve("gslb.yaml"));
        GslbConfig peer = asPeerLoads(c, dir.resolve("peer"));
        assertThat(peer.dataCenters()).isEqualTo(c.dataCenters());
        assertThat(peer.wideIps()).isEqualTo(c.wideIps());
        assertThat(peer.instance()).isEqualTo(c.instance());
        assertThat(peer.dns()).isEqualTo(c.dns());
    }

    /** A key pair given as files travels whole: the .private as named, the .key beside it, both in the bundle. */
    @Test
    void aZonesKeyFilesTravelWithTheirPublicHalves(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        java.nio.file.Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        java.nio.file.Path keys = java.nio.file.Files.createDirectories(dir.resolve("keys"));
        dev.gslb.dns.dnssec.KeyFile ksk = dev.gslb.dns.dnssec.KeyFile.generate(
                        org.xbill.DNS.Name.fromString("example.com."),
                        dev.gslb.dns.dnssec.KeyFile.ECDSAP256SHA256,
                        dev.gslb.dns.dnssec.KeyFile.KSK_FLAGS,
                        dev.gslb.dns.dnssec.KeyTimings.NONE)
                .write(keys);
        String text = """
                instance: {name: a, datacenter: CNC}
                zones: [{file: example.com.zone, dnssec: {ksk-file: keys/%s}}]
                datacenters: [CNC]
                """.formatted(ksk.privateFile().getFileName());
        java.nio.file.Files.writeString(dir.resolve("gslb.yaml"), text);
        GslbConfig c = ConfigLoader.load(dir.resolve("gslb.yaml"));
        SharedConfig shared = SharedConfig.of(c.source());
        assertThat(shared.files().keySet())
                .containsExactlyInAnyOrder(
                        "files/zones/0/example.com.zone",
                        "files/zones/0/ksk-file/" + ksk.privateFile().getFileName(),
                        "files/zones/0/ksk-file/"
                                + dev.gslb.dns.dnssec.KeyFile.publicFile(ksk.privateFile())
                                        .getFileName());
        GslbConfig peer = asPeerLoads(c, dir.resolve("peer"));
        Path read = peer.zones().getFirst().dnssec().kskFile();
        assertThat(read).startsWith(dir.resolve("peer"));
        assertThat(dev.gslb.dns.dnssec.KeyFile.read(read).dnskey()).isEqualTo(ksk.dnskey());
    }

    /** {@code c} as a peer loads it: its shared part written to {@code folder} and merged into its local part. */
    static GslbConfig asPeerLoads(GslbConfig c, Path folder) throws Exception {
        SharedConfig shared = SharedConfig.of(c.source());
        shared.writeTo(folder);
        return ConfigLoader.parse(
                "peer",
                new PeerBundle(shared, folder).mergedInto(c.source()),
                c.source().base());
    }
}
