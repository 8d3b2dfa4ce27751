package dev.gslb.cli.config;

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
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

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

    /** A duration: a number of seconds, or a number with ms, s, m, h or d. */
    Duration duration(String what) throws ConfigException {
        String v = scalar(what);
        Matcher m = DURATION.matcher(v);
        if (!m.matches()) {
            throw error(what + " must be a duration such as 30s, 5m or 10 (seconds), not '" + v + "'");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
