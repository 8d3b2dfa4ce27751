package dev.gslb.config.bigip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The tmsh reader: statements, blocks, quotes and comments, and the bounds on hostile input. */
class TmshParserTest {
    @Test
    void readsObjectsPropertiesNestedBlocksQuotesAndComments() throws Exception {
        List<TmshNode> nodes = TmshParser.parse("f.conf", """
                #TMSH-VERSION: 15.1.8
                gtm pool a /Common/web {
                    members {
                        /Common/s1:/Common/vs1 {
                            member-order 0
                        }
                    }
                    send "GET / HTTP/1.1\\r\\nHost: \\"x\\"\\r\\n"
                    aliases { a.example.com b.example.com }
                }
                gtm region /Common/r { region-members { subnet 10.0.0.0/8 { } isp "China Telecom" { } } }
                """);
        assertThat(nodes).hasSize(2);
        TmshNode pool = nodes.getFirst();
        assertThat(pool.words()).containsExactly("gtm", "pool", "a", "/Common/web");
        assertThat(pool.line()).isEqualTo(2);
        TmshNode members = pool.children().getFirst();
        assertThat(members.children().getFirst().key()).isEqualTo("/Common/s1:/Common/vs1");
        assertThat(members.children().getFirst().children().getFirst().words()).containsExactly("member-order", "0");
        assertThat(members.children().getFirst().children().getFirst().line()).isEqualTo(5);
        assertThat(pool.children().get(1).value()).isEqualTo("GET / HTTP/1.1\\r\\nHost: \"x\"\\r\\n");
        assertThat(pool.children().get(2).items()).containsExactly("a.example.com", "b.example.com");
        TmshNode region = nodes.get(1).children().getFirst();
        assertThat(region.children())
                .extracting(TmshNode::words)
                .containsExactly(List.of("subnet", "10.0.0.0/8"), List.of("isp", "China Telecom"));
    }

    @Test
    void malformedInputIsRefusedAtItsLine() {
        assertThatThrownBy(() -> TmshParser.parse("f.conf", "gtm a {\n  b {\n}\n"))
                .hasMessage("f.conf:1: '{' is never closed (the file ends at line 4)");
        assertThatThrownBy(() -> TmshParser.parse("f.conf", "gtm a { }\n}\n"))
                .hasMessage("f.conf:2: '}' closes no block");
        assertThatThrownBy(() -> TmshParser.parse("f.conf", "gtm a {\n send \"x\n}\n"))
                .hasMessage("f.conf:2: a quoted string is never closed");
        assertThatThrownBy(() -> TmshParser.parse("f.conf", "x " + "{".repeat(33) + "}".repeat(33)))
                .hasMessage("f.conf:1: blocks nested deeper than 32");
        assertThatThrownBy(() -> TmshParser.parse("f.conf", "x\u0001y"))
                .hasMessageStartingWith("f.conf:1: control character");
        assertThatThrownBy(() -> TmshParser.parse("f.conf", "x " + "w ".repeat(TmshParser.MAX_WORDS + 1)))
                .hasMessage("f.conf:1: a statement of more than 10000 words");
        assertThatThrownBy(() -> TmshParser.parse("f.conf", "\"" + "a".repeat(TmshParser.MAX_WORD + 1) + "\""))
                .hasMessageContaining("longer than 65536 characters");
    }

    @Test
    void nestingIsBoundedSoAHostileFileCannotExhaustTheStack() {
        String deep = "{".repeat(1_000_000);
        assertThatThrownBy(() -> TmshParser.parse("f.conf", deep)).hasMessage("f.conf:1: blocks nested deeper than 32");
    }
}
