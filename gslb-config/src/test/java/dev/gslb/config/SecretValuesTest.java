package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** A secret is known by its key's name in any section; a file holding one is shown, a webhook by its host. */
class SecretValuesTest {
    @Test
    void secretsByKeyNameWhereverTheyAre() throws Exception {
        JsonNode tree = SharedConfig.YAML.readTree("""
                monitors: [{name: m, type: ftp, user: probe, password: hunter2-hunter2}]
                links:
                  - name: l
                    traffic: {snmp: {community: public-ish, user: {name: u, auth-password: 12345678abc}}}
                zones: [{file: a.zone, tsig: {name: k, algorithm: hmac-sha256, secret: c2VjcmV0}}]
                admin: {token-file: var/admin.token}
                sync: {join-token-ttl: 15m}
                alerts: [{webhook: "https://hooks.example.com/services/T0/B0/xyz?token=abc"}]
                """);
        SecretValues.redact(tree);
        String shown = tree.toString();
        assertThat(shown).doesNotContain("hunter2", "public-ish", "12345678abc", "c2VjcmV0", "xyz", "abc");
        assertThat(tree.at("/monitors/0/password").asText()).isEqualTo("<redacted>");
        assertThat(tree.at("/monitors/0/user").asText()).isEqualTo("probe");
        assertThat(tree.at("/links/0/traffic/snmp/user/name").asText()).isEqualTo("u");
        assertThat(tree.at("/zones/0/tsig/algorithm").asText()).isEqualTo("hmac-sha256");
        assertThat(tree.at("/admin/token-file").asText()).as("where it is kept").isEqualTo("var/admin.token");
        assertThat(tree.at("/sync/join-token-ttl").asText()).isEqualTo("15m");
        assertThat(tree.at("/alerts/0/webhook").asText()).isEqualTo("https://hooks.example.com/<redacted>");
    }
}
