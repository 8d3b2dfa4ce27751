package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JavaType;
import dev.gslb.settings.SettingsException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A configuration from a peer may hold only the shared sections and name only the files it carries. */
class PeerBundleTest {
    static final GslbConfig.ConfigText LOCAL = new GslbConfig.ConfigText(
            "gslb.yaml",
            "instance: {name: b}\nalerts: [{on: [server-down], exec: [/usr/local/bin/page]}]\nzones: [{file: mine.zone}]\n",
            Path.of("/etc/gslb"));
    static final Path AT = Path.of("/var/lib/gslb/config/shared-0123456789abcdef");

    static PeerBundle bundle(String yaml, String... files) {
        TreeMap<String, byte[]> f = new TreeMap<>();
        for (String name : files) {
            f.put(name, "x".getBytes(StandardCharsets.UTF_8));
        }
        return new PeerBundle(new SharedConfig(yaml, f), AT);
    }

    @Test
    void everyFileItNamesIsOneItCarries() throws Exception {
        String merged = bundle(
                        "zones: [{file: files/zones/0/a.zone}]\ntopology: {data: files/topology/0}\n",
                        "files/zones/0/a.zone",
                        "files/topology/0/cnc.txt")
                .mergedInto(LOCAL);
        assertThat(merged)
                .contains(AT.resolve("files/zones/0/a.zone").toString())
                .contains(AT.resolve("files/topology/0").toString())
                .doesNotContain("mine.zone")
                .as("the instance's own part stays")
                .contains("/usr/local/bin/page");
        String good = "files/topology/0/cnc.txt";
        for (String bad : List.of(
                "/var/lib/gslb/admin.token",
                "../var/admin.token",
                "files/../../admin.token",
                "var/admin.token",
                "files/zones/0/other.zone",
                "files/topology/1")) {
            for (var named : java.util.Map.of(
                            "zones[0].file",
                            "zones: [{file: \"" + bad + "\"}]\n",
                            "topology.data[1]",
                            "zones: [{file: files/zones/0/a.zone}]\ntopology: {data: [" + good + ", \"" + bad
                                    + "\"]}\n",
                            "zones[0].dnssec.ksk-file",
                            "zones: [{file: files/zones/0/a.zone, dnssec: {ksk-file: \"" + bad + "\"}}]\n")
                    .entrySet()) {
                String key = named.getKey();
                String yaml = named.getValue();
                assertThatThrownBy(
                                () -> bundle(yaml, "files/zones/0/a.zone", good).mergedInto(LOCAL))
                        .isInstanceOf(SettingsException.class)
                        .hasMessageContaining(key + ": '" + bad + "' is not a file of this configuration");
            }
        }
    }

    @Test
    void itHoldsNoKeyThisInstanceKeepsForItself() {
        for (String key : List.of("alerts", "monitor-programs", "probe", "admin", "instance", "sync", "config")) {
            assertThatThrownBy(() -> bundle("zones: []\n" + key + ": {}\n").mergedInto(LOCAL))
                    .hasMessageContaining("'" + key + "' is not a shared section");
        }
    }

    @Test
    void aRefusalNamesTheBundlesFilesByTheirNamesInIt() {
        String why = bundle("{}")
                .refusal(new SettingsException(AT.resolve("files/topology/0/cnc.txt") + ":3: 'x' is not a CIDR"));
        assertThat(why).isEqualTo("files/topology/0/cnc.txt:3: 'x' is not a CIDR");
    }

    /**
     * {@link SharedConfig#renameFiles} is the one place that knows which keys of the shared
     * sections name files; a new one (a Path in a shared section's record) must be added there,
     * or a peer could name a path of this host with it.
     */
    @Test
    void everyKeyThatNamesAFileIsOneTheBundleConfines() {
        List<String> files = new ArrayList<>();
        for (ConfigSections.Entry e : ConfigSections.ALL) {
            if (e.scope() == ConfigSections.Scope.SHARED) {
                JavaType type = e.section().type(); // a record, or a list of them
                Class<?> entry =
                        type.isCollectionLikeType() ? type.getContentType().getRawClass() : type.getRawClass();
                paths(e.section().key(), entry, files, 0);
            }
        }
        assertThat(files)
                .containsExactlyInAnyOrder(
                        "zones.file", "zones.dnssec.kskFile", "zones.dnssec.zskFile", "topology.data");
    }

    private static void paths(String at, Type type, List<String> out, int depth) {
        if (type instanceof ParameterizedType p) {
            for (Type arg : p.getActualTypeArguments()) {
                paths(at, arg, out, depth);
            }
        } else if (type == Path.class) {
            out.add(at);
        } else if (type instanceof Class<?> k && k.isRecord() && depth < 6) {
            for (RecordComponent c : k.getRecordComponents()) {
                paths(at + "." + c.getName(), c.getGenericType(), out, depth + 1);
            }
        }
    }

    /**
     * A secret named by file in a peer's configuration is read on this host, from this instance's
     * configuration folder only: never its state folder (the sync key), never elsewhere.
     */
    @Test
    void aSecretFileItNamesIsReadOnlyFromThisInstancesConfigurationFolder(@TempDir Path dir) throws Exception {
        Path etc = Files.createDirectories(dir.resolve("etc"));
        secret(etc.resolve("secrets/ftp"), "this-hosts-password");
        secret(etc.resolve("var/sync-identity.pem"), "the sync key");
        secret(dir.resolve("elsewhere"), "not for peers");
        Files.copy(Path.of("../zones/example.com.zone"), etc.resolve("example.com.zone"));
        String zones = "zones: [{file: example.com.zone}]\ndatacenters: [CNC]\n";
        GslbConfig local = ConfigLoader.parse(
                "gslb.yaml", "instance: {name: b, datacenter: CNC}\nsync: {peers-file: var/peers}\n" + zones, etc);
        String monitors = """
                monitors: [{name: files, type: ftp, user: m, password-file: "%s"}]
                virtual-servers: [{name: v, address: 192.0.2.1, datacenter: CNC, monitors: [files]}]
                """;
        GslbConfig ok = fromPeer(dir, zones + monitors.formatted("secrets/ftp")).over(local, "generation 2");
        assertThat(((dev.gslb.probe.health.ProtocolCheck)
                                ok.health().getFirst().monitors().getFirst().check())
                        .password())
                .isEqualTo("this-hosts-password");
        for (String bad : List.of(
                "var/sync-identity.pem",
                "../elsewhere",
                dir.resolve("elsewhere").toString())) {
            PeerBundle refused = fromPeer(dir, zones + monitors.formatted(bad));
            assertThatThrownBy(() -> refused.over(local, "generation 2"))
                    .isInstanceOf(SettingsException.class)
                    .hasMessageContaining("a peer's configuration reads secrets only from files in this instance's"
                            + " configuration folder")
                    .hasMessageNotContaining("sync key")
                    .hasMessageNotContaining("not for peers");
        }
    }

    /** What a peer whose file says {@code yaml} sends, written where the sync group writes it. */
    static PeerBundle fromPeer(Path dir, String yaml) throws Exception {
        SharedConfig content = SharedConfig.of(new GslbConfig.ConfigText("peer.yaml", yaml, Path.of("../zones")));
        Path at = dir.resolve("state/config/shared-" + content.digest().substring(0, 16));
        if (!Files.exists(at)) {
            content.writeTo(at);
        }
        return new PeerBundle(content, at);
    }

    static void secret(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text + "\n");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }
}
