package dev.gslb.dns.dnssec;

/** A key file or key folder that cannot be used: the message names the file, the line when there is one, and what is wrong. */
public final class KeyFileException extends Exception {
    public KeyFileException(String message) {
        super(message);
    }

    public KeyFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
