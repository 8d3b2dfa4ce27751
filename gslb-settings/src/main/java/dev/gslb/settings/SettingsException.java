package dev.gslb.settings;

/** Settings the server refuses to run with; the message names the file, where in it, and what is wrong. */
public final class SettingsException extends Exception {
    public SettingsException(String message) {
        super(message);
    }
}
