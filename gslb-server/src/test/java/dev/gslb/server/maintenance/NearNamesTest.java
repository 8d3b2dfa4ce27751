package dev.gslb.server.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What "did you mean" names for a name no server has. */
class NearNamesTest {
    static final List<String> SERVERS = List.of("web1", "web2", "web10", "cnc", "tel", "mail-cnc", "mail-tel");

    @Test
    void aTypoFindsTheNamesItIsOneEditFrom() {
        assertThat(NearNames.of("wbe1", SERVERS)).as("swapped").containsExactly("web1");
        assertThat(NearNames.of("web3", SERVERS)).containsExactly("web1", "web2");
        assertThat(NearNames.of("cnx", SERVERS)).containsExactly("cnc");
        assertThat(NearNames.of("Mail-Tel2", SERVERS))
                .as("case and a letter more")
                .containsExactly("mail-tel");
    }

    @Test
    void aPrefixFindsTheNamesItBegins() {
        assertThat(NearNames.of("mail", SERVERS)).containsExactly("mail-cnc", "mail-tel");
    }

    @Test
    void aNameFarFromAllFindsNone() {
        assertThat(NearNames.of("database", SERVERS)).isEmpty();
        assertThat(NearNames.of("", SERVERS)).isEmpty();
    }

    @Test
    void aNameLongerThanAnyIsNearNoneWithoutComparing() {
        assertThat(NearNames.of("mail-cnc" + "x".repeat(NearNames.LONGEST), SERVERS))
                .as("a prefix of it would match, but it is too long to compare")
                .isEmpty();
    }

    @Test
    void distanceCountsEachEditOnce() {
        assertThat(NearNames.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(NearNames.distance("ab", "ba")).isEqualTo(1);
        assertThat(NearNames.distance("", "abc")).isEqualTo(3);
    }
}
