package dev.gslb.probe.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One serving process per state folder: a second taker is refused with the folder named, until the first lets go. */
class StateFolderLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondTakerIsRefusedUntilTheFirstLetsGo() throws IOException {
        Path state = dir.resolve("var");
        try (StateFolderLock first = StateFolderLock.take(state)) {
            assertThatThrownBy(() -> StateFolderLock.take(state))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("state folder " + state + " is in use by another process")
                    .hasMessageContaining("--state-dir");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state.resolve("serve.lock"))))
                    .isEqualTo("rw-------");
        }
        try (StateFolderLock again = StateFolderLock.take(state)) {
            assertThat(again).isNotNull();
        }
    }

    @Test
    void twoFoldersAreTwoLocks() throws IOException {
        try (StateFolderLock cnc = StateFolderLock.take(dir.resolve("var/cnc"));
                StateFolderLock tel = StateFolderLock.take(dir.resolve("var/tel"))) {
            assertThat(cnc).isNotSameAs(tel);
        }
    }
}
