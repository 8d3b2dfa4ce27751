package dev.gslb.cli.log;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J backend of the gslb command: one line per event on stderr (where systemd's journal
 * and `docker logs` take it), as text or as JSON lines, at a level set at start or by `serve`.
 *
 * <p>Our own rather than logback: what is needed is a level, two line formats and the guarantee
 * that an event is one line whatever its message holds (values from peers and files are hostile),
 * which is a few dozen lines here, but with logback a configuration file, a pattern with escaping
 * replacements and a JSON encoder of another shape, and one more library loaded at the start of
 * every CLI command.
 */
public final class LogProvider implements SLF4JServiceProvider, ILoggerFactory {
    private static volatile LogSettings settings = LogSettings.fromEnvironment();

    private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();

    /** Replaces the level and format of every logger, from now on. */
    public static void use(LogSettings next) {
        settings = next;
    }

    public static LogSettings current() {
        return settings;
    }

    LogSettings settings() {
        return settings;
    }

    @Override
    public Logger getLogger(String name) {
        return loggers.computeIfAbsent(name, n -> new LineLogger(n, this));
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return this;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {}
}
