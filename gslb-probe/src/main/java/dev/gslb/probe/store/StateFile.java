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
    private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private StateFile() {}

    /** Throws with the file, its mode and the fix when group or others may read or write it. */
    public static void requirePrivate(Path file) throws IOException {
        if (!Files.exists(file) || !file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
        for (PosixFilePermission p : OTHERS) {
            if (mode.contains(p)) {
                throw new IOException(file + " is " + PosixFilePermissions.toString(mode)
                        + ": it holds secrets or state and must be readable by this user only (chmod 600 " + file + ")");
            }
        }
    }

    /** Writes {@code bytes} to {@code file} atomically, mode 600 from the first byte. */
    public static void writePrivate(Path file, byte[] bytes) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(tmp, bytes);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Creates {@code file} empty with mode 600 when it does not exist (before a library opens it). */
    public static void createPrivate(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            requirePrivate(file);
        }
    }
}
