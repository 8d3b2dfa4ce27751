package dev.gslb.probe.health;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gslb.probe.health.ManualResume.Waiting;
import dev.gslb.probe.store.StateFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file that keeps the servers waiting for resume across a restart: a JSON list of {@code
 * {server, monitor, since}}, written whole and atomically at each change, mode 600
 * ({@link StateFile}). A file that cannot be read is set aside (renamed with a timestamp) and
 * logged, and the instance starts with no server waiting: a lost wait costs an automatic resume,
 * a refusal to start the whole service.
 */
final class WaitingFile {
    private static final Logger log = LoggerFactory.getLogger(WaitingFile.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    record Entry(String server, String monitor, String since) {}

    private final Path file;

    WaitingFile(Path file) {
        this.file = file;
    }

    /** The waits the file holds; none when it is absent, or unreadable (then set aside). */
    Map<String, Waiting> read() {
        if (!Files.exists(file)) {
            return Map.of();
        }
        try {
            Map<String, Waiting> out = new TreeMap<>();
            for (Entry e : JSON.readValue(file.toFile(), new TypeReference<List<Entry>>() {})) {
                if (e == null || e.server() == null || e.monitor() == null || e.since() == null) {
                    throw new IOException("an entry lacks server, monitor or since: " + e);
                }
                out.put(e.server(), new Waiting(e.monitor(), Instant.parse(e.since()), null));
            }
            return out;
        } catch (IOException | RuntimeException e) { // RuntimeException: a time Instant cannot parse
            setAside(e);
            return Map.of();
        }
    }

    private void setAside(Exception why) {
        Path aside = file.resolveSibling(
                file.getFileName() + ".corrupt-" + Instant.now().toString().replace(':', '-'));
        try {
            Files.move(file, aside);
            log.error(
                    "manual resume: {} cannot be read ({}); set aside as {}: no virtual server waits for resume",
                    file,
                    why.getMessage(),
                    aside);
        } catch (IOException e) {
            log.error(
                    "manual resume: {} cannot be read ({}) nor set aside ({}): no virtual server waits for resume",
                    file,
                    why.getMessage(),
                    e.toString());
        }
    }

    /** Replaces the file with {@code all}; a failure is logged, the waits in memory hold on. */
    void write(Map<String, Waiting> all) {
        List<Entry> entries = new ArrayList<>();
        new TreeMap<>(all)
                .forEach((server, w) ->
                        entries.add(new Entry(server, w.monitor(), w.since().toString())));
        try {
            StateFile.writePrivate(file, JSON.writeValueAsBytes(entries));
        } catch (IOException e) {
            log.error("manual resume: cannot write {} ({}): a restart would resume these servers", file, e.toString());
        }
    }
}
