package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The registry of the file's sections, as peers of other versions see it. */
class ConfigSectionsTest {
    /** The shared YAML holds the shared sections in this order, and its digest with it: peers must agree. */
    @Test
    void theSharedSectionsKeepTheirOrder() {
        assertThat(SharedConfig.SECTIONS)
                .containsExactly(
                        "zones",
                        "datacenters",
                        "links",
                        "virtual-servers",
                        "pools",
                        "wide-ips",
                        "topology",
                        "monitors",
                        "load-balancing",
                        "tsig-keys");
    }
}
