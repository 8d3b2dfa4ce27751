package dev.gslb.probe.link;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rate in bits per second, written as operators write link sizes: {@code 100Mbit}, {@code 1Gbit},
 * {@code 2.5Gbit/s}, {@code 500kbit}, a bare number of bit/s, or {@code 80%} of the link's capacity.
 * Decimal units (k = 1000), as ISPs sell bandwidth and interface counters are read.
 */
public record Bandwidth(long bitsPerSecond) implements Comparable<Bandwidth> {
    private static final Pattern FORM =
            Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(%|bit|kbit|mbit|gbit|tbit|bps|kbps|mbps|gbps|tbps)?(?:/s)?");

    public Bandwidth {
        if (bitsPerSecond < 0) {
            throw new IllegalArgumentException("a bandwidth cannot be negative");
        }
    }

    /**
     * Reads {@code text}; a percentage is of {@code capacity}, which must then be known.
     *
     * @throws IllegalArgumentException naming what was wrong and what is expected
     */
    public static Bandwidth parse(String text, Bandwidth capacity) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a bandwidth: write e.g. 100Mbit, 1Gbit, 500kbit or 80% (of capacity)");
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "bit" : m.group(2);
        if (unit.equals("%")) {
            if (capacity == null) {
                throw new IllegalArgumentException("'" + text + "' is a percentage, but the link has no 'capacity:'");
            }
            if (value > 100) {
                throw new IllegalArgumentException("'" + text + "' is more than the link's capacity");
            }
            return new Bandwidth(Math.round(capacity.bitsPerSecond * value / 100));
        }
        double scale = switch (unit.charAt(0)) {
            case 'k' -> 1e3;
            case 'm' -> 1e6;
            case 'g' -> 1e9;
            case 't' -> 1e12;
            default -> 1;
        };
        double bits = value * scale;
        if (bits > 1e15) {
            throw new IllegalArgumentException("'" + text + "' is more than any link carries");
        }
        return new Bandwidth(Math.round(bits));
    }

    /** As {@code parse} without a capacity: absolute forms only. */
    public static Bandwidth parse(String text) {
        return parse(text, null);
    }

    /** {@code 812 Mbit/s}: the unit that keeps three significant digits. */
    public static String format(long bitsPerSecond) {
        String[] units = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
        double v = bitsPerSecond;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return (v >= 100 || u == 0 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v))
                + " " + units[u];
    }

    @Override
    public int compareTo(Bandwidth o) {
        return Long.compare(bitsPerSecond, o.bitsPerSecond);
    }

    @Override
    public String toString() {
        return format(bitsPerSecond);
    }
}
