package dev.gslb.config;

/** A configuration the server refuses to run with; the message names file, line and what is wrong. */
public final class ConfigException extends Exception {
    public ConfigException(String file, int line, String message) {
        super(line > 0 ? file + ":" + line + ": " + message : file + ": " + message);
    }

    public ConfigException(String message) {
        super(message);
    }
}
