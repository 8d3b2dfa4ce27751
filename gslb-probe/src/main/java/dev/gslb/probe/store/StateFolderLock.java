package dev.gslb.probe.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * One serving process per state folder. Two instances started from the same folder (two
 * configurations whose peers files sit side by side) would write the same shared-configuration
 * copies, DNSSEC keys and maintenance file under each other; the proximity store's own lock does
 * not see it when their stores are named apart. Held until the process ends; the kernel drops it
 * when a killed process leaves, so there is no stale lock to clean up.
 */
public final class StateFolderLock implements AutoCloseable {
    static final String FILE = "serve.lock";

    private final FileChannel channel;

    private StateFolderLock(FileChannel channel) {
        this.channel = channel;
    }

    /** Takes the folder's lock, or throws naming the folder and what to do. */
    public static StateFolderLock take(Path stateFolder) throws IOException {
        StateFile.stateFolder(stateFolder);
        Path file = stateFolder.resolve(FILE);
        FileChannel channel = FileChannel.open(
                file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), StateFile.mode(StateFile.FILE_MODE));
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new IOException("state folder " + stateFolder + " is in use by another process (another gslb"
                    + " serve with the same state folder?): stop it, or give this one its own serve --state-dir");
        }
        return new StateFolderLock(channel);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
