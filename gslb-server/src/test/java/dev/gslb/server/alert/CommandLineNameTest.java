package dev.gslb.server.alert;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Names as operators write them pass as they are; a peer's shell code or option does not. */
class CommandLineNameTest {
    @Test
    void namesPassAndShellCodeDoesNot() {
        assertThat(CommandLineName.of("vs1-cnc")).isEqualTo("vs1-cnc");
        assertThat(CommandLineName.of("gslb-tel.example.net")).isEqualTo("gslb-tel.example.net");
        assertThat(CommandLineName.of("CNC-1:isp@dc_2")).isEqualTo("CNC-1:isp@dc_2");
        assertThat(CommandLineName.of("x;touch${IFS}/tmp/p")).isEqualTo("x_touch__IFS__tmp_p");
        assertThat(CommandLineName.of("$(reboot) `id` 'a' \"b\" |&<>\n")).doesNotContainPattern("[$()`'\"|&<> \\n]");
        assertThat(CommandLineName.of("-rf")).isEqualTo("_rf");
        assertThat(CommandLineName.of("é")).isEqualTo("_");
        assertThat(CommandLineName.of("")).isEqualTo("_");
    }
}
