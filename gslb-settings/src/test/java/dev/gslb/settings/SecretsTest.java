package dev.gslb.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secret key takes its value inline, from a GSLB_ environment variable or from a file only its
 * owner may read; every refusal names the file, line and column, and what to fix.
 */
class SecretsTest {
    record Login(String user, String password, URI hook) {
        static final Setting<String> USER = Setting.of("user", String.class, null, "the login");
        static final Setting<String> PASSWORD =
                Setting.of("password", String.class, null, "its password").asSecret();
        static final Setting<URI> HOOK =
                Setting.of("hook", URI.class, null, "a URL").asSecret();
        static final SettingsTable<Login> SETTINGS = SettingsTable.of(Login.class, USER, PASSWORD, HOOK);
    }

    record Doc(Login login) {}

    @TempDir
    Path dir;

    static final Map<String, String> ENV = Map.of("GSLB_FTP_PASSWORD", "from-env", "HOME", "/root");

    Login read(String yaml) throws SettingsException {
        return read(yaml, Secrets.of(ENV));
    }

    Login read(String yaml, Secrets secrets) throws SettingsException {
        return new SettingsReader()
                .read("t.yaml", yaml, dir, Doc.class, secrets)
                .value()
                .login();
    }

    Path secretFile(String name, String text, String mode) throws Exception {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    @Test
    void anInlineValueIsKeptAsItIs() throws Exception {
        assertThat(read("login:\n  user: u\n  password: 'p4$$'\n").password()).isEqualTo("p4$$");
        assertThat(Login.PASSWORD.secret()).isTrue();
        assertThat(Login.USER.secret()).isFalse();
    }

    @Test
    void anEnvironmentReferenceReadsTheVariable() throws Exception {
        assertThat(read("login:\n  password: ${env:GSLB_FTP_PASSWORD}\n").password())
                .isEqualTo("from-env");
    }

    @Test
    void anUnsetVariableIsRefusedAtItsLine() {
        assertThatThrownBy(() -> read("login:\n  user: u\n  password: ${env:GSLB_NOT_SET}\n"))
                .isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("t.yaml:3:")
                .hasMessageContaining("GSLB_NOT_SET is not set");
    }

    @Test
    void onlyGslbVariablesAreRead() {
        assertThatThrownBy(() -> read("login:\n  password: ${env:HOME}\n"))
                .hasMessageStartingWith("t.yaml:2:")
                .hasMessageContaining("only variables named GSLB_")
                .hasMessageNotContaining("/root");
        assertThatThrownBy(() -> read("login:\n  password: ${GSLB_FTP_PASSWORD}\n"))
                .hasMessageStartingWith("t.yaml:2:")
                .hasMessageContaining("must be a reference such as ${env:GSLB_");
    }

    @Test
    void aFileGivesItsOneLine() throws Exception {
        secretFile("secrets/ftp", "from-file\n", "rw-------");
        assertThat(read("login:\n  password-file: secrets/ftp\n").password()).isEqualTo("from-file");
        secretFile("secrets/crlf", "crlf\r\n", "r--------");
        assertThat(read("login:\n  password-file: " + dir.resolve("secrets/crlf") + "\n")
                        .password())
                .isEqualTo("crlf");
    }

    @Test
    void aFileOthersCanReadIsRefusedWithItsMode() throws Exception {
        Path f = secretFile("ftp", "from-file\n", "rw-r--r--");
        assertThatThrownBy(() -> read("login:\n  user: u\n  password-file: ftp\n"))
                .isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("t.yaml:3:")
                .hasMessageContaining(f + " is rw-r--r--")
                .hasMessageContaining("chmod 600 " + f)
                .hasMessageNotContaining("from-file");
        secretFile("group", "x\n", "rw-rw----");
        assertThatThrownBy(() -> read("login:\n  password-file: group\n")).hasMessageContaining("is rw-rw----");
    }

    @Test
    void aMissingEmptyLargeOrManyLineFileIsRefused() throws Exception {
        assertThatThrownBy(() -> read("login:\n  password-file: nothing\n"))
                .hasMessageStartingWith("t.yaml:2:")
                .hasMessageContaining("password-file: " + dir.resolve("nothing") + ": no such file");
        secretFile("empty", "\n", "rw-------");
        assertThatThrownBy(() -> read("login:\n  password-file: empty\n")).hasMessageContaining("the file is empty");
        secretFile("two", "a\nb\n", "rw-------");
        assertThatThrownBy(() -> read("login:\n  password-file: two\n")).hasMessageContaining("more than one line");
        secretFile("big", "x".repeat(Secrets.MAX_FILE_BYTES + 1), "rw-------");
        assertThatThrownBy(() -> read("login:\n  password-file: big\n")).hasMessageContaining("larger than 4096");
        Files.createDirectories(dir.resolve("folder"));
        assertThatThrownBy(() -> read("login:\n  password-file: folder\n")).hasMessageContaining("not a regular file");
    }

    @Test
    void theValueAndItsFileTogetherAreRefused() throws Exception {
        secretFile("ftp", "from-file\n", "rw-------");
        assertThatThrownBy(() -> read("login:\n  password: x\n  password-file: ftp\n"))
                .hasMessageStartingWith("t.yaml:3:")
                .hasMessageContaining("give 'password' or 'password-file', not both");
    }

    @Test
    void onlySecretKeysTakeAFile() throws Exception {
        secretFile("u", "u\n", "rw-------");
        assertThatThrownBy(() -> read("login:\n  user-file: u\n"))
                .hasMessageContaining("unknown key 'user-file'")
                .hasMessageContaining("password-file");
    }

    @Test
    void aSecretOfAnotherTypeIsReadAsThatType() throws Exception {
        secretFile("hook", "https://hooks.example.net/T0KEN\n", "rw-------");
        assertThat(read("login:\n  hook-file: hook\n").hook()).isEqualTo(URI.create("https://hooks.example.net/T0KEN"));
        secretFile("bad", "not a uri with spaces\n", "rw-------");
        assertThatThrownBy(() -> read("login:\n  hook-file: bad\n"))
                .hasMessageContaining("not shown: it is a secret")
                .hasMessageNotContaining("spaces");
    }

    @Test
    void aPeersConfigurationReadsFilesOnlyInTheConfigurationFolderOutsideTheState() throws Exception {
        Path etc = Files.createDirectories(dir.resolve("etc"));
        Path state = Files.createDirectories(etc.resolve("var"));
        secretFile("etc/ftp", "ok\n", "rw-------");
        secretFile("etc/var/sync-identity.pem", "key\n", "rw-------");
        secretFile("elsewhere", "no\n", "rw-------");
        Secrets peer = Secrets.of(ENV).confinedTo(etc, state);
        assertThat(read("login:\n  password-file: etc/ftp\n", peer).password()).isEqualTo("ok");
        assertThatThrownBy(() -> read("login:\n  password-file: etc/var/sync-identity.pem\n", peer))
                .hasMessageContaining("only from files in this instance's configuration folder");
        assertThatThrownBy(() -> read("login:\n  password-file: elsewhere\n", peer))
                .hasMessageContaining("only from files in this instance's configuration folder");
        Files.createSymbolicLink(etc.resolve("link"), dir.resolve("elsewhere"));
        assertThatThrownBy(() -> read("login:\n  password-file: etc/link\n", peer))
                .as("a link out of the folder is followed before the check")
                .hasMessageContaining("only from files in this instance's configuration folder");
    }
}
