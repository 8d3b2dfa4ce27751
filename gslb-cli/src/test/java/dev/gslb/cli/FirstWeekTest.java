package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.api.Json;
import dev.gslb.api.PersistenceView;
import dev.gslb.server.GslbServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's first week with the CLI, against a real server started from a configuration with
 * a non-default admin port and its token in a state folder of its own: a command finds the server
 * with only --config (even when the configuration has a mistake elsewhere), a refused or missing
 * token says which file and what to do, bad arguments exit 2 with one line, removals and pairing
 * print JSON, and `gslb persist` lists and clears persistence entries over the admin API.
 */
class FirstWeekTest {
    @TempDir
    Path dir;

    GslbServer server;
    Path config;
    String savedTokenFile;

    @BeforeEach
    void start() throws Exception {
        savedTokenFile = System.getProperty("gslb.token-file");
        System.clearProperty("gslb.token-file"); // the CLI must find the token by the configuration alone
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        config = dir.resolve("gslb.yaml");
        Files.writeString(
                config,
                LoopbackConfig.local("a", "CNC")
                                .replace(
                                        "admin: {listen: \"127.0.0.1:0\"}",
                                        "admin: {listen: \"127.0.0.1:" + port + "\", token-file: state/admin.token}")
                        + LoopbackConfig.shared("").replace("pools: [www]}", "pools: [www], persistence-ttl: 10m}"));
        server = ConfigSyncTest.start(config);
        assertThat(server.admin().address()).isEqualTo("127.0.0.1:" + port);
        assertThat(dir.resolve("state/admin.token")).exists();
    }

    @AfterEach
    void stop() {
        server.close();
        if (savedTokenFile != null) {
            System.setProperty("gslb.token-file", savedTokenFile);
        }
    }

    static TopologyCommandTest.Run gslb(String... args) {
        return TopologyCommandTest.gslb(args);
    }

    @Test
    void aCommandFindsItsServerByTheConfigurationAlone() throws Exception {
        TopologyCommandTest.Run before = gslb("--config", config.toString(), "health");
        assertThat(before.exit()).as(before.err()).isZero();
        assertThat(before.out()).contains("cnc", "tel");
        TopologyCommandTest.Run after = gslb("health", "--config", config.toString(), "--json");
        assertThat(after.exit()).as(after.err()).isZero();
        assertThat(after.out()).contains("\"name\" : \"cnc\"");
        TopologyCommandTest.Run nested = gslb("--config", config.toString(), "topology", "list");
        assertThat(nested.exit())
                .as("a command whose options are a mixin's mixin: " + nested.err())
                .isZero();

        System.setProperty("GSLB_CONFIG", config.toString()); // as $GSLB_CONFIG (a property first, as picocli)
        try {
            TopologyCommandTest.Run env = gslb("stats", "--ldns");
            assertThat(env.exit()).as(env.err()).isZero();
            assertThat(env.out()).contains("LDNS");
        } finally {
            System.clearProperty("GSLB_CONFIG");
        }

        // a mistake after the admin section (a YAML syntax error even) does not hide the server
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, Files.readString(config) + "wide-ips: [ {name: \n  - ]]\n");
        TopologyCommandTest.Run despite = gslb("--config", broken.toString(), "maintenance");
        assertThat(despite.exit()).as(despite.err()).isZero();
        assertThat(despite.out()).contains("everything is enabled");
    }

    @Test
    void aMissingOrRefusedTokenSaysWhichFileAndWhatToDo() throws Exception {
        Path missing = dir.resolve("nothing-here");
        TopologyCommandTest.Run none = gslb("--config", config.toString(), "stats", "--token-file", missing.toString());
        assertThat(none.exit()).isEqualTo(1);
        assertThat(none.err()).contains(missing + " (--token-file) does not exist", "pass --token-file FILE");

        Path wrong = AdminHttp.tokenFile("0123456789abcdef0123456789");
        TopologyCommandTest.Run refused =
                gslb("--config", config.toString(), "stats", "--token-file", wrong.toString());
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err())
                .contains("refused the token in " + wrong + " (--token-file)", "admin.listen of " + config)
                .doesNotContain("delete it and restart");

        Path elsewhere = dir.resolve("elsewhere.yaml");
        Files.writeString(elsewhere, "admin: {listen: \"" + server.admin().address() + "\"}\n");
        TopologyCommandTest.Run unsent = gslb("--config", elsewhere.toString(), "stats");
        assertThat(unsent.exit()).isEqualTo(1);
        assertThat(unsent.err())
                .contains(
                        "asks for a token and none was sent", dir.resolve("var/admin.token") + " (the state folder of");
    }

    @Test
    void badArgumentsExitTwoWithOneLine() {
        TopologyCommandTest.Run missing = gslb("--config", config.toString(), "resolve", "www.example.com");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err().lines())
                .containsExactly("gslb: Missing required option: '--ldns=IP'", "see 'gslb resolve --help'");
        TopologyCommandTest.Run ip =
                gslb("--config", config.toString(), "resolve", "www.example.com", "--ldns", "notanip");
        assertThat(ip.exit()).isEqualTo(2);
        assertThat(ip.err()).contains("'notanip' is not an IPv4 or IPv6 address");
        TopologyCommandTest.Run type = gslb(
                "--config", config.toString(), "resolve", "www.example.com", "--ldns", "198.51.100.1", "--type", "MX");
        assertThat(type.exit()).isEqualTo(2);
        assertThat(type.err()).contains("a wide IP answers A or AAAA");
        TopologyCommandTest.Run help = gslb("help", "foo");
        assertThat(help.exit()).isEqualTo(2);
        assertThat(help.err()).contains("no command 'foo' under 'gslb'");
        TopologyCommandTest.Run ok = gslb(
                "--config",
                config.toString(),
                "resolve",
                "www.example.com",
                "--ldns",
                "198.51.100.1",
                "--type",
                "aaaa");
        assertThat(ok.exit()).as("aaaa is AAAA: " + ok.err()).isZero();
    }

    @Test
    void removalsAndPairingPrintJson() {
        String c = config.toString();
        TopologyCommandTest.Run ldns = gslb("--config", c, "ldns", "delete", "198.51.100.9", "--json");
        assertThat(ldns.exit()).isEqualTo(1);
        assertThat(ldns.out()).contains("\"removed\" : false", "198.51.100.9");
        TopologyCommandTest.Run peer = gslb("--config", c, "peer", "remove", "nobody", "--json");
        assertThat(peer.exit()).isEqualTo(1);
        assertThat(peer.out()).contains("\"removed\" : false");
        TopologyCommandTest.Run token = gslb("--config", c, "token", "remove", "nobody", "--json");
        assertThat(token.out()).contains("\"removed\" : false");
        TopologyCommandTest.Run pair = gslb("--config", c, "peer", "pair", "--json");
        assertThat(pair.exit()).as(pair.err()).isZero();
        assertThat(pair.out()).contains("\"token\"", "\"fingerprint\"");
    }

    @Test
    void persistListsAndClearsEntriesOverTheApi() throws Exception {
        String c = config.toString();
        String first = ConfigSyncTest.answerFrom(server, "127.0.42.1", "www.example.com.");
        assertThat(ConfigSyncTest.answerFrom(server, "127.0.42.2", "www.example.com."))
                .isEqualTo(first);
        ConfigSyncTest.answerFrom(server, "127.0.43.1", "www.example.com.");

        TopologyCommandTest.Run list = gslb("--config", c, "persist", "list", "--json");
        assertThat(list.exit()).as(list.err()).isZero();
        PersistenceView v = Json.MAPPER.readValue(list.out(), PersistenceView.class);
        assertThat(v.total()).isEqualTo(2);
        assertThat(v.entries()).extracting(PersistenceView.Entry::network).containsExactly("127.0.42.0", "127.0.43.0");
        assertThat(v.entries().getFirst().wideIp()).isEqualTo("www.example.com");
        assertThat(v.entries().getFirst().server()).isIn("cnc", "tel");
        TopologyCommandTest.Run one = gslb("--config", c, "persist", "list", "--limit", "1");
        assertThat(one.out()).contains("127.0.42.0", "1 of 2 entries").doesNotContain("127.0.43.0");

        TopologyCommandTest.Run clear =
                gslb("--config", c, "persist", "clear", "--wide-ip", "www.example.com", "--ldns", "127.0.42.200");
        assertThat(clear.exit()).as(clear.err()).isZero();
        assertThat(clear.out()).contains("cleared 1 entries of www.example.com, network 127.0.42.0/24");
        assertThat(gslb("--config", c, "persist", "list").out())
                .contains("127.0.43.0", "1 entries")
                .doesNotContain("127.0.42.0");
        assertThat(gslb("--config", c, "persist", "clear").out()).contains("cleared 1 entries of every wide IP");
        assertThat(gslb("--config", c, "persist", "list").out()).contains("no persistence entries");

        TopologyCommandTest.Run typo = gslb("--config", c, "persist", "list", "--wide-ip", "ww.example.com");
        assertThat(typo.exit()).isEqualTo(1);
        assertThat(typo.err()).contains("no wide IP is named ww.example.com; did you mean www.example.com?");
        assertThat(gslb("--config", c, "persist", "clear", "--ldns", "nope").exit())
                .isEqualTo(2);
        assertThat(gslb("--config", c, "audit").out())
                .as("audited like every change")
                .contains("POST /persist/clear www.example.com 127.0.42.0/24 -> 200", "1 entries cleared");
    }

    @Test
    void completionOffersTheServersNames() {
        TopologyCommandTest.Run script = gslb("completion", "bash");
        assertThat(script.exit()).isZero();
        assertThat(script.out())
                .contains("function _complete_gslb()", "persist", "--wide-ip) kind=wideip")
                .contains("complete -F _gslb_complete -o default gslb ./gslb");
        assertThat(gslb("completion", "zsh").out()).startsWith("#compdef gslb\n");
        assertThat(gslb("completion", "fish").exit()).isEqualTo(2);

        TopologyCommandTest.Run wideIps = gslb("completion", "--names", "wideip", "--config", config.toString());
        assertThat(wideIps.out().lines()).containsExactly("www.example.com");
        assertThat(gslb("completion", "--names", "pool", "--config", config.toString())
                        .out()
                        .lines())
                .containsExactly("www");
        assertThat(gslb("completion", "--names", "vs", "--config", config.toString())
                        .out()
                        .lines())
                .containsExactly("cnc", "tel");
        TopologyCommandTest.Run noServer = gslb("completion", "--names", "wideip", "--admin", "127.0.0.1:1");
        assertThat(noServer.exit()).isEqualTo(1);
        assertThat(noServer.out() + noServer.err()).as("quiet").isEmpty();
    }

    /** The script in bash, asking the real command (this build's classes) for the names. */
    @Test
    void bashCompletesWideIpsAndKinds() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path script = dir.resolve("completion.bash");
        Files.writeString(script, gslb("completion", "bash").out());
        Path wrapper = bin.resolve("gslb");
        Files.writeString(
                wrapper,
                "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -cp '"
                        + System.getProperty("java.class.path") + "' dev.gslb.cli.Gslb \"$@\"\n");
        wrapper.toFile().setExecutable(true);
        assertThat(complete(bin, script, "gslb", "resolve", "")).containsExactly("www.example.com");
        assertThat(complete(bin, script, "gslb", "disable", "")).contains("vs", "pool", "wideip");
        assertThat(complete(bin, script, "gslb", "disable", "vs", "")).containsExactly("cnc", "tel");
        assertThat(complete(bin, script, "gslb", "stats", "--wide-ip", "w")).containsExactly("www.example.com");
        assertThat(complete(bin, script, "gslb", "pers")).containsExactly("persist");
    }

    private java.util.List<String> complete(Path bin, Path script, String... words) throws Exception {
        String array = java.util.Arrays.stream(words)
                .map(w -> "'" + w + "'")
                .collect(java.util.stream.Collectors.joining(" "));
        String program = "source '" + script + "'; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; _gslb_complete;"
                + " printf '%s\\n' \"${COMPREPLY[@]}\"";
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", program).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("GSLB_CONFIG", config.toString());
        pb.environment().put("GSLB_COMPLETION_TIMEOUT", "120");
        pb.environment()
                .put(
                        "XDG_RUNTIME_DIR",
                        Files.createDirectories(dir.resolve("run")).toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        return out.lines().filter(l -> !l.isBlank()).map(String::strip).toList();
    }

    @Test
    void theHelpHasExamplesExitStatusFilesAndEnvironment() {
        String usage = Gslb.commandLine().getUsageMessage();
        assertThat(usage)
                .contains("Exit status:", "Examples:", "Files:", "Environment:", "GSLB_CONFIG", "/etc/gslb/gslb.yaml")
                .doesNotContain("== ");
        String persist = Gslb.commandLine()
                .getSubcommands()
                .get("persist")
                .getSubcommands()
                .get("clear")
                .getUsageMessage();
        assertThat(persist).contains("gslb persist clear --wide-ip www.example.com", "a bad or missing argument");
    }
}
