package dev.gslb.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A YAML node that remembers its file and line, so every config error can point at the place to
 * fix. Typed getters throw {@link ConfigException} naming file, line, key and what was expected.
 */
final class YamlNode {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)?");

    private final String file;
    private final Node node;

    YamlNode(String file, Node node) {
        this.file = file;
        this.node = node;
    }

    int line() {
        return node.getStartMark().getLine() + 1;
    }

    ConfigException error(String message) {
        return new ConfigException(file, line(), message);
    }

    /** The entries of a mapping, refusing keys not in {@code allowed} (a typo must not pass silently). */
    Map<String, YamlNode> map(String what, Set<String> allowed) throws ConfigException {
        if (!(node instanceof MappingNode m)) {
            throw error(what + " must be a mapping of key: value");
        }
        Map<String, YamlNode> entries = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            YamlNode key = new YamlNode(file, t.getKeyNode());
            String name = key.scalar(what + " key");
            if (!allowed.contains(name)) {
                throw key.error("unknown key '" + name + "' in " + what + "; expected one of " + allowed);
            }
            if (entries.put(name, new YamlNode(file, t.getValueNode())) != null) {
                throw key.error("key '" + name + "' appears twice in " + what);
            }
        }
        return entries;
    }

    List<YamlNode> list(String what) throws ConfigException {
        if (node instanceof ScalarNode s && s.getValue().isEmpty()) {
            return List.of();
        }
        if (!(node instanceof SequenceNode seq)) {
            throw error(what + " must be a list");
        }
        List<YamlNode> items = new ArrayList<>();
        for (Node n : seq.getValue()) {
            items.add(new YamlNode(file, n));
        }
        return items;
    }

    String scalar(String what) throws ConfigException {
        if (!(node instanceof ScalarNode s) || s.getValue().isBlank()) {
            throw error(what + " must be a single non-empty value");
        }
        return s.getValue().trim();
    }

    int integer(String what, int min, int max) throws ConfigException {
        String v = scalar(what);
        try {
            int i = Integer.parseInt(v);
            if (i < min || i > max) {
                throw error(what + " must be between " + min + " and " + max + ", not " + i);
            }
            return i;
        } catch (NumberFormatException e) {
            throw error(what + " must be a whole number, not '" + v + "'");
        }
    }

    private static final Pattern BYTES = Pattern.compile("(\\d{1,12})\\s*(B|KiB|MiB|GiB|KB|MB|GB)?");

    /** A size in bytes: a number, or a number with KiB, MiB or GiB (KB, MB, GB are taken as the same). */
    long bytes(String what) throws ConfigException {
        Matcher m = quantity(BYTES, what, "a size such as 32MiB, 512KiB or 1048576 (bytes)");
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2) == null ? 'B' : m.group(2).charAt(0)) {
            case 'K' -> n << 10;
            case 'M' -> n << 20;
            case 'G' -> n << 30;
            default -> n;
        };
    }

    /** A duration: a number of seconds, or a number with ms, s, m, h or d. */
    Duration duration(String what) throws ConfigException {
        Matcher m = quantity(DURATION, what, "a duration such as 30s, 5m or 10 (seconds)");
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofSeconds(n);
        };
    }

    /** A number with an optional unit, matched whole, or an error showing {@code example}. */
    private Matcher quantity(Pattern p, String what, String example) throws ConfigException {
        String v = scalar(what);
        Matcher m = p.matcher(v);
        if (!m.matches()) {
            throw error(what + " must be " + example + ", not '" + v + "'");
        }
        return m;
    }
}
