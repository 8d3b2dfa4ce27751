package dev.gslb.probe.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files in the state folder that hold secrets or what peers and resolvers taught us (keys, the
 * admin token, the peers file, the proximity store): created readable by this user only, and
 * refused when someone else could read or change them.
 */
public final class StateFile {
    private static final Set<PosixFilePermission> OTHERS = Set.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE);

    private StateFile() {}

    /** Throws with the file, its mode and the fix when group or others may read or write it. */
    public static void requirePrivate(Path file) throws IOException {
        if (!Files.exists(file)
                || !file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
        for (PosixFilePermission p : OTHERS) {
            if (mode.contains(p)) {
                throw new IOException(file + " is " + PosixFilePermissions.toString(mode)
                        + ": it holds secrets or state and must be readable by this user only (chmod 600 " + file
                        + ")");
            }
        }
    }

    /** Writes {@code bytes} to {@code file} atomically (replacing it), mode 600 from the first byte. */
    public static void writePrivate(Path file, byte[] bytes) throws IOException {
        Path tmp = privateTemp(file, bytes);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Creates {@code file} with {@code bytes}, mode 600, unless it exists: false then, and the file
     * is left as it is. Two processes starting at once with one state folder agree on one file.
     */
    public static boolean createPrivate(Path file, byte[] bytes) throws IOException {
        Path tmp = privateTemp(file, bytes);
        try {
            Files.createLink(file, tmp); // link(2) fails when the name exists; rename(2) would replace it
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A new file beside {@code file} (a name of its own, so writers never collide) holding {@code bytes}. */
    private static Path privateTemp(Path file, byte[] bytes) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = Files.createTempFile(
                parent,
                file.getFileName() + ".",
                ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(tmp, bytes);
        return tmp;
    }
}
