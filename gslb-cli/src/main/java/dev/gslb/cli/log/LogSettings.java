package dev.gslb.cli.log;

import java.util.Locale;
import org.slf4j.event.Level;

/**
 * What is logged and how: the least severe level written (error, warn, info, debug, trace) and
 * the line format. From GSLB_LOG_LEVEL and GSLB_LOG_FORMAT, else info and text; `serve
 * --log-level` and `--log-format` replace them.
 */
public record LogSettings(Level level, LogFormat format) {
    public static final LogSettings DEFAULT = new LogSettings(Level.INFO, LogFormat.TEXT);

    /** The environment's settings; one that does not parse is left at its default and said on stderr. */
    static LogSettings fromEnvironment() {
        Level level = DEFAULT.level();
        LogFormat format = DEFAULT.format();
        try {
            String l = System.getenv("GSLB_LOG_LEVEL");
            level = l == null || l.isBlank() ? level : level(l);
            String f = System.getenv("GSLB_LOG_FORMAT");
            format = f == null || f.isBlank() ? format : LogFormat.parse(f);
        } catch (IllegalArgumentException e) {
            System.err.println("gslb: " + e.getMessage() + " (GSLB_LOG_LEVEL / GSLB_LOG_FORMAT); using the default");
        }
        return new LogSettings(level, format);
    }

    public static Level level(String name) {
        try {
            return Level.valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "log level '" + name + "': expected error, warn, info, debug or trace", e);
        }
    }

    boolean enabled(Level at, boolean library) {
        // the libraries' own INFO and DEBUG (netty's) are theirs, not the operator's: WARN and up,
        // unless DEBUG or finer was asked for
        Level least = library && level.toInt() > Level.DEBUG.toInt() ? Level.WARN : level;
        return at.toInt() >= least.toInt();
    }

    boolean stackTraces() {
        return level.toInt() <= Level.DEBUG.toInt();
    }
}
