package dev.gslb.topology.load;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One change of the topology made at run time ({@code gslb topology load}, {@code gslb import
 * bind-views}): its name, the texts it carried (file name -> content), the region it named for all
 * of them (or null), and who made it, on which instance and when (null when not known: a load kept
 * from before loads had names). A load under a name in service replaces that load; an unload
 * takes it away by its name. It travels to the peers with the shared configuration, so each field
 * is checked as from a hostile peer.
 */
public record RuntimeLoad(
        String name, Map<String, String> texts, String region, String by, String instance, Instant at) {
    /** A name an operator types and a file name can hold: letters, digits, '.', '_', '-'. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** The longest {@code by} or {@code instance} kept (token and instance names are shorter). */
    static final int MAX_TEXT = 255;

    public RuntimeLoad {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a load's name is 1 to 64 letters, digits, '.', '_' or '-',"
                    + " starting with a letter or digit, not '" + printable(name) + "'");
        }
        if (texts == null || texts.isEmpty()) {
            throw new IllegalArgumentException("load " + name + " holds no file");
        }
        if (!plain(by) || !plain(instance) || !plain(region)) {
            throw new IllegalArgumentException("load " + name + ": a region, author or instance of at most " + MAX_TEXT
                    + " characters without control characters");
        }
        java.util.Set<String> stored = new java.util.HashSet<>();
        for (String file : texts.keySet()) {
            String f = file == null ? "" : fileName(file);
            if (!plain(file) || f.isEmpty() || f.equals(".") || f.equals("..")) {
                throw new IllegalArgumentException("load " + name + ": a file is named by a name of at most " + MAX_TEXT
                        + " characters without control characters, not '" + printable(file) + "'");
            }
            if (!stored.add(f)) { // kept by file name in the shared configuration
                throw new IllegalArgumentException("load " + name + ": two files named " + f + "; load them apart");
            }
        }
        texts = Collections.unmodifiableMap(new LinkedHashMap<>(texts)); // the order decides duplicates
    }

    /** The same load with who made it, where and when. */
    public RuntimeLoad madeBy(String by, String instance, Instant at) {
        return new RuntimeLoad(name, texts, region, by, instance, at);
    }

    /**
     * The name a load gets from its first file when none is given: the file name without its
     * extension ({@code /tmp/test-list.txt} is {@code test-list}), other characters made '-'.
     */
    public static String nameOf(String file) {
        String n = file == null ? "" : fileName(file);
        int dot = n.lastIndexOf('.');
        n = (dot > 0 ? n.substring(0, dot) : n).replaceAll("[^A-Za-z0-9._-]", "-");
        n = n.replaceFirst("^[._-]+", "");
        n = n.length() > 64 ? n.substring(0, 64) : n;
        return n.isEmpty() ? "load" : n;
    }

    /** The first file's name, as the listing shows where a load came from. */
    public String source() {
        String first = texts.keySet().iterator().next();
        return texts.size() == 1 ? first : first + " (+" + (texts.size() - 1) + " more)";
    }

    /** Null, or at most {@value #MAX_TEXT} characters with no control character (a forged log line). */
    public static boolean plain(String s) {
        return s == null || (s.length() <= MAX_TEXT && s.chars().noneMatch(Character::isISOControl));
    }

    /** A name from a request or a peer, safe to quote in a message. */
    static String printable(String s) {
        if (s == null) {
            return "";
        }
        String t = s.codePoints()
                .filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        return t.length() > 80 ? t.substring(0, 80) + "..." : t;
    }

    /** The file name of a path as stored: no folder. */
    public static String fileName(String file) {
        String f = file.replace('\\', '/');
        return f.substring(f.lastIndexOf('/') + 1);
    }
}
