package dev.gslb.cli.log;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.slf4j.event.Level;

/**
 * How an event is written: a line of text (time, level, short logger name, message), or a JSON
 * object on one line (time, level, logger, message, and error or stack when an exception came
 * with it) for a log shipper. Either way an event is one line: a line break or another control
 * character in a message (a peer's name, a value from a file) is written escaped, so no message
 * can forge or split a line. A stack trace is written only when the level is DEBUG or finer.
 */
public enum LogFormat {
    TEXT {
        @Override
        String line(Instant time, Level level, String logger, String message, Throwable thrown, boolean stack) {
            StringBuilder s = new StringBuilder(96 + message.length())
                    .append(TIME.format(time))
                    .append(' ')
                    .append(level)
                    .append(' ')
                    .append(logger, logger.lastIndexOf('.') + 1, logger.length())
                    .append(" - ");
            escaped(s, message);
            if (thrown != null) {
                s.append(" (");
                escaped(s, describe(thrown));
                s.append(')');
                if (stack) { // DEBUG asked for it: the trace's lines follow, indented
                    s.append(System.lineSeparator()).append(stack(thrown).stripTrailing());
                }
            }
            return s.toString();
        }
    },
    JSON {
        @Override
        String line(Instant time, Level level, String logger, String message, Throwable thrown, boolean stack) {
            StringBuilder s = new StringBuilder(128 + message.length()).append("{\"time\":\"");
            s.append(time.truncatedTo(ChronoUnit.MILLIS))
                    .append("\",\"level\":\"")
                    .append(level);
            s.append("\",\"logger\":\"");
            QUOTE.quoteAsString(logger, s);
            s.append("\",\"message\":\"");
            QUOTE.quoteAsString(message, s);
            s.append('"');
            if (thrown != null) {
                s.append(",\"error\":\"");
                QUOTE.quoteAsString(describe(thrown), s);
                s.append('"');
                if (stack) {
                    s.append(",\"stack\":\"");
                    QUOTE.quoteAsString(stack(thrown), s);
                    s.append('"');
                }
            }
            return s.append('}').toString();
        }
    };

    /** The time stamp of a text line (what reads one back parses it with this). */
    public static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ").withZone(ZoneId.systemDefault());

    private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();

    abstract String line(Instant time, Level level, String logger, String message, Throwable thrown, boolean stack);

    /** "text" or "json", as GSLB_LOG_FORMAT and `serve --log-format` take them. */
    public static LogFormat parse(String name) {
        for (LogFormat f : values()) {
            if (f.name().equalsIgnoreCase(name.strip())) {
                return f;
            }
        }
        throw new IllegalArgumentException("log format '" + name + "': expected text or json");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The exception and its causes, each as class: message, on one line. */
    static String describe(Throwable t) {
        StringBuilder s = new StringBuilder(t.toString());
        int depth = 0;
        for (Throwable c = t.getCause(); c != null && c != t && depth < 8; c = c.getCause(), depth++) {
            s.append("; caused by ").append(c);
        }
        return s.toString();
    }

    private static String stack(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /** Appends {@code text} with \n, \r, \t and other control characters written as escapes. */
    static void escaped(StringBuilder s, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != 0x7f && (c < 0x80 || c > 0x9f) && c != '\u2028' && c != '\u2029') {
                s.append(c);
            } else if (c == '\n') {
                s.append("\\n");
            } else if (c == '\r') {
                s.append("\\r");
            } else if (c == '\t') {
                s.append("\\t");
            } else {
                s.append(String.format("\\u%04x", (int) c));
            }
        }
    }
}
