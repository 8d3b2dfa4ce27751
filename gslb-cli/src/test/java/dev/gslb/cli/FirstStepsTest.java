package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.config.ConfigLoader;
import dev.gslb.config.GslbConfig;
import dev.gslb.server.GslbServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What a new user meets first: help, the --admin forms, plain one-line errors, start-up failures. */
class FirstStepsTest {
    private static GslbServer server;
    private static String admin; // host:port

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        server = Isolated.started();
        admin = server.admin().address();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static TopologyCommandTest.Run gslb(String... args) {
        return TopologyCommandTest.gslb(args);
    }

    /** A user error is one line on stderr: no Java stack trace. */
    static void plainError(TopologyCommandTest.Run r, String message) {
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains(message).doesNotContain("\tat ", "Exception");
    }

    @Test
    void everySubcommandAnswersHelp() {
        List<String> paths = new ArrayList<>();
        collect(Gslb.commandLine(), List.of(), paths);
        assertThat(paths).contains("topology lookup", "peer join", "config check", "serve");
        for (String path : paths) {
            List<String> args = new ArrayList<>(List.of(path.split(" ")));
            args.add("--help");
            TopologyCommandTest.Run r = gslb(args.toArray(String[]::new));
            assertThat(r.exit()).as(path + " --help").isZero();
            assertThat(r.out()).as(path + " --help").contains("Usage: gslb " + path);
        }
        TopologyCommandTest.Run deep = gslb("help", "topology", "lookup");
        assertThat(deep.exit()).isZero();
        assertThat(deep.out()).contains("Usage: gslb topology lookup", "--data");
        plainError(gslb("help", "topology", "nope"), "no command 'nope' under 'gslb topology'");
    }

    @Test
    void versionNamesTheRevision() {
        TopologyCommandTest.Run r = gslb("--version");
        assertThat(r.exit()).isZero();
        // a build outside git cannot know its revision, and says so
        assertThat(r.out()).containsPattern("^gslb \\d+\\.\\d+\\.\\d+\\S*\\nrevision ([0-9a-f]{10}|unknown)");
        assertThat(r.out()).contains("Java " + Runtime.version().feature());
    }

    private static void collect(CommandLine c, List<String> prefix, List<String> out) {
        c.getSubcommands().forEach((name, sub) -> {
            List<String> p = new ArrayList<>(prefix);
            p.add(name);
            if (!name.equals("help")) {
                out.add(String.join(" ", p));
                collect(sub, p, out);
            }
        });
    }

    @Test
    void theAdminAddressIsWrittenOneWayEverywhere() {
        String hostPort = admin;
        for (String form : List.of(hostPort, "http://" + hostPort, "http://" + hostPort + "/")) {
            assertThat(gslb("topology", "list", "--admin", form).exit())
                    .as(form)
                    .isZero();
        }
        assertThat(AdminOption.listenAddress("http://127.0.0.1:6080/"))
                .isEqualTo(AdminOption.listenAddress("127.0.0.1:6080"));
        assertThat(AdminOption.baseUrl("[::1]")).isEqualTo("http://[::1]:8053");
        System.setProperty("GSLB_ADMIN", hostPort); // picocli reads ${GSLB_ADMIN} from properties, then the environment
        try {
            assertThat(gslb("topology", "list").exit()).isZero();
        } finally {
            System.clearProperty("GSLB_ADMIN");
        }
        plainError(gslb("topology", "list", "--admin", "a b c"), "--admin a b c: expected host:port");
        plainError(
                gslb("topology", "list", "--admin", "127.0.0.1:1"), "cannot reach the admin API at http://127.0.0.1:1");
    }

    @Test
    void onlyARefusedChangeSaysNothingChanged() throws Exception {
        TopologyCommandTest.Run lookup = gslb("topology", "lookup", "999.1.1.1", "--admin", admin);
        plainError(lookup, "'999.1.1.1' is not an IPv4 or IPv6 address");
        assertThat(lookup.err()).doesNotContain("nothing was changed");
        Path bad = dir.resolve("cmcc.txt");
        Files.writeString(bad, "198.18.0.7/15\n");
        TopologyCommandTest.Run load = gslb("topology", "load", bad.toString(), "--admin", admin);
        plainError(load, "nothing was changed; the table in service is the previous one");
    }

    @Test
    void aBinaryFileIsRefusedInOneLine() throws Exception {
        Path bin = dir.resolve("unicom.txt");
        Files.write(bin, new byte[] {'1', '.', 0, 2, 3, '\n', 'x'});
        TopologyCommandTest.Run r = gslb("topology", "load", bin.toString(), "--admin", admin);
        plainError(r, bin + ": binary file (NUL bytes); expected text");
        assertThat(r.err().lines().filter(l -> l.contains(bin.toString()))).hasSize(1);
    }

    @Test
    void aFileThatIsNoListIsSaidSoInOneLine() {
        TopologyCommandTest.Run r = gslb("topology", "load", "../zones/example.com.zone", "--admin", admin);
        plainError(r, "example.com.zone: not a CIDR list: none of its");
        // One line for the file (the server's own log lines may share stderr here), not one per line of it.
        assertThat(r.err()).contains("example.com.zone:1:").doesNotContain("example.com.zone:2:");
    }

    @Test
    void aDataFolderWithTheListsOneLevelDownSaysSo() {
        TopologyCommandTest.Run r = gslb("topology", "lookup", "--data", "../topology-data", "202.106.0.20");
        plainError(r, "sub-folders are not read: ../topology-data/china-operator-ip");
    }

    @Test
    void storeMovesOnlyTheTableAndStateDirMovesAllState() throws Exception {
        GslbConfig c = ConfigLoader.loadEmbedded(Path.of(".."));
        GslbConfig store = c.withStore(dir.resolve("elsewhere/proximity"));
        assertThat(store.probing().store()).isEqualTo(dir.resolve("elsewhere/proximity"));
        assertThat(store.sync().peersFile()).isEqualTo(c.sync().peersFile());
        assertThat(store.sync().identityFile()).isEqualTo(c.sync().identityFile());
        assertThat(store.admin().tokenFile()).isEqualTo(c.admin().tokenFile());
        GslbConfig state = c.withStateDir(dir);
        assertThat(List.of(
                        state.probing().store(),
                        state.sync().peersFile(),
                        state.sync().identityFile(),
                        state.admin().tokenFile()))
                .allMatch(p -> p.getParent().equals(dir));
    }

    @Test
    void configCheckRefusesWhatServeRefuses() throws Exception {
        Path lists = Files.createDirectory(dir.resolve("lists"));
        String yaml = Files.readString(Path.of("../gslb-config/src/main/resources/default-config.yaml"))
                .replace("topology-data/china-operator-ip", lists.toString());
        Files.writeString(lists.resolve("lab.txt"), "198.18.0.0/15\n");
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path file = dir.resolve("gslb.yaml");
        Files.writeString(file, yaml.replace("file: zones/example.com.zone", "file: example.com.zone"));
        TopologyCommandTest.Run check = gslb("config", "check", file.toString());
        plainError(check, ServeCommand.TOPOLOGY_REFUSED);
        assertThat(check.err()).contains("no region named 'chinanet' is loaded");
        assertThatThrownBy(() -> new GslbServer(Isolated.of(ConfigLoader.load(file))))
                .hasMessageContaining("no region named 'chinanet' is loaded");
    }

    @Test
    void aListenerInUseIsNamedWithWhatToDo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            GslbConfig c = Isolated.embedded();
            GslbConfig clash = c.withListeners(c.dns(), (InetSocketAddress) taken.getLocalSocketAddress());
            assertThatThrownBy(() -> new GslbServer(clash).close())
                    .hasMessageContaining("cannot listen for the admin API on 127.0.0.1:" + taken.getLocalPort())
                    .hasMessageContaining("admin.listen / serve --admin");
        }
    }
}
