package dev.gslb.settings;

/** The range rule of a numeric setting, in one wording for every key. */
public final class Bounds {
    private Bounds() {}

    /** {@code value}, or an error naming {@code key} and its range. */
    public static int within(String key, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + " must be between " + min + " and " + max + ", not " + value);
        }
        return value;
    }
}
