package dev.gslb.cli.log;

import java.io.PrintStream;
import java.time.Instant;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** A named logger that writes each event as one line of the settings in force to stderr. */
final class LineLogger extends LegacyAbstractLogger {
    private final transient LogProvider provider;
    private final boolean library;

    LineLogger(String name, LogProvider provider) {
        this.name = name;
        this.provider = provider;
        // ours: classes of dev.gslb and the named logs (gslb.decisions, gslb.dns, gslb.admin...)
        this.library = !name.startsWith("dev.gslb.") && !name.startsWith("gslb.");
    }

    private boolean enabled(Level level) {
        return provider.settings().enabled(level, library);
    }

    @Override
    public boolean isTraceEnabled() {
        return enabled(Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
        return enabled(Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
        return enabled(Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
        return enabled(Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return enabled(Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
            Level level, Marker marker, String pattern, Object[] arguments, Throwable thrown) {
        LogSettings s = provider.settings();
        String message = String.valueOf(MessageFormatter.basicArrayFormat(pattern, arguments));
        String line = s.format().line(Instant.now(), level, name, message, thrown, s.stackTraces());
        PrintStream err = System.err; // looked up each time: a test or an embedding may replace it
        synchronized (err) {
            err.println(line);
        }
    }
}
