package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.GslbConfig;
import dev.gslb.config.PeerBundle;
import dev.gslb.config.SharedConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The manual (README.md and docs/*.md) shows only what works. Every ```yaml block loads with the
 * real loader: a block with a top-level {@code zones:} is a whole configuration and loads as it is;
 * any other block is sections that, put over the embedded default (replacing its sections of the
 * same name), load; a block whose first line is {@code # fragment} is not a configuration and is
 * not loaded. Relative paths resolve against the repository (its zones/, topology-data/ and
 * systest/). Each configuration also goes through what a sync group does with it and comes back
 * the same. Every {@code gslb} command a ```sh or ```console block or an inline code span shows
 * names a command that exists, with options it has, and its {@code --help} succeeds.
 */
class ManualTest {
    private static final Pattern FENCE = Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```", Pattern.DOTALL);
    private static final Pattern INLINE = Pattern.compile("`((?:\\./)?gslb [^`]+)`");
    /** The reference ConfigReference generates into docs/configuration.md. */
    private static final Pattern GENERATED = Pattern.compile("(?s)<!-- BEGIN generated .*?<!-- END generated[^>]*-->");
    /** What may stand before the command on a line: a prompt, sudo, a namespace or a container. */
    private static final Pattern PREFIX =
            Pattern.compile("^(\\$ )?(sudo )?(ip netns exec \\S+ )?(docker exec \\S+ )?(?<command>(\\./)?gslb( |$).*)");

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    static Path dir;

    /** A place whose relative paths are the repository's, with the program the examples' external monitors run. */
    @BeforeAll
    static void folder() throws Exception {
        for (String shared : new String[] {"zones", "topology-data", "systest"}) {
            Files.createSymbolicLink(dir.resolve(shared), ROOT.resolve(shared));
        }
        Path program = Files.createDirectories(dir.resolve("monitor-programs")).resolve("check-vip");
        Files.writeString(program, "#!/bin/sh\nexit 0\n");
        assertThat(program.toFile().setExecutable(true)).isTrue();
    }

    /** A fenced block of a page: its language, text and the line it starts at. */
    record Block(Path page, int line, String language, String text) {
        String where() {
            return ROOT.relativize(page) + ":" + line;
        }
    }

    static List<Path> pages() throws Exception {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    static List<Block> blocks(String language) throws Exception {
        List<Block> blocks = new ArrayList<>();
        for (Path page : pages()) {
            String text = Files.readString(page);
            Matcher m = FENCE.matcher(text);
            while (m.find()) {
                if (m.group(1).equals(language)) {
                    int line = (int) text.substring(0, m.start()).lines().count() + 2;
                    blocks.add(new Block(page, line, m.group(1), m.group(2)));
                }
            }
        }
        return blocks;
    }

    @Test
    void everyConfigurationOfTheManualLoads() throws Exception {
        List<Block> yamlBlocks = blocks("yaml");
        assertThat(yamlBlocks).as("the manual's configuration examples").hasSizeGreaterThanOrEqualTo(10);
        YAMLMapper yaml = new YAMLMapper();
        TypeReference<Map<String, Object>> mapping = new TypeReference<>() {};
        String embedded = Files.readString(ROOT.resolve("gslb-config/src/main/resources/default-config.yaml"));
        SoftAssertions softly = new SoftAssertions();
        int whole = 0;
        for (Block b : yamlBlocks) {
            if (b.text().startsWith("# fragment")) {
                continue;
            }
            Map<String, Object> sections = yaml.readValue(b.text(), mapping);
            String text;
            if (sections.containsKey("zones")) {
                text = b.text();
                whole++;
            } else {
                Map<String, Object> merged = new LinkedHashMap<>(yaml.readValue(embedded, mapping));
                merged.putAll(sections);
                text = yaml.writeValueAsString(merged);
            }
            try {
                GslbConfig c = ConfigLoader.parse(b.where(), text, dir);
                assertThat(c.zones()).as(b.where()).isNotEmpty();
                sharedAndBack(c, b);
            } catch (Exception | AssertionError e) {
                softly.fail(b.where() + ": this configuration does not load: " + e.getMessage() + "\n" + text);
            }
        }
        softly.assertAll();
        assertThat(whole).as("whole configurations in the manual").isGreaterThanOrEqualTo(1);
    }

    /** What a peer loads: the shared part, written out and merged into a local part, is the same deployment. */
    private static void sharedAndBack(GslbConfig c, Block b) throws Exception {
        SharedConfig shared = SharedConfig.of(c.source());
        Path at = Files.createTempDirectory(dir, "shared-");
        shared.writeTo(at);
        GslbConfig peer = ConfigLoader.parse("peer", new PeerBundle(shared, at).mergedInto(c.source()), dir);
        assertThat(peer)
                .as(b.where() + " as a peer loads it")
                .usingRecursiveComparison() // files now live elsewhere; a traffic source is built per load
                .ignoringFields("source", "topology.spec.data")
                .ignoringFieldsMatchingRegexes("links\\.traffic\\.source.*", ".*\\.origin")
                .isEqualTo(c);
        assertThat(new PeerBundle(SharedConfig.of(peer.source()), at).mergedInto(c.source()))
                .as(b.where() + ": a round trip changes nothing")
                .isEqualTo(new PeerBundle(shared, at).mergedInto(c.source()));
    }

    @Test
    void everyCommandOfTheManualExists() throws Exception {
        List<String[]> commands = new ArrayList<>(); // where, command
        for (String language : new String[] {"sh", "console"}) {
            for (Block b : blocks(language)) {
                String joined = b.text().replace("\\\n", " ");
                for (String line : joined.lines().toList()) {
                    Matcher m = PREFIX.matcher(line.strip());
                    if (m.matches()) {
                        commands.add(new String[] {b.where(), m.group("command")});
                    }
                }
            }
        }
        for (Path page : pages()) {
            // the generated reference is the settings tables' text (ConfigReferenceTest keeps it so):
            // its code spans are defaults, such as dnstap's `gslb and its version`, not commands
            Matcher m = INLINE.matcher(GENERATED.matcher(Files.readString(page)).replaceAll(""));
            while (m.find()) {
                // in a table a bar between alternatives is written \|: there it separates, it is no pipe
                commands.add(new String[] {
                    ROOT.relativize(page).toString(), m.group(1).replace(" \\| ", " ")
                });
            }
        }
        assertThat(commands).as("commands the manual shows").hasSizeGreaterThanOrEqualTo(50);
        SoftAssertions softly = new SoftAssertions();
        CommandLine gslb = Gslb.commandLine(); // one tree for every line: building it is the slow part
        StringWriter out = new StringWriter();
        gslb.setOut(new PrintWriter(out));
        gslb.setErr(new PrintWriter(out));
        for (String[] c : commands) {
            out.getBuffer().setLength(0);
            String problem = problem(gslb, out, c[1]);
            if (problem != null) {
                softly.fail(c[0] + ": `" + c[1] + "`: " + problem);
            }
        }
        softly.assertAll();
    }

    /** What is wrong with a command line the manual shows, or null. */
    static String problem(CommandLine gslb, StringWriter out, String line) {
        List<String> words = words(line);
        CommandLine cli = gslb;
        List<String> path = new ArrayList<>();
        int i = 1; // words[0] is gslb or ./gslb
        while (i < words.size() && cli.getSubcommands().containsKey(words.get(i))) {
            cli = cli.getSubcommands().get(words.get(i));
            path.add(words.get(i++));
        }
        CommandSpec spec = cli.getCommandSpec();
        if (i < words.size()
                && !words.get(i).startsWith("-")
                && !cli.getSubcommands().isEmpty()
                && spec.positionalParameters().isEmpty()) {
            return "'" + spec.qualifiedName() + "' has no command '" + words.get(i) + "'; it has "
                    + cli.getSubcommands().keySet();
        }
        for (String w : words.subList(i, words.size())) {
            for (String option : w.split("\\|")) {
                String name = option.split("=", 2)[0];
                if (name.matches("--?[A-Za-z][\\w-]*") && spec.findOption(name) == null) {
                    return "'" + spec.qualifiedName() + "' has no option " + name;
                }
            }
        }
        path.add("--help");
        int exit = gslb.execute(path.toArray(String[]::new));
        if (exit != 0 || !out.toString().contains("Usage: gslb")) {
            return "gslb " + String.join(" ", path) + " exits " + exit + ": " + out;
        }
        return null;
    }

    /** The words of a command line up to a pipe, a redirection, a comment or the next command. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        for (String w : line.split("\\s+")) {
            if (w.equals("#") || w.startsWith(">") || w.equals("|") || w.equals("&&") || w.equals(";")) {
                break;
            }
            String bare = w.replace("[", "").replace("]", "");
            if (!bare.isEmpty() && !bare.equals("...")) {
                words.add(bare);
            }
        }
        return words;
    }
}
