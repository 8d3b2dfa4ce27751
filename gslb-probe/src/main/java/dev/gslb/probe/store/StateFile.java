package dev.gslb.probe.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files and folders in the state folder (keys, the admin token, the peers file, the proximity
 * store, the sync group's copies of the configuration, the audit log): created readable by this
 * user only, the mode given at creation (files 600, folders 700) so there is no moment another
 * user could open them, and refused when someone else could read or change them. Java has no
 * umask of its own: every writer under the state folder goes through here.
 */
public final class StateFile {
    private static final Logger log = LoggerFactory.getLogger(StateFile.class);
    private static final Set<PosixFilePermission> OTHERS = Set.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE);
    public static final String FILE_MODE = "rw-------";
    public static final String FOLDER_MODE = "rwx------";

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

    /** Creates {@code file} holding {@code bytes}, mode 600, its folders 700; it must not exist yet. */
    public static void createNew(Path file, byte[] bytes) throws IOException {
        folder(file.toAbsolutePath().getParent());
        Files.write(Files.createFile(file, mode(FILE_MODE)), bytes);
    }

    /** Creates {@code file} empty, mode 600, unless it exists (a file another program fills, such as H2's). */
    public static void createEmpty(Path file) throws IOException {
        folder(file.toAbsolutePath().getParent());
        try {
            Files.createFile(file, mode(FILE_MODE));
        } catch (FileAlreadyExistsException e) {
            // kept as it is: requirePrivate says whether it may be used
        }
    }

    /** Creates {@code dir} and its missing parents, each mode 700 from the start; returns {@code dir}. */
    public static Path folder(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        return Files.createDirectories(dir, mode(FOLDER_MODE));
    }

    /** Removes {@code p} and everything under it; nothing when it is not there. Links are removed, not followed. */
    public static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(p)) {
            for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    /** The mode a file or a folder of the state folder is created with. */
    public static FileAttribute<Set<PosixFilePermission>> mode(String mode) {
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode));
    }

    /**
     * At start: {@code dir} exists, mode 700. Made so when missing; an existing folder that group or
     * others may enter is tightened, and that is logged (made by hand, or by an older gslb).
     */
    public static void stateFolder(Path dir) throws IOException {
        folder(dir);
        tighten(dir, FOLDER_MODE);
    }

    /**
     * Everything under {@code dir}, a folder only this server writes, owner-only: folders 700, and
     * files without their group and others bits (what an older gslb wrote), each change logged.
     * Links are not followed. A failure is logged: the folder may still serve.
     */
    public static void tightenTree(Path dir) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) throws IOException {
                    tighten(d, FOLDER_MODE);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    if (a.isRegularFile()) {
                        tighten(f);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | UnsupportedOperationException e) {
            log.warn("cannot make everything in {} readable by this user only: {}", dir, e.toString());
        }
    }

    /** A file without the bits of group and others (logged when it had some); a folder 700. */
    public static void tighten(Path path) throws IOException {
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            tighten(path, FOLDER_MODE);
        } else if (path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
            tighten(path, mode.substring(0, 3) + "------");
        }
    }

    /** Sets {@code path} to {@code mode} when group or others have more; logged. */
    private static void tighten(Path path, String mode) throws IOException {
        if (!path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        String now = PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
        if (now.endsWith("------")) { // nothing for group or others
            return;
        }
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
        log.warn("{} was {}: now {} (the state folder is this user's only)", path, now, mode);
    }

    /** A new file beside {@code file} (a name of its own, so writers never collide) holding {@code bytes}. */
    private static Path privateTemp(Path file, byte[] bytes) throws IOException {
        Path parent = folder(file.toAbsolutePath().getParent());
        Path tmp = Files.createTempFile(parent, file.getFileName() + ".", ".tmp", mode(FILE_MODE));
        Files.write(tmp, bytes);
        return tmp;
    }
}
