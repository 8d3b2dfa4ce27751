package dev.gslb.server.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.api.Role;
import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.admin.AdminToken;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens admit by hash, name their caller, keep to their bound, and cost little per request. */
class TokensTest {
    @TempDir
    Path dir;

    private Tokens open() throws Exception {
        return Tokens.open(
                AdminSettings.of(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 8053), dir.resolve("admin.token")),
                Clock.systemUTC());
    }

    @Test
    void eachTokenNamesItsCallerAndNoneIsKeptInClearButLocal() throws Exception {
        Tokens tokens = open();
        String local = AdminToken.read(dir.resolve("admin.token"));
        String viewer = tokens.add("dash", Role.VIEWER).token();
        assertThat(tokens.admit("Bearer " + local)).isEqualTo(new Caller("local", Role.ADMIN));
        assertThat(tokens.admit("bearer " + viewer)).isEqualTo(new Caller("dash", Role.VIEWER));
        assertThat(tokens.admit("Bearer " + viewer + "x")).isNull();
        assertThat(tokens.admit(viewer)).as("not a bearer header").isNull();
        assertThat(tokens.admit(null)).isNull();
        assertThat(Files.readString(dir.resolve("admin.tokens"))).doesNotContain(viewer);
        assertThat(open().admit("Bearer " + viewer))
                .as("read back at a restart")
                .isEqualTo(new Caller("dash", Role.VIEWER));
        assertThat(tokens.remove("dash")).isTrue();
        assertThat(tokens.admit("Bearer " + viewer)).isNull();
        assertThatThrownBy(() -> tokens.add("bad name", Role.ADMIN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> tokens.add("local", Role.VIEWER)).hasMessageContaining("exists");
    }

    @Test
    void withoutATokenFileEveryCallerIsAnAdminAndNoTokenIsMade() throws Exception {
        Tokens none = Tokens.open(
                AdminSettings.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 8053), null),
                Clock.systemUTC());
        assertThat(none.admit(null)).isEqualTo(Caller.UNCHECKED);
        assertThat(none.list()).isEmpty();
        assertThatThrownBy(() -> none.add("alice", Role.VIEWER)).hasMessageContaining("asks no token");
        assertThatThrownBy(() -> none.remove("alice")).hasMessageContaining("asks no token");
    }

    @Test
    void aHundredNamedTokensAtMostAndWhatAnAdmissionCosts() throws Exception {
        Tokens tokens = open();
        String last = null;
        for (int i = 0; i < Tokens.MAX_NAMED; i++) {
            last = tokens.add("user" + i, Role.OPERATOR).token();
        }
        assertThatThrownBy(() -> tokens.add("one-more", Role.VIEWER)).hasMessageContaining("remove one first");
        String header = "Bearer " + last;
        int n = 200_000;
        for (int i = 0; i < n; i++) { // warm-up
            tokens.admit(header);
        }
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            assertThat(tokens.admit(header)).isNotNull();
        }
        System.out.printf(
                "one admission among %d tokens (SHA-256, then every hash compared): %d ns%n",
                Tokens.MAX_NAMED + 1, (System.nanoTime() - start) / n);
    }
}
