package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.dns.zone.TransferSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Name;

/**
 * {@code tsig-keys:} and a zone's {@code transfer:} bind; a secret file others may read, a key not
 * defined, a bad secret, a transfer of a signed zone and one with nobody allowed are refused at
 * their line, and a key's secret shows nowhere in the config's text form.
 */
class TransferConfigTest {
    @TempDir
    Path dir;

    private static final String SECRET = "YSAzMi1ieXRlIHNlY3JldCBmb3IgdGhlIHRlc3RzISE=";

    private Path config(String tsigKeys, String transfer) throws Exception {
        return ConfigLoaderTest.config(
                dir,
                ConfigLoaderTest.GOOD.replace(
                        "zones:\n  - file: example.com.zone\n",
                        tsigKeys + "zones:\n  - file: example.com.zone\n    transfer: " + transfer + "\n"));
    }

    @Test
    void keysAndTransferBind() throws Exception {
        Path secret = dir.resolve("xfr.secret");
        Files.writeString(secret, SECRET + "\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        GslbConfig c = ConfigLoader.load(config(
                "tsig-keys:\n  - {name: xfr, secret-file: xfr.secret}\n  - {name: old, algorithm: hmac-sha1, secret: "
                        + SECRET + "}\n",
                "{allow: [198.18.0.0/24], tsig: [xfr], notify: [198.18.0.2, \"198.18.0.3:5300\"]}"));
        assertThat(c.tsigKeys().names()).containsExactlyInAnyOrder(Name.fromString("xfr."), Name.fromString("old."));
        assertThat(c.tsigKeys().find(Name.fromString("xfr.")).toString()).doesNotContain(SECRET);
        TransferSettings t = c.zones().getFirst().transfer();
        assertThat(t.tsig()).containsExactly(Name.fromString("xfr."));
        assertThat(t.notifyAddresses()).extracting(a -> a.getPort()).containsExactly(53, 5300);
        assertThat(t.permits(java.net.InetAddress.ofLiteral("198.18.0.2"), Name.fromString("xfr.")))
                .isTrue();
        assertThat(t.permits(java.net.InetAddress.ofLiteral("198.18.0.2"), null))
                .isFalse();
        assertThat(t.permits(java.net.InetAddress.ofLiteral("198.18.1.2"), Name.fromString("xfr.")))
                .isFalse();
    }

    private Path secondary(String entry) throws Exception {
        return ConfigLoaderTest.config(
                dir,
                ConfigLoaderTest.GOOD.replace(
                        "zones:\n  - file: example.com.zone\n",
                        "tsig-keys:\n  - {name: xfr, secret: " + SECRET + "}\nzones:\n  - file: example.com.zone\n  - "
                                + entry + "\n"));
    }

    @Test
    void aSecondaryZoneBindsAsAStandInThatAnswersServfailUntilItsFirstTransfer() throws Exception {
        GslbConfig c = ConfigLoader.load(
                secondary("{origin: example.net, primary: [198.18.0.10, \"[2001:db8::10]:5300\"], tsig: xfr,"
                        + " transfer: {allow: [198.18.0.0/24]}}"));
        var z = c.zones().get(1);
        assertThat(z.origin()).isEqualTo(Name.fromString("example.net."));
        assertThat(z.expired()).as("not transferred yet").isTrue();
        assertThat(z.secondary().primaries()).extracting(a -> a.getPort()).containsExactly(53, 5300);
        assertThat(z.secondary().tsig()).isEqualTo(Name.fromString("xfr."));
        assertThat(z.transfer()).as("offered on to secondaries of ours").isNotNull();

        assertThatThrownBy(() -> ConfigLoader.load(
                        secondary("{origin: example.net, primary: [198.18.0.10], file: example.com.zone}")))
                .hasMessageContaining("'file:' or 'primary:', not both");
        assertThatThrownBy(() -> ConfigLoader.load(secondary("{primary: [198.18.0.10]}")))
                .hasMessageContaining("needs 'origin:'");
        assertThatThrownBy(
                        () -> ConfigLoader.load(secondary("{origin: example.net, primary: [198.18.0.10], dnssec: {}}")))
                .hasMessageContaining("signed by its primary");
        assertThatThrownBy(() ->
                        ConfigLoader.load(secondary("{origin: example.net, primary: [198.18.0.10], tsig: other}")))
                .hasMessageContaining("other.")
                .hasMessageContaining("does not define");
        assertThatThrownBy(() -> ConfigLoader.load(secondary("{origin: example.net, primary: [ns1.example.org]}")))
                .hasMessageContaining("gslb.yaml:11:")
                .hasMessageContaining("not an address");
        assertThatThrownBy(() -> ConfigLoader.load(secondary("{origin: example.net, primary: []}")))
                .hasMessageContaining("lists no address");
    }

    @Test
    void aCatalogZoneBindsWithItsTransferAndNothingElse() throws Exception {
        GslbConfig c =
                ConfigLoader.load(secondary("{origin: catalog.example.net, catalog: true, transfer: {tsig: [xfr]}}"));
        assertThat(c.zones().get(1).catalog()).isTrue();
        assertThatThrownBy(() -> ConfigLoader.load(secondary("{origin: catalog.example.net, catalog: true}")))
                .hasMessageContaining("give it 'transfer:'");
        assertThatThrownBy(
                        () -> ConfigLoader.load(
                                secondary(
                                        "{origin: catalog.example.net, catalog: true, file: example.com.zone, transfer: {tsig: [xfr]}}")))
                .hasMessageContaining("records are made here");
        assertThatThrownBy(() -> ConfigLoader.load(secondary("{catalog: true, transfer: {tsig: [xfr]}}")))
                .hasMessageContaining("needs 'origin:'");
    }

    @Test
    void mistakesAreRefusedWhereTheyAreWritten() throws Exception {
        Path open = dir.resolve("open.secret");
        Files.writeString(open, SECRET);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> ConfigLoader.load(
                        config("tsig-keys:\n  - {name: xfr, secret-file: open.secret}\n", "{tsig: [xfr]}")))
                .hasMessageContaining("gslb.yaml")
                .hasMessageContaining("open.secret");
        assertThatThrownBy(() -> ConfigLoader.load(config("", "{tsig: [nokey]}")))
                .hasMessageContaining("gslb.yaml:9:")
                .hasMessageContaining("nokey.");
        assertThatThrownBy(() ->
                        ConfigLoader.load(config("tsig-keys:\n  - {name: xfr, secret: c2hvcnQ=}\n", "{tsig: [xfr]}")))
                .hasMessageContaining("at least 16");
        assertThatThrownBy(() -> ConfigLoader.load(config(
                        "tsig-keys:\n  - {name: xfr, algorithm: hmac-md5, secret: " + SECRET + "}\n", "{tsig: [xfr]}")))
                .hasMessageContaining("hmac-sha256");
        assertThatThrownBy(() -> ConfigLoader.load(config("", "{notify: [198.18.0.2]}")))
                .hasMessageContaining("needs 'allow:'");
        assertThatThrownBy(() -> ConfigLoader.load(config("", "{allow: [198.18.0.0/24], notify: [ns2.example.net]}")))
                .hasMessageContaining("not an address");
        assertThatThrownBy(() -> ConfigLoader.load(config("", "{allow: [198.18.0.0/24]}\n    dnssec: {}")))
                .hasMessageContaining("not offered for transfer");
    }
}
