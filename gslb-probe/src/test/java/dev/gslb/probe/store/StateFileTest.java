package dev.gslb.probe.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files and folders of the state folder are owner-only from their creation, whatever the umask;
 * a looser folder or an older gslb's file is tightened; two servers starting at once with one
 * state folder agree on one secret file.
 */
class StateFileTest {
    @TempDir
    Path dir;

    @Test
    void ofManyCreatorsAtOnceExactlyOneWinsAndTheFileIsPrivate() throws Exception {
        Path file = dir.resolve("admin.token");
        List<Callable<Boolean>> creators = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            byte[] mine = ("token-" + i).getBytes();
            creators.add(() -> StateFile.createPrivate(file, mine));
        }
        int won = 0;
        try (var pool = Executors.newFixedThreadPool(16)) {
            for (Future<Boolean> f : pool.invokeAll(creators)) {
                won += f.get() ? 1 : 0;
            }
        }
        assertThat(won).isEqualTo(1);
        assertThat(Files.readString(file)).startsWith("token-");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        try (var left = Files.list(dir)) {
            assertThat(left).as("no temporary files left").hasSize(1);
        }
    }

    static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void newFilesAndFoldersAreOwnerOnlyWhateverTheUmask() throws Exception {
        // this JVM's umask (022 as a rule) would make 644 and 755: each mode is given at creation
        Path plain = Files.writeString(dir.resolve("plain"), "x");
        assertThat(mode(plain)).as("what the umask gives without StateFile").isNotEqualTo("rw-------");

        Path file = dir.resolve("state/config/shared-1/files/zones/0/example.com.zone");
        StateFile.createNew(file, "zone".getBytes());
        assertThat(Files.readString(file)).isEqualTo("zone");
        assertThat(mode(file)).isEqualTo("rw-------");
        for (Path d = file.getParent(); !d.equals(dir); d = d.getParent()) {
            assertThat(mode(d)).as(d.toString()).isEqualTo("rwx------");
        }
        assertThatThrownBy(() -> StateFile.createNew(file, "again".getBytes()))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);

        StateFile.writePrivate(dir.resolve("other/runtime-states.json"), "{}".getBytes());
        assertThat(mode(dir.resolve("other"))).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("other/runtime-states.json"))).isEqualTo("rw-------");

        Path store = dir.resolve("db/proximity.mv.db");
        StateFile.createEmpty(store);
        assertThat(mode(store)).isEqualTo("rw-------");
        Files.writeString(store, "kept");
        StateFile.createEmpty(store);
        assertThat(Files.readString(store))
                .as("an existing file is left as it is")
                .isEqualTo("kept");
    }

    @Test
    void aLooserStateFolderIsTightenedAtStart() throws Exception {
        Path state = Files.createDirectories(dir.resolve("var"));
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-x---"));
        StateFile.stateFolder(state);
        assertThat(mode(state)).isEqualTo("rwx------");
        StateFile.stateFolder(dir.resolve("new/var"));
        assertThat(mode(dir.resolve("new/var"))).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("new"))).isEqualTo("rwx------");
    }

    @Test
    void whatAnOlderGslbWroteIsTightenedLinksLeftAlone() throws Exception {
        Path config = Files.createDirectories(dir.resolve("config/shared-0123/files"));
        Path yaml = Files.writeString(config.getParent().resolve("shared.yaml"), "monitors: []");
        Path zone = Files.writeString(config.resolve("zone"), "zone");
        Files.setPosixFilePermissions(yaml, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(zone, PosixFilePermissions.fromString("r--rw-r--"));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path outside = Files.writeString(dir.resolve("outside"), "not ours");
        Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createSymbolicLink(config.resolve("link"), outside);

        StateFile.tightenTree(dir.resolve("config"));

        assertThat(mode(yaml)).isEqualTo("rw-------");
        assertThat(mode(zone)).isEqualTo("r--------");
        assertThat(mode(config)).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("config"))).isEqualTo("rwx------");
        assertThat(mode(outside)).as("a link is not followed").isEqualTo("rw-r--r--");
    }
}
