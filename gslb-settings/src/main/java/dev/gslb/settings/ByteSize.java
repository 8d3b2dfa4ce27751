package dev.gslb.settings;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A size in bytes as operators write it: a number, or a number with KiB, MiB or GiB (KB, MB, GB mean the same). */
public record ByteSize(long bytes) {
    private static final Pattern SIZE = Pattern.compile("(\\d{1,12})\\s*(B|KiB|MiB|GiB|KB|MB|GB)?");

    public static ByteSize parse(String text) {
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size such as 32MiB, 512KiB or 1048576 (bytes)");
        }
        long n = Long.parseLong(m.group(1));
        return new ByteSize(
                switch (m.group(2) == null ? 'B' : m.group(2).charAt(0)) {
                    case 'K' -> n << 10;
                    case 'M' -> n << 20;
                    case 'G' -> n << 30;
                    default -> n;
                });
    }

    /** The size as an int, capped (a buffer or body limit). */
    public int cappedInt() {
        return (int) Math.min(Integer.MAX_VALUE, bytes);
    }
}
