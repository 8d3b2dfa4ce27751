package dev.gslb.topology.load;

import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads topology input in the three formats operators have: one CIDR per line (ISP lists), the
 * 3DNS {@code topology { dc."CNC" 202.106.0.0/16 100 }} syntax, and APNIC delegated-stats lines.
 * The format is recognised from the content. Any bad line fails the whole file with file:line.
 */
public final class TopologyFiles {
    private TopologyFiles() {}

    /**
     * The files to read for a list of files and folders. A folder gives its regular files, sorted,
     * less documentation and zero-byte files (upstream lists are sometimes empty, e.g. drpeng6);
     * a file named on its own must have content.
     */
    public static List<Path> expand(List<Path> paths) throws TopologyException {
        List<Path> files = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    s.filter(Files::isRegularFile)
                            .filter(f -> !f.getFileName().toString().startsWith("."))
                            .filter(f -> !isDocumentation(f.getFileName().toString()))
                            .filter(f -> f.toFile().length() > 0)
                            .sorted()
                            .forEach(files::add);
                } catch (IOException e) {
                    missing.add(p + ": cannot list: " + e.getMessage());
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else {
                missing.add(p + ": no such file or folder");
            }
        }
        if (!missing.isEmpty()) {
            throw new TopologyException(missing);
        }
        return files;
    }

    /**
     * The sub-folders of the given folders, which {@link #expand} does not read: named in an
     * error, so that "--data topology-data" says where the lists are instead of failing darkly.
     */
    public static List<Path> unreadFolders(List<Path> paths) {
        List<Path> out = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    s.filter(Files::isDirectory)
                            .filter(f -> !f.getFileName().toString().startsWith("."))
                            .sorted()
                            .forEach(out::add);
                } catch (IOException e) {
                    // expand() reports a folder it cannot list
                }
            }
        }
        return out;
    }

    /** Licence and notes travel beside the lists (the MIT licence must); they are not data. */
    private static boolean isDocumentation(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        return n.startsWith("license")
                || n.startsWith("licence")
                || n.startsWith("readme")
                || n.endsWith(".md")
                || n.equals("stat")
                || n.equals("source");
    }

    /** Reads every file; {@code region} (may be null) names the region for all of them. */
    public static List<TopologySource> read(List<Path> files, String region) throws TopologyException {
        Map<String, String> texts = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        for (Path f : files) {
            try {
                texts.put(f.toString(), decode(f.toString(), Files.readAllBytes(f)));
            } catch (IOException e) {
                errors.add(f + ": cannot read: " + e.getMessage());
            } catch (TopologyException e) {
                errors.addAll(e.problems());
            }
        }
        if (!errors.isEmpty()) {
            throw new TopologyException(errors);
        }
        return parse(texts, region);
    }

    /** Parses named texts (file contents, e.g. uploaded through the admin API). */
    public static List<TopologySource> parse(Map<String, String> texts, String region) throws TopologyException {
        List<String> names =
                texts.keySet().stream().map(TopologyFiles::baseName).toList();
        List<TopologySource> out = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (var e : texts.entrySet()) {
            if (e.getValue().indexOf('\0') >= 0 || e.getValue().indexOf('\uFFFD') >= 0) { // uploaded bytes
                errors.add(e.getKey() + ": binary or non-UTF-8 file; expected text, one CIDR per line");
                continue;
            }
            try {
                out.add(parse(e.getKey(), e.getValue(), region, regionFromName(e.getKey(), names)));
            } catch (TopologyException ex) {
                errors.addAll(ex.problems());
            }
        }
        if (!errors.isEmpty()) {
            throw new TopologyException(errors);
        }
        return out;
    }

    public static String decode(String file, byte[] bytes) throws TopologyException {
        for (byte b : bytes) {
            if (b == 0) {
                throw new TopologyException(List.of(file + ": binary file (NUL bytes); expected text"));
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new TopologyException(List.of(file + ": not UTF-8 text; expected one CIDR per line"));
        }
    }

    private static String baseName(String file) {
        String n = Path.of(file).getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /**
     * The region a file's prefixes go to: its name without extension; "NAME6" joins "NAME" when
     * both are loaded together (the china-operator-ip convention for IPv6 lists).
     */
    static String regionFromName(String file, List<String> loadedNames) {
        String base = baseName(file);
        if (base.endsWith("6") && loadedNames.contains(base.substring(0, base.length() - 1))) {
            return base.substring(0, base.length() - 1);
        }
        return base;
    }

    /** {@code region} is the operator's explicit name (or null); {@code fromName} the file-name default. */
    static TopologySource parse(String file, String text, String region, String fromName) throws TopologyException {
        String first = text.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("//"))
                .findFirst()
                .orElse("");
        if (first.startsWith("topology")) {
            return ThreeDnsFile.parse(file, text);
        }
        if (ApnicStats.LINE.matcher(first).matches() || first.matches("^\\d+(\\.\\d+)?\\|[a-z]+\\|.*")) {
            return ApnicStats.parse(file, text, region);
        }
        return CidrList.parse(file, text, region != null ? region : fromName);
    }

    /** A line without its comment (from {@code comment} on) and the blanks around it. */
    static String uncommented(String raw, String comment) {
        int at = raw.indexOf(comment);
        return (at >= 0 ? raw.substring(0, at) : raw).strip();
    }

    /** Counts per region, for load reports. */
    public static Map<String, Integer> countsByRegion(List<TopologySource> sources) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (TopologySource s : sources) {
            for (Region r : s.regions()) {
                counts.merge(r.name(), r.prefixes().size(), Integer::sum);
            }
        }
        return counts;
    }
}
