package dev.gslb.probe.link;

import dev.gslb.settings.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** This host's counters of one interface (the instance sits on the link): rx is in, tx is out. */
public record InterfaceCounters(String name, Path statistics) implements TrafficSource {
    /** {@code interface: NAME} under a link's {@code traffic:}. */
    public static final Setting<String> SETTING =
            Setting.of("interface", String.class, null, "this host's interface on the link (its rx is in, tx is out)");

    public InterfaceCounters {
        if (name.isEmpty() || name.contains("/") || name.startsWith(".")) {
            throw new IllegalArgumentException("'" + name + "' is not an interface name");
        }
    }

    public InterfaceCounters(String name) {
        this(name, Path.of("/sys/class/net", name, "statistics"));
    }

    @Override
    public Counters read(Duration timeout) throws IOException {
        return new Counters(counter("rx_bytes"), counter("tx_bytes"), ifIndex());
    }

    private long counter(String file) throws IOException {
        try {
            return Long.parseUnsignedLong(
                    Files.readString(statistics.resolve(file)).trim());
        } catch (NumberFormatException e) {
            throw new IOException(statistics.resolve(file) + ": not a counter: " + e.getMessage());
        }
    }

    /** A deleted and re-created interface starts from zero under a new index: that is a restart. */
    private long ifIndex() {
        try {
            return Long.parseLong(
                    Files.readString(statistics.resolveSibling("ifindex")).trim());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public String describe() {
        return "interface " + name;
    }
}
