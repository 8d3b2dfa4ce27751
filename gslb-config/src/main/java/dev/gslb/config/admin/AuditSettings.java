package dev.gslb.config.admin;

import dev.gslb.settings.ByteSize;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.nio.file.Path;

/**
 * The audit log of the admin API (docs/operator-guide.md "Give people access"): one JSON line per
 * call that changes state, in a file that is rotated by size and never holds more than
 * {@code files} files.
 *
 * @param file    the current file; the older ones are beside it as file.1 (newest) to file.N
 * @param maxSize a file is rotated before a line would take it over this many bytes
 * @param files   files kept, the current one included: the log holds at most files x maxSize
 */
public record AuditSettings(Path file, long maxSize, int files) {
    public static final long DEFAULT_MAX_SIZE = 10L << 20;
    /** The least: a line (at most 5 KiB) always fits, and a test can see rotation. */
    public static final long MIN_SIZE = 8 << 10;

    public static final Setting<Path> FILE =
            Setting.path("audit-log", "var/audit.log", "one JSON line per admin call that changes state, mode 600");
    public static final Setting<Long> MAX_SIZE = Setting.of(
                    "audit-max-size", ByteSize.class, new ByteSize(DEFAULT_MAX_SIZE), "a larger log is rotated")
            .map(ByteSize::bytes, DEFAULT_MAX_SIZE)
            .check("8KiB..1GiB", bytes -> {
                if (bytes < MIN_SIZE || bytes > (1L << 30)) {
                    throw new IllegalArgumentException("admin.audit-max-size must be 8KiB..1GiB");
                }
            });
    public static final Setting<Integer> FILES =
            Setting.integer("audit-files", 5, 1, 100, "audit files kept, the current one included");

    public static final SettingsTable<AuditSettings> SETTINGS =
            SettingsTable.of(AuditSettings.class, FILE, MAX_SIZE, FILES);

    /** The same log as {@code dir}/audit.log (serve --state-dir). */
    public AuditSettings in(Path dir) {
        return new AuditSettings(dir.resolve("audit.log"), maxSize, files);
    }
}
