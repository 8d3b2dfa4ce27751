package dev.gslb.topology.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.topology.TopologyException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BindViewsTest {
    static final String NAMED = """
            // two ISPs and the rest, as smart-DNS set-ups write it
            include "acl-tel.conf";
            acl "cnc" { 202.106.0.0/16; 123.112/12; };
            options { directory "/var/cache/bind"; recursion no; };
            view "tel" {
                match-clients { !10.0.0.0/8; tel; key "xfer"; };
                zone "example.com" { type master; file "tel/example.com"; };
            };
            view cnc IN {
                match-clients { cnc; 219.172.5.0/24; };   /* inside tel's /16: BIND never reaches it here */
                match-destinations { 127.0.0.1; };
                zone "example.com" { type master; file "cnc/example.com"; };
            };
            view "other" { match-clients { any; }; };
            """;

    static Map<String, String> files(String named) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("/etc/bind/named.conf", named);
        m.put("/etc/bind/acl-tel.conf", "acl tel { 219.172.0.0/16; 10.1.0.0/16; };\n");
        return m;
    }

    @Test
    void viewsBecomeRegionsInBindsOrder() throws Exception {
        BindViews b = BindViews.read(files(NAMED));
        assertThat(b.views()).extracting(BindViews.View::name).containsExactly("tel", "cnc", "other");
        assertThat(b.views().get(0).prefixes())
                .as("10.1/16 is negated before tel's acl names it")
                .containsExactly("219.172.0.0/16");
        assertThat(b.views().get(1).prefixes())
                .as("123.112/12 is the short form; 219.172.5.0/24 is shadowed by view tel")
                .containsExactly("123.112.0.0/12", "202.106.0.0/16");
        assertThat(b.views().get(2).prefixes()).isEmpty();
        assertThat(b.views().get(2).matchesAll()).isTrue();
        assertThat(b.notTranslated())
                .anyMatch(l -> l.contains("named.conf:6") && l.contains("'key'"))
                .anyMatch(l -> l.contains("match-destinations"));
        List<String> notes = new ArrayList<>();
        Map<String, String> t =
                b.topology(Map.of("other", "CNC"), Set.of("CNC", "TEL"), notes).texts();
        assertThat(t.get("bind-views.topology"))
                .contains("dc.\"TEL\"   region.\"view-tel\"   100", "dc.\"CNC\"   region.\"view-cnc\"   100")
                .doesNotContain("view-other");
        assertThat(notes).singleElement().asString().contains("view other matches every other address");
        assertThat(TopologyFiles.parse(t, null)).hasSize(3); // the lists and the records all load
    }

    @Test
    void whatCannotBeReadNamesFileAndLine() {
        assertThatThrownBy(() -> BindViews.read(files("view x { match-clients { nonsense; }; };\n")))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("named.conf:1: 'nonsense' is neither an address");
        assertThatThrownBy(() -> BindViews.read(Map.of("named.conf", "include \"missing.conf\";\n")))
                .hasMessageContaining("named.conf:1: include \"missing.conf\" was not given");
        assertThatThrownBy(
                        () -> BindViews.read(files("view x { match-clients { 10.0.0.0/" + "9".repeat(40) + "; }; };")))
                .as("the address library overflowed on this length")
                .hasMessageContaining("is neither an address");
        assertThatThrownBy(() -> BindViews.read(Map.of("named.conf", "options { };\n")))
                .hasMessageContaining("no view");
    }

    @Test
    void hostileFilesAreRefusedOrCutCheaply() throws Exception {
        // each self-include re-read the whole file: three of them nested eight deep was 3^9 passes
        assertThatThrownBy(() -> BindViews.read(Map.of("named.conf", "include \"named.conf\";\n".repeat(3))))
                .hasMessageContaining("named.conf:1: include \"named.conf\" includes itself");
        String deep = "{ ".repeat(40) + "10.0.0.0/8;" + " }".repeat(40);
        assertThatThrownBy(() -> BindViews.read(files("view x { match-clients { " + deep + " }; };\n")))
                .hasMessageContaining("nest more than 16 deep");
        // 2,000 single addresses taken out of everything: cut by halving, one piece per bit at most
        StringBuilder holes = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            holes.append("!2001:db8::").append(Integer.toHexString(i)).append("; ");
        }
        BindViews b = BindViews.read(files("view x { match-clients { " + holes + "2001:db8::/32; }; };\n"));
        List<String> left = b.views().getFirst().prefixes();
        assertThat(left).doesNotContain("2001:db8::/128").contains("2001:db8::8000/113", "2001:db8:8000::/33");
        assertThat(left.size()).isLessThan(2000 * 128);
    }

    /**
     * Includes of empty files added nothing, so no bound on what was read stopped them: three
     * files of 400 includes each, over an empty one, were 64,000,000 includes (10 s of CPU). Every
     * include counts now, and every character read each time its file is.
     */
    @Test
    void anIncludeTreeIsRefusedAtTheIncludeThatCrossesTheBound() {
        Map<String, String> tree = new LinkedHashMap<>();
        tree.put("named.conf", "include \"a.conf\";\n".repeat(400) + "view x { match-clients { 10/8; }; };\n");
        tree.put("a.conf", "include \"b.conf\";\n".repeat(400));
        tree.put("b.conf", "include \"c.conf\";\n".repeat(400));
        tree.put("c.conf", "");
        long cpu = cpu(() -> assertThatThrownBy(() -> BindViews.read(tree))
                .isInstanceOf(TopologyException.class)
                // include 10,001: named.conf:1 took a.conf, whose every line takes b.conf's 400 (401 each)
                .hasMessage("b.conf:375: include \"c.conf\": more than 10000 includes in all (each one counts, an"
                        + " empty file's too): too many"));
        System.out.printf("include tree of 3 x 400 includes: refused after %.1f ms of CPU%n", cpu / 1e6);

        Map<String, String> big = new LinkedHashMap<>();
        big.put("named.conf", "include \"comments.conf\";\n".repeat(100));
        big.put("comments.conf", "# " + "x".repeat(1 << 20) + "\n"); // 1 MiB of comment, read again each time
        cpu = cpu(() -> assertThatThrownBy(() -> BindViews.read(big))
                .hasMessage("named.conf:64: include \"comments.conf\": more than 67108864 characters read in all (a"
                        + " file counts each time it is included): too large"));
        System.out.printf("1 MiB included 100 times: refused after %.1f ms of CPU%n", cpu / 1e6);
    }

    /** The CPU time this thread spends in {@code r}, in ns (a figure to print, not to assert). */
    private static long cpu(Runnable r) {
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = mx.getCurrentThreadCpuTime();
        r.run();
        return mx.getCurrentThreadCpuTime() - start;
    }
}
