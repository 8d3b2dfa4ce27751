package dev.gslb.probe.health;

import dev.gslb.settings.Section;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The folder of programs external monitors may run (docs/operator-guide.md "Check the virtual
 * servers", key {@code monitor-programs}): this instance's own, never shared. A monitor names a
 * program by its name alone, found in the folder; whether the monitor came from this host's file or
 * from a peer, nothing outside the folder runs, so a peer cannot make this host run a program of
 * its choosing.
 */
public record ProgramAllowList(Path folder) {
    /** The folder, {@code monitor-programs} beside the configuration unless it says otherwise. */
    public static final Section<Path> SECTION =
            Section.of("monitor-programs", Path.class, configFolder -> configFolder.resolve("monitor-programs"));

    /** A file name and nothing else: no separator, no "." or "..", no option-like leading "-". */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._+-]{0,254}");

    /** Whether {@code name} can name a program of the folder. */
    public static boolean isProgramName(String name) {
        return NAME.matcher(name).matches();
    }

    /** {@code spec} with its external check's program found in the folder; a monitor of another kind as it is. */
    public MonitorSpec place(MonitorSpec spec) {
        if (!(spec.check() instanceof ExternalCheck e)) {
            return spec;
        }
        Path program = program(spec.name(), e.command().getFirst());
        return new MonitorSpec(
                spec.name(),
                new ExternalCheck(e.command(), program),
                spec.interval(),
                spec.timeout(),
                spec.upThreshold(),
                spec.downThreshold());
    }

    private Path program(String monitor, String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("monitor " + monitor + ": '" + name + "' is not a program name: an"
                    + " external monitor names a program of the monitor-programs folder " + folder
                    + " by its name alone");
        }
        Path p = folder.resolve(name).toAbsolutePath();
        if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
            throw new IllegalArgumentException("monitor " + monitor + ": no program " + name
                    + " in the monitor-programs folder " + folder + " (put it there, or a link to it)");
        }
        return p;
    }
}
