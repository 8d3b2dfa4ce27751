package dev.gslb.cli.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** One line an event whatever the message holds; the JSON line reads back to what was logged. */
class LogFormatTest {
    static final Instant AT = Instant.parse("2026-12-02T01:22:06.834567Z");
    static final String HOSTILE = "peer \"evil\nFAKE 2026 ERROR x - forged\" \u001b[2J\ttab";

    @Test
    void textEscapesLineBreaksAndControlCharacters() {
        String line = LogFormat.TEXT.line(AT, Level.WARN, "dev.gslb.sync.PeerLink", HOSTILE, null, false);
        assertThat(line).doesNotContain("\n", "\r", "\u001b");
        assertThat(line).endsWith(" WARN PeerLink - peer \"evil\\nFAKE 2026 ERROR x - forged\" \\u001b[2J\\ttab");
    }

    @Test
    void anExceptionIsItsDescriptionUnlessDebugAsksForItsStack() {
        Exception e = new IllegalStateException("bad\nthing", new IOException("disk full"));
        String info = LogFormat.TEXT.line(AT, Level.ERROR, "x.Y", "failed", e, false);
        assertThat(info)
                .doesNotContain("\n")
                .endsWith(
                        "ERROR Y - failed (java.lang.IllegalStateException: bad\\nthing; caused by java.io.IOException: disk full)");
        String debug = LogFormat.TEXT.line(AT, Level.ERROR, "x.Y", "failed", e, true);
        assertThat(debug.lines()).hasSizeGreaterThan(2);
        assertThat(debug).contains("at dev.gslb.cli.log.LogFormatTest");
    }

    @Test
    void jsonIsOneObjectALineThatReadsBack() throws Exception {
        Exception e = new IllegalStateException("bad");
        String line = LogFormat.JSON.line(AT, Level.WARN, "dev.gslb.sync.PeerLink", HOSTILE, e, false);
        assertThat(line).doesNotContain("\n");
        JsonNode event = new ObjectMapper().readTree(line);
        assertThat(event.get("time").asText()).isEqualTo("2026-12-02T01:22:06.834Z");
        assertThat(event.get("level").asText()).isEqualTo("WARN");
        assertThat(event.get("logger").asText()).isEqualTo("dev.gslb.sync.PeerLink");
        assertThat(event.get("message").asText()).isEqualTo(HOSTILE);
        assertThat(event.get("error").asText()).isEqualTo("java.lang.IllegalStateException: bad");
        assertThat(event.has("stack")).isFalse();
        JsonNode debug = new ObjectMapper().readTree(LogFormat.JSON.line(AT, Level.WARN, "a", "m", e, true));
        assertThat(debug.get("stack").asText()).contains("at dev.gslb.cli.log.LogFormatTest");
    }

    @Test
    void theNamedLogsAreOursAndNettysInfoIsNot() {
        LogSettings before = LogProvider.current();
        try {
            LogProvider.use(LogSettings.DEFAULT);
            assertThat(org.slf4j.LoggerFactory.getLogger("gslb.decisions").isInfoEnabled())
                    .isTrue();
            assertThat(org.slf4j.LoggerFactory.getLogger("dev.gslb.server.GslbServer")
                            .isInfoEnabled())
                    .isTrue();
            assertThat(org.slf4j.LoggerFactory.getLogger("io.netty.channel.Foo").isInfoEnabled())
                    .isFalse();
            assertThat(org.slf4j.LoggerFactory.getLogger("io.netty.channel.Foo").isWarnEnabled())
                    .isTrue();
            LogProvider.use(new LogSettings(Level.WARN, LogFormat.TEXT));
            assertThat(org.slf4j.LoggerFactory.getLogger("gslb.decisions").isInfoEnabled())
                    .isFalse();
        } finally {
            LogProvider.use(before);
        }
    }

    @Test
    void settingsParseAndRefuseClearly() {
        assertThat(LogFormat.parse(" JSON ")).isEqualTo(LogFormat.JSON);
        assertThat(LogSettings.level("debug")).isEqualTo(Level.DEBUG);
        assertThatThrownBy(() -> LogFormat.parse("xml")).hasMessage("log format 'xml': expected text or json");
        assertThatThrownBy(() -> LogSettings.level("loud"))
                .hasMessage("log level 'loud': expected error, warn, info, debug or trace");
        LogSettings info = new LogSettings(Level.INFO, LogFormat.TEXT);
        assertThat(info.enabled(Level.INFO, false)).isTrue();
        assertThat(info.enabled(Level.DEBUG, false)).isFalse();
        assertThat(info.enabled(Level.INFO, true))
                .as("a library's INFO (netty's)")
                .isFalse();
        assertThat(info.enabled(Level.WARN, true)).isTrue();
        assertThat(new LogSettings(Level.DEBUG, LogFormat.TEXT).enabled(Level.DEBUG, true))
                .isTrue();
    }
}
