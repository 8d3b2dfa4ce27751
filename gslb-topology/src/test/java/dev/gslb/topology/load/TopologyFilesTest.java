package dev.gslb.topology.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.topology.Region;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyFilesTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void cidrListsTakeTheRegionFromTheFileAndJoinV6Lists() throws Exception {
        write("unicom.txt", "# China Unicom\n202.106.0.0/16\n\n221.192.0.0/14  # trailing comment\n");
        write("unicom6.txt", "2408::/16\n");
        List<TopologySource> s = TopologyFiles.read(TopologyFiles.expand(List.of(dir)), null);
        assertThat(TopologyFiles.countsByRegion(s)).containsExactly(Map.entry("unicom", 3));
        assertThat(s.getFirst().regions().getFirst().prefixes().get(1).line()).isEqualTo(4);
        List<TopologySource> named = TopologyFiles.read(List.of(dir.resolve("unicom6.txt")), "CNC-v6");
        assertThat(TopologyFiles.countsByRegion(named)).containsExactly(Map.entry("CNC-v6", 1));
    }

    @Test
    void badLinesFailTheFileWithFileAndLine() throws Exception {
        Path p = write("bad.txt", "1.0.1.0/24\n1.0.2.1/24\nnot-a-cidr\n0.0.0.0/0\n::/0\n");
        assertThatThrownBy(() -> TopologyFiles.read(List.of(p), null))
                .hasMessageContaining(p + ":2: '1.0.2.1/24' has host bits set; did you mean 1.0.2.0/24?")
                .hasMessageContaining(p + ":3: 'not-a-cidr' is not a CIDR")
                .hasMessageContaining(p + ":4: '0.0.0.0/0' is a default route")
                .hasMessageContaining(p + ":5: '::/0' is a default route");
    }

    @Test
    void emptyAndBinaryFilesAreRefused() throws Exception {
        Path empty = write("empty.txt", "");
        assertThatThrownBy(() -> TopologyFiles.read(List.of(empty), null)).hasMessageContaining(empty + ": empty file");
        Path comments = write("comments.txt", "# nothing here\n");
        assertThatThrownBy(() -> TopologyFiles.read(List.of(comments), null))
                .hasMessageContaining("no CIDR in the file");
        Path binary = dir.resolve("bin.txt");
        Files.write(binary, new byte[] {0x31, 0x00, (byte) 0xff, 0x0a});
        assertThatThrownBy(() -> TopologyFiles.read(List.of(binary), null))
                .hasMessageContaining(binary + ": binary file");
        assertThatThrownBy(() -> TopologyFiles.expand(List.of(dir.resolve("missing"))))
                .hasMessageContaining("no such file");
    }

    /**
     * The rest of the 3DNS grammar: pool and server targets, ISP and country sources mapped onto
     * loaded lists (China Telecom is chinanet), and negated sources (every address outside them).
     */
    @Test
    void threeDnsPoolServerIspAndCountryForms() throws Exception {
        Map<String, String> texts = new java.util.LinkedHashMap<>();
        texts.put("chinanet.txt", "202.96.0.0/12\n");
        texts.put("unicom.txt", "202.106.0.0/16\n");
        texts.put("more.topology", """
                topology {
                   pool."www"       isp."China Telecom"   200
                   server."vs-cnc"  isp."Unicom"          150
                   dc."CNC"         country."CN"          10
                }
                """);
        texts.put("china.txt", "202.96.0.0/11\n");
        var table = build(TopologyFiles.parse(texts, null));
        var tel = table.lookup(java.net.InetAddress.ofLiteral("202.96.1.1"));
        assertThat(tel.region()).isEqualTo("chinanet");
        assertThat(tel.scoreOf(dev.gslb.topology.TopologyRecord.POOL, "www")).isEqualTo(200);
        var cnc = table.lookup(java.net.InetAddress.ofLiteral("202.106.1.1"));
        assertThat(cnc.scoreOf(dev.gslb.topology.TopologyRecord.SERVER, "vs-cnc"))
                .isEqualTo(150);
        assertThat(table.lookup(java.net.InetAddress.ofLiteral("202.120.0.1")).scoreOf("CNC"))
                .as("country.\"CN\" is the china list: only where no longer prefix matches")
                .isEqualTo(10);

        texts.put("more.topology", """
                topology {
                   dc."TEL"   !region."unicom"     30
                   dc."CNC"   !202.96.0.0/16       20
                }
                """);
        var negated = build(TopologyFiles.parse(texts, null));
        var inTel = negated.lookup(java.net.InetAddress.ofLiteral("202.96.1.1"));
        assertThat(inTel.scoreOf("TEL")).as("chinanet is outside unicom").isEqualTo(30);
        assertThat(inTel.scoreOf("CNC")).as("but inside 202.96/16").isZero();
        var inCnc = negated.lookup(java.net.InetAddress.ofLiteral("202.106.1.1"));
        assertThat(inCnc.scoreOf("TEL")).isZero();
        assertThat(inCnc.scoreOf("CNC")).isEqualTo(20);
        var nowhere = negated.lookup(java.net.InetAddress.ofLiteral("198.18.0.1"));
        assertThat(nowhere)
                .as("outside every prefix: only negated records match")
                .isNotNull();
        assertThat(nowhere.prefixLength()).isEqualTo(-1);
        assertThat(nowhere.prefix()).isEqualTo("(no prefix)");
        assertThat(inCnc.prefixLength())
                .as("a negated record's match keeps its prefix")
                .isPositive();
        assertThat(inCnc.prefix()).endsWith("/" + inCnc.prefixLength());
        assertThat(nowhere.scores())
                .extracting(dev.gslb.topology.TopologyMatch.Score::dataCenter)
                .containsExactly("TEL", "CNC");
        texts.put("more.topology", "topology {\n   dc.\"CNC\" !region.\"nowhere\" 100\n}\n");
        assertThatThrownBy(() -> build(TopologyFiles.parse(texts, null)))
                .hasMessageContaining("more.topology:2: no region named 'nowhere' is loaded");
        texts.put("more.topology", "topology {\n   dc.\"TEL\" isp.\"China Mobile\" 1\n}\n");
        assertThatThrownBy(() -> build(TopologyFiles.parse(texts, null)))
                .hasMessageContaining("more.topology:2: isp.\"China Mobile\" maps to no loaded region (load cmcc.txt");
    }

    static dev.gslb.topology.TopologyTable build(List<TopologySource> sources) throws Exception {
        List<dev.gslb.topology.Region> regions = new java.util.ArrayList<>();
        List<dev.gslb.topology.TopologyRecord> records = new java.util.ArrayList<>();
        sources.forEach(src -> {
            regions.addAll(src.regions());
            records.addAll(src.records());
        });
        return dev.gslb.topology.TopologyTable.build(regions, records, java.util.Set.of("CNC", "TEL"));
    }

    @Test
    void threeDnsTopologyGivesRecords() throws Exception {
        List<TopologySource> s = TopologyFiles.read(List.of(Path.of("../topology-data/3dns-example.topology")), null);
        assertThat(s.getFirst().format()).isEqualTo(TopologySource.Format.THREE_DNS);
        assertThat(s.getFirst().records())
                .extracting(r -> r.region() + "->" + r.dataCenter() + ":" + r.score())
                .containsExactly("202.106.0.0/16->CNC:100", "219.172.0.0/16->TEL:100", "200.100.0.0/16->CNC:100");
        assertThat(s.getFirst().records().getFirst().origin()).endsWith("3dns-example.topology:4");

        Path bad = write(
                "bad.topology",
                "topology {\n  dc.\"CNC\" 202.106.0.0/16 100\n  dc.\"TEL\" 219.172.1.0/16 100\n  junk\n");
        assertThatThrownBy(() -> TopologyFiles.read(List.of(bad), null))
                .hasMessageContaining(bad + ":3: '219.172.1.0/16' has host bits set")
                .hasMessageContaining(bad + ":4: expected: TARGET SOURCE SCORE")
                .hasMessageContaining("missing the closing '}'");
    }

    @Test
    void apnicStatsSplitCountsIntoCidrs() throws Exception {
        Path p = write("delegated-apnic-latest", """
                2|apnic|20261128|90000|19830613|20261127|+1000
                apnic|*|ipv4|*|50000|summary
                apnic|CN|ipv4|1.0.1.0|256|20110414|allocated
                apnic|CN|ipv4|1.0.2.0|768|20110414|allocated
                apnic|CN|ipv6|2001:250::|35|20000426|allocated
                apnic|JP|ipv4|1.0.16.0|4096|20110412|allocated
                apnic|CN|asn|4134|1|20000101|allocated
                apnic|CN|ipv4|1.0.8.0|256|20110414|available
                """);
        List<TopologySource> s = TopologyFiles.read(List.of(p), null);
        assertThat(s.getFirst().format()).isEqualTo(TopologySource.Format.APNIC);
        Region cn = s.getFirst().regions().stream()
                .filter(r -> r.name().equals("CN"))
                .findFirst()
                .orElseThrow();
        assertThat(cn.prefixes())
                .extracting(pr -> pr.cidr().toString())
                .containsExactly("1.0.1.0/24", "1.0.2.0/23", "1.0.4.0/24", "2001:250::/35");
        assertThat(TopologyFiles.countsByRegion(TopologyFiles.read(List.of(p), "apnic")))
                .containsOnlyKeys("apnic");
        Path bad = write(
                "bad-apnic", "apnic|CN|ipv4|1.0.1.0|0|20110414|allocated\napnic|CN|ipv4|1.0.1.x|256|2011|allocated\n");
        assertThatThrownBy(() -> TopologyFiles.read(List.of(bad), null))
                .hasMessageContaining(bad + ":1: address count must be")
                .hasMessageContaining(bad + ":2: '1.0.1.x' is not an IPv4 address");
    }
}
