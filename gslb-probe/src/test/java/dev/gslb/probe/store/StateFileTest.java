package dev.gslb.probe.store;

import static org.assertj.core.api.Assertions.assertThat;

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

/** Two servers starting at once with one state folder agree on one secret file. */
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
}
