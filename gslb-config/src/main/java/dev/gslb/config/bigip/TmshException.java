package dev.gslb.config.bigip;

/** A tmsh configuration that cannot be read: the message names the file and line. */
public final class TmshException extends Exception {
    TmshException(String file, int line, String what) {
        super(file + ":" + line + ": " + what);
    }
}
