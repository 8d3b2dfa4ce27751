package dev.gslb.sync;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gslb.probe.store.StateFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync group's state folder ({@code config/}): the shared configuration in service, in a
 * folder of its own named by digest, and {@code version.json} beside it, so a restart serves the
 * newest configuration this instance has seen.
 */
final class ConfigFolder {
    private static final Logger log = LoggerFactory.getLogger(SyncGroup.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What is persisted beside the shared files: the version served, and the file's own digest. */
    record Persisted(long generation, String origin, String digest, String fileDigest) {}

    private final Path dir;
    private final GroupConfiguration<?> configs;

    ConfigFolder(Path dir, GroupConfiguration<?> configs) {
        this.dir = dir;
        this.configs = configs;
        StateFile.tightenTree(dir); // copies an older gslb wrote readable by all
    }

    /** Each configuration's files live in their own folder, named by digest: the one in service is never touched. */
    Path sharedDir(String digest) {
        return dir.resolve("shared-" + digest.substring(0, 16));
    }

    /** Writes {@code content} to {@code at} unless it is there already; a half-written copy never takes its name. */
    void write(SharedContent content, Path at) throws IOException {
        if (Files.isDirectory(at) && digestOf(at).equals(content.digest())) {
            return;
        }
        Path tmp = at.resolveSibling(at.getFileName() + ".tmp");
        StateFile.deleteTree(tmp);
        StateFile.deleteTree(at);
        content.writeTo(tmp);
        Files.move(tmp, at, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Keeps what is served in the state folder; a failure is logged, the change still holds. Other
     * folders are removed, but for {@code inUse} (null: none), where the running configuration
     * reads its files from.
     */
    void persist(SharedContent content, ConfigVersion version, String fileDigest, Path inUse) {
        try {
            StateFile.folder(dir);
            Path at = sharedDir(content.digest());
            write(content, at);
            StateFile.writePrivate(
                    dir.resolve("version.json"),
                    JSON.writeValueAsBytes(
                            new Persisted(version.generation(), version.origin(), version.digest(), fileDigest)));
            try (Stream<Path> s = Files.list(dir)) {
                for (Path old : s.filter(f ->
                                f.getFileName().toString().startsWith("shared-") && !f.equals(at) && !f.equals(inUse))
                        .toList()) {
                    StateFile.deleteTree(old);
                }
            }
        } catch (IOException e) {
            log.warn("could not keep the configuration in {}: {}; a restart serves the file", dir, e.getMessage());
        }
    }

    private String digestOf(Path shared) {
        try {
            return configs.readFrom(shared).digest();
        } catch (IOException e) {
            return "";
        }
    }

    Persisted readPersisted() {
        Path f = dir.resolve("version.json");
        if (!Files.isRegularFile(f)) {
            return null;
        }
        try {
            return JSON.readValue(f.toFile(), Persisted.class);
        } catch (IOException e) {
            log.warn("{} cannot be read ({}); serving the file", f, e.getMessage());
            return null;
        }
    }
}
