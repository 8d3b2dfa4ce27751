package dev.gslb.probe.load;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.site.ServerLoad;
import java.util.EnumSet;
import java.util.Set;

/**
 * A virtual server's {@code limits:}: past any of them it is set aside (a candidate only when no
 * other is left) until every limited metric is back under its resume threshold, as a link's
 * limits are ({@code dev.gslb.probe.link.LinkSpec}). Each limit is null when not given.
 *
 * @param connections   current connections
 * @param kbps          traffic, both directions, in kilobits per second
 * @param packets       packets per second, both directions
 * @param cpu           CPU in use, percent
 * @param resumePercent the percentage of each limit under which the server takes answers again
 */
public record ServerLimits(Long connections, Long kbps, Long packets, Integer cpu, int resumePercent) {
    public static final Setting<Long> CONNECTIONS =
            positive(Setting.of("connections", Long.class, null, "current connections past which it spills"));
    public static final Setting<Long> KBPS = positive(Setting.of(
            "kbps", Long.class, null, "traffic (kilobits per second, both directions) past which it spills"));
    public static final Setting<Long> PACKETS = positive(
            Setting.of("packets", Long.class, null, "packets per second (both directions) past which it spills"));
    public static final Setting<Integer> CPU = Setting.of(
                    "cpu", Integer.class, null, "CPU in use (percent) past which it spills")
            .check("1..100", v -> {
                if (v < 1 || v > 100) {
                    throw new IllegalArgumentException("cpu must be a percentage from 1 to 100, not " + v);
                }
            });
    public static final Setting<Integer> RESUME = Setting.of(
                    "resume",
                    String.class,
                    "90%",
                    "it takes answers again once every limited metric is under this share of its limit")
            .check("1%..100%", ServerLimits::percent)
            .map(ServerLimits::percent, 90);

    public static final SettingsTable<ServerLimits> SETTINGS =
            SettingsTable.of(ServerLimits.class, CONNECTIONS, KBPS, PACKETS, CPU, RESUME);

    /** No limits: never set aside for its load. */
    public static final ServerLimits NONE = new ServerLimits(null, null, null, null, 90);

    public ServerLimits {
        if (resumePercent < 1 || resumePercent > 100) {
            throw new IllegalArgumentException("limits 'resume:' must be from 1% to 100%, not " + resumePercent + "%");
        }
    }

    private static Setting<Long> positive(Setting<Long> s) {
        return s.check("1..", v -> {
            if (v < 1) {
                throw new IllegalArgumentException(s.key() + " must be at least 1, not " + v);
            }
        });
    }

    private static int percent(String written) {
        String t = written.strip();
        if (!t.endsWith("%")) {
            throw new IllegalArgumentException(
                    "limits 'resume:' is a percentage of each limit, such as 90%, not '" + written + "'");
        }
        try {
            int p = Integer.parseInt(t.substring(0, t.length() - 1).strip());
            if (p < 1 || p > 100) {
                throw new IllegalArgumentException("limits 'resume:' must be from 1% to 100%, not " + written);
            }
            return p;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "limits 'resume:' is a whole percentage such as 90%, not '" + written + "'");
        }
    }

    /** The metrics limited here, as a source must give them. */
    public Set<Metric> metrics() {
        Set<Metric> m = EnumSet.noneOf(Metric.class);
        if (connections != null) {
            m.add(Metric.CONNECTIONS);
        }
        if (kbps != null) {
            m.add(Metric.BYTES);
        }
        if (packets != null) {
            m.add(Metric.PACKETS);
        }
        if (cpu != null) {
            m.add(Metric.CPU);
        }
        return m;
    }

    /** The key under {@code limits:} that limits {@code m}. */
    public static String key(Metric m) {
        return switch (m) {
            case CONNECTIONS -> CONNECTIONS.key();
            case BYTES -> KBPS.key();
            case PACKETS -> PACKETS.key();
            case CPU -> CPU.key();
            default -> m.key();
        };
    }

    /**
     * Whether the server is over its limits now, given whether it was (hysteresis: over past a
     * limit, back once every limited metric is at or under resume). An unknown metric (-1) is
     * never over: setting aside needs a measurement.
     */
    public boolean overLimit(ServerLoad load, boolean wasOver) {
        for (Metric m : metrics()) {
            double v = value(load, m);
            if (v >= 0 && v > (wasOver ? resume(m) : limit(m))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why it is set aside, what `resolve --explain` prints: "vs-cnc over limit: connections 5200 >
     * 5000", each metric over its resume threshold named.
     */
    public String overLimitReason(String server, ServerLoad load) {
        StringBuilder sb = new StringBuilder(server).append(" over limit:");
        String sep = " ";
        for (Metric m : metrics()) {
            double v = value(load, m);
            if (v >= 0 && v > resume(m)) {
                sb.append(sep).append(key(m)).append(' ').append(format(v));
                sb.append(v > limit(m) ? " > " + format(limit(m)) : " > resume " + format(resume(m)));
                sep = ", ";
            }
        }
        return sb.toString();
    }

    /** {@code m} of {@code load} in the unit its limit is written in, -1 when unknown. */
    static double value(ServerLoad load, Metric m) {
        return switch (m) {
            case CONNECTIONS -> load.connections();
            case BYTES -> load.bytesPerSecond() < 0 ? -1 : load.bytesPerSecond() * 8 / 1000.0;
            case PACKETS -> load.packetsPerSecond();
            case CPU -> load.cpuPercent();
            default -> -1;
        };
    }

    private double limit(Metric m) {
        return switch (m) {
            case CONNECTIONS -> connections;
            case BYTES -> kbps;
            case PACKETS -> packets;
            case CPU -> cpu;
            default -> Double.MAX_VALUE;
        };
    }

    private double resume(Metric m) {
        return limit(m) * resumePercent / 100.0;
    }

    private static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v);
    }
}
