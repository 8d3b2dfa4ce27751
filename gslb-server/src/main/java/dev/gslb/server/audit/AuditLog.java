package dev.gslb.server.audit;

import dev.gslb.api.AuditEntry;
import dev.gslb.api.Json;
import dev.gslb.config.admin.AuditSettings;
import dev.gslb.probe.store.StateFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who changed what on this instance: one JSON line per {@link AuditEntry} in audit.log (mode 600),
 * which is renamed audit.log.1 (and the older ones moved on, the oldest deleted) before a line would
 * take it over its size. So it never holds more than {@code files x maxSize} bytes. A line is
 * appended straight to the file, with no buffer to lose and no thread to wait for; the caller waits
 * for that write, a few microseconds. Any code may {@link #record} (a peer's change comes next).
 */
public final class AuditLog implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AuditLog.class);
    /** Each text field's most characters: a line stays under 5 KiB, below the least size (8 KiB). */
    static final int FIELD = 200;
    /** Files above the configured count that an earlier run with more may have left. */
    private static final int MOST_FILES = 100;

    private final AuditSettings settings;
    private final ReentrantLock lock = new ReentrantLock();
    private FileChannel out;
    private long size;
    /** Said once in the server's log until a write succeeds again. */
    private boolean failing;

    public AuditLog(AuditSettings settings) throws IOException {
        this.settings = settings;
        StateFile.folder(settings.file().toAbsolutePath().getParent());
        for (int i = settings.files(); i <= MOST_FILES; i++) {
            Files.deleteIfExists(older(i));
        }
        StateFile.requirePrivate(settings.file());
        open();
    }

    /** Appends one line; never throws: a log that cannot be written is said in the server's log. */
    public void record(AuditEntry entry) {
        byte[] line = (Json.compact(bounded(entry))).getBytes(StandardCharsets.UTF_8);
        lock.lock();
        try {
            if (size > 0 && size + line.length > settings.maxSize()) {
                rotate();
            }
            ByteBuffer b = ByteBuffer.wrap(line);
            while (b.hasRemaining()) {
                size += out.write(b);
            }
            failing = false;
        } catch (IOException e) {
            if (!failing) {
                log.warn("cannot write the audit log {}: {}", settings.file(), e.toString());
            }
            failing = true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The entries from {@code since} on, oldest first, at most the newest {@code limit}. Reads every
     * file (an entry's time is whatever its writer gave, so a file's own time says nothing), outside
     * the lock: each is opened under it, so a rotation meanwhile takes nothing away.
     */
    public List<AuditEntry> since(Instant since, int limit) throws IOException {
        List<FileChannel> files = new ArrayList<>();
        lock.lock();
        try {
            for (int i = settings.files() - 1; i >= 0; i--) {
                Path f = older(i);
                if (Files.exists(f)) {
                    files.add(FileChannel.open(f, StandardOpenOption.READ));
                }
            }
        } finally {
            lock.unlock();
        }
        ArrayDeque<AuditEntry> newest = new ArrayDeque<>();
        try {
            for (FileChannel f : files) {
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(Channels.newInputStream(f), StandardCharsets.UTF_8));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    AuditEntry e = parse(line);
                    if (e != null && !Instant.parse(e.time()).isBefore(since)) {
                        newest.addLast(e);
                        if (newest.size() > limit) {
                            newest.removeFirst();
                        }
                    }
                }
            }
        } finally {
            for (FileChannel f : files) {
                f.close();
            }
        }
        return List.copyOf(newest);
    }

    /** A line, or null for one that is not whole (a write under way, a full disk earlier). */
    private static AuditEntry parse(String line) {
        try {
            AuditEntry e = Json.MAPPER.readValue(line, AuditEntry.class);
            Instant.parse(e.time());
            return e;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** audit.log.N, N older; 0 is the current file. */
    private Path older(int n) {
        Path f = settings.file();
        return n == 0 ? f : f.resolveSibling(f.getFileName() + "." + n);
    }

    private void rotate() throws IOException {
        out.close();
        Files.deleteIfExists(older(settings.files() - 1)); // with one file: the current one
        for (int i = settings.files() - 2; i >= 0; i--) {
            if (Files.exists(older(i))) {
                Files.move(older(i), older(i + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        open();
    }

    private void open() throws IOException {
        out = FileChannel.open(
                settings.file(),
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
                StateFile.mode(StateFile.FILE_MODE));
        size = out.size();
    }

    /** Each text field cut to {@link #FIELD} characters, control characters as '?': one line, of a bounded size. */
    static AuditEntry bounded(AuditEntry e) {
        return new AuditEntry(
                e.time(),
                cut(e.who()),
                e.role(),
                cut(e.source()),
                cut(e.method()),
                cut(e.route()),
                cut(e.target()),
                cut(e.before()),
                cut(e.after()),
                e.status(),
                cut(e.error()));
    }

    private static String cut(String text) {
        if (text == null) {
            return null;
        }
        String s = text.length() > FIELD ? text.substring(0, FIELD - 1) + "…" : text;
        return s.chars().anyMatch(Character::isISOControl) ? s.replaceAll("\\p{Cntrl}", "?") : s;
    }

    @Override
    public void close() {
        lock.lock();
        try {
            out.close();
        } catch (IOException e) {
            log.warn("closing the audit log: {}", e.toString());
        } finally {
            lock.unlock();
        }
    }
}
