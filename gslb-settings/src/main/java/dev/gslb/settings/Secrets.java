package dev.gslb.settings;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the value of a secret key ({@link Setting#asSecret}) comes from: the value itself, an
 * environment variable ({@code password: ${env:GSLB_FTP_PASSWORD}}), or a file that only its
 * owner may read ({@code password-file: /etc/gslb/secrets/ftp}). Binding reads the reference; the
 * configuration's text, and so the copy a sync group keeps and sends, holds the reference only.
 *
 * <p>A configuration a peer sent is read with {@link #confinedTo}: its files must lie in this
 * instance's own configuration folder, outside the state folder, so a compromised peer cannot have
 * this host send it the sync key or any other file as a monitor's password.
 */
public final class Secrets {
    /** What is appended to a secret key to name the file holding its value. */
    public static final String FILE_SUFFIX = "-file";
    /** A secret's file is a password or a community, not a document. */
    static final int MAX_FILE_BYTES = 4096;
    /** Only variables of this prefix are read: no other variable of the process can be sent anywhere. */
    static final String ENV_PREFIX = "GSLB_";

    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Z][A-Z0-9_]*)}");

    private final Function<String, String> env;
    private final Path within;
    private final Path outside;

    private Secrets(Function<String, String> env, Path within, Path outside) {
        this.env = env;
        this.within = within;
        this.outside = outside;
    }

    /** References read from this process's environment and from files anywhere. */
    public static Secrets ofProcess() {
        return of(System.getenv());
    }

    /** References read from {@code env} (tests) and from files anywhere. */
    public static Secrets of(Map<String, String> env) {
        return new Secrets(env::get, null, null);
    }

    /** The same, with files only under {@code folder} and never under {@code stateFolder}. */
    public Secrets confinedTo(Path folder, Path stateFolder) {
        return new Secrets(env, folder, stateFolder);
    }

    /** {@code written} itself, or the variable it names; any value starting with "${" must be a reference. */
    String inline(String written) {
        if (!written.startsWith("${")) {
            return written;
        }
        Matcher m = ENV.matcher(written.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("a value starting with ${ must be a reference such as ${env:"
                    + ENV_PREFIX + "FTP_PASSWORD}, a name in capitals (a password starting with ${ goes in a file,"
                    + " named with -file)");
        }
        String name = m.group(1);
        if (!name.startsWith(ENV_PREFIX)) {
            throw new IllegalArgumentException("${env:" + name + "}: only variables named " + ENV_PREFIX
                    + "... are read (rename it, e.g. " + ENV_PREFIX + name + ")");
        }
        String value = env.apply(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("${env:" + name + "}: the variable " + name + " is not set"
                    + " in gslb's environment (systemd: Environment= or EnvironmentFile= in the unit)");
        }
        return value;
    }

    /** The one line {@code file} holds ({@code key} names it in errors): a regular file only its owner may read. */
    String file(String key, Path file) {
        String where = key + ": " + file;
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, PosixFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(where + ": no such file");
        } catch (UnsupportedOperationException e) {
            throw new IllegalArgumentException(where + ": the file system has no owner-only mode");
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot read: " + e.getMessage());
        }
        if (!attributes.isRegularFile()) {
            throw new IllegalArgumentException(where + ": not a regular file");
        }
        String mode = PosixFilePermissions.toString(attributes.permissions());
        if (!mode.endsWith("------")) { // no bit for group or others
            throw new IllegalArgumentException(where + " is " + mode
                    + ": a secret's file must be readable by its owner only (chmod 600 " + file + ")");
        }
        confine(where, file);
        return line(where, read(where, file));
    }

    /** A file of a peer's configuration: in this instance's configuration folder, outside its state folder. */
    private void confine(String where, Path file) {
        if (within == null) {
            return;
        }
        try {
            Path real = file.toRealPath();
            if (!real.startsWith(within.toRealPath()) || outside != null && real.startsWith(real(outside))) {
                throw new IllegalArgumentException(where + ": a peer's configuration reads secrets only from files in"
                        + " this instance's configuration folder " + within + " (not its state folder): put it there"
                        + " on every instance");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot read: " + e.getMessage());
        }
    }

    /** The folder's real path; one that does not exist yet holds nothing. */
    private static Path real(Path folder) throws IOException {
        return Files.exists(folder)
                ? folder.toRealPath()
                : folder.toAbsolutePath().normalize();
    }

    private static byte[] read(String where, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(
                        where + ": larger than " + MAX_FILE_BYTES + " bytes: a secret's file holds one line");
            }
            return bytes;
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot read: " + e.getMessage());
        }
    }

    /** The text without its one final line end; it must be one line, not empty, UTF-8. */
    private static String line(String where, byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(where + ": not UTF-8 text");
        }
        if (text.endsWith("\r\n")) {
            text = text.substring(0, text.length() - 2);
        } else if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        if (text.isEmpty()) {
            throw new IllegalArgumentException(where + ": the file is empty");
        }
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            throw new IllegalArgumentException(where + ": holds more than one line (a secret's file holds one)");
        }
        return text;
    }
}
