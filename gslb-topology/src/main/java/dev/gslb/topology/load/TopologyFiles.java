package dev.gslb.topology.load;

import dev.gslb.topology.Cidr;
import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyRecord;
import inet.ipaddr.ipv4.IPv4Address;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads topology input in the three formats operators have: one CIDR per line (ISP lists), the
 * 3DNS {@code topology { dc."CNC" 202.106.0.0/16 100 }} syntax, and APNIC delegated-stats lines.
 * The format is recognised from the content. Any bad line fails the whole file with file:line.
 */
public final class TopologyFiles {
    private static final Pattern APNIC_LINE = Pattern.compile("^[a-z]+\\|[A-Z]{2}\\|(ipv4|ipv6|asn)\\|.*");
    /** {@code TARGET SOURCE SCORE}: a data center, pool or server; a CIDR, region, ISP, country or continent. */
    private static final Pattern THREE_DNS_RECORD = Pattern.compile(
            "(dc|datacenter|pool|server|vs)\\.\"([^\"]+)\"\\s+(!?)\\s*((?:region|isp|country|continent)\\.\"[^\"]*\"|\\S+)\\s+(\\d+)");

    /** A source that names something: region."X", isp."X", country."X" or continent."X". */
    private static final Pattern NAMED_SOURCE = Pattern.compile("(?:region|isp|country|continent)\\.\"[^\"]*\"");

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
            return threeDns(file, text);
        }
        if (APNIC_LINE.matcher(first).matches() || first.matches("^\\d+(\\.\\d+)?\\|[a-z]+\\|.*")) {
            return apnic(file, text, region);
        }
        return cidrList(file, text, region != null ? region : fromName);
    }

    private static TopologySource cidrList(String file, String text, String region) throws TopologyException {
        Problems problems = new Problems();
        List<Region.Prefix> prefixes = new ArrayList<>();
        int n = 0;
        for (String raw : (Iterable<String>) text.lines()::iterator) {
            n++;
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                prefixes.add(new Region.Prefix(Cidr.parse(line), file, n));
            } catch (IllegalArgumentException e) {
                problems.add(file, n, e.getMessage());
            }
        }
        if (prefixes.isEmpty() && problems.count() > 0) { // the wrong file (a zone, a config): say so once
            throw new TopologyException(List.of(file + ": not a CIDR list: none of its " + problems.count()
                    + " non-blank lines is a CIDR (first: " + problems.first() + ")"));
        }
        if (prefixes.isEmpty() && n == 0) {
            problems.add(file, 0, "empty file; expected one CIDR per line");
        } else if (prefixes.isEmpty()) {
            problems.add(file, 0, "no CIDR in the file (only comments or blank lines)");
        }
        problems.throwIfAny();
        return new TopologySource(
                file, TopologySource.Format.CIDR_LIST, List.of(new Region(region, prefixes)), List.of());
    }

    /** {@code topology { dc."CNC" 202.106.0.0/16 100 ... }}; a source may also be region."NAME". */
    private static TopologySource threeDns(String file, String text) throws TopologyException {
        Problems problems = new Problems();
        List<TopologyRecord> records = new ArrayList<>();
        List<Region> regions = new ArrayList<>();
        Map<String, List<Region.Prefix>> cidrRegions = new LinkedHashMap<>();
        boolean open = false;
        boolean closed = false;
        int n = 0;
        for (String raw : (Iterable<String>) text.lines()::iterator) {
            n++;
            int comment = raw.indexOf("//");
            String line = (comment >= 0 ? raw.substring(0, comment) : raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!open) {
                if (!line.matches("topology\\s*\\{")) {
                    problems.add(file, n, "expected 'topology {' to open the table");
                    break;
                }
                open = true;
                continue;
            }
            if (line.equals("}")) {
                closed = true;
                continue;
            }
            if (closed) {
                problems.add(file, n, "text after the closing '}'");
                continue;
            }
            Matcher m = THREE_DNS_RECORD.matcher(line);
            if (!m.matches()) {
                problems.add(
                        file,
                        n,
                        "expected: TARGET SOURCE SCORE, TARGET dc.\"NAME\", pool.\"NAME\" or server.\"NAME\", SOURCE a"
                                + " CIDR, region.\"NAME\", isp.\"NAME\", country.\"CC\" or continent.\"NAME\""
                                + " (for example dc.\"CNC\" 202.106.0.0/16 100)");
                continue;
            }
            boolean not = !m.group(3).isEmpty();
            String source = m.group(4);
            String regionName;
            int dot = source.indexOf(".\"");
            if (NAMED_SOURCE.matcher(source).matches()) {
                String kind = source.substring(0, dot);
                String name = source.substring(dot + 2, source.length() - 1);
                // region."X" names a loaded region; isp/country/continent are mapped to one when the table is built
                regionName = kind.equals("region") ? name : kind + ":" + name;
            } else if (not) { // a negated CIDR is no region of its own: only the addresses outside it match
                try {
                    regionName = Cidr.parse(source).toString();
                } catch (IllegalArgumentException e) {
                    problems.add(file, n, e.getMessage());
                    continue;
                }
            } else {
                try {
                    Cidr cidr = Cidr.parse(source);
                    regionName = cidr.toString();
                    cidrRegions
                            .computeIfAbsent(regionName, k -> new ArrayList<>())
                            .add(new Region.Prefix(cidr, file, n));
                } catch (IllegalArgumentException e) {
                    problems.add(file, n, e.getMessage());
                    continue;
                }
            }
            String target = switch (m.group(1)) {
                case "pool" -> TopologyRecord.POOL + m.group(2);
                case "server", "vs" -> TopologyRecord.SERVER + m.group(2);
                default -> m.group(2);
            };
            try {
                records.add(new TopologyRecord(
                        (not ? TopologyRecord.NOT : "") + regionName,
                        target,
                        Long.parseLong(m.group(5)),
                        file + ":" + n));
            } catch (IllegalArgumentException e) {
                problems.add(file, n, "score must be 0..4294967295");
            }
        }
        if (open && !closed) {
            problems.add(file, n, "missing the closing '}' of 'topology {'");
        }
        if (!open && n == 0) {
            problems.add(file, 0, "empty file");
        }
        problems.throwIfAny();
        cidrRegions.forEach((name, prefixes) -> regions.add(new Region(name, List.of(prefixes.getFirst()))));
        return new TopologySource(file, TopologySource.Format.THREE_DNS, regions, records);
    }

    /**
     * APNIC delegated stats: {@code registry|cc|type|start|value|date|status}. IPv4 value is an
     * address count (may need several CIDRs), IPv6 value a prefix length. Header, summary, asn and
     * unallocated lines are skipped. The region is {@code region} if given, else the country code.
     */
    private static TopologySource apnic(String file, String text, String region) throws TopologyException {
        Problems problems = new Problems();
        Map<String, List<Region.Prefix>> byRegion = new LinkedHashMap<>();
        int n = 0;
        for (String raw : (Iterable<String>) text.lines()::iterator) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\|", -1);
            if (f.length < 6) {
                problems.add(file, n, "expected registry|cc|type|start|value|date|status");
                continue;
            }
            if (f[0].matches("\\d+(\\.\\d+)?") || f[1].equals("*") || f[5].equals("summary") || f[2].equals("asn")) {
                continue; // version header, summary or AS-number line
            }
            if (f.length >= 7 && !(f[6].equals("allocated") || f[6].equals("assigned"))) {
                continue; // available / reserved space belongs to nobody yet
            }
            String name = region != null ? region : f[1];
            try {
                List<Cidr> cidrs = switch (f[2]) {
                    case "ipv4" -> rangeToCidrs(f[3], Long.parseLong(f[4]));
                    case "ipv6" -> List.of(Cidr.parse(f[3] + "/" + Integer.parseInt(f[4])));
                    default ->
                        throw new IllegalArgumentException("unknown type '" + f[2] + "'; expected ipv4, ipv6 or asn");
                };
                int line0 = n;
                cidrs.forEach(c ->
                        byRegion.computeIfAbsent(name, k -> new ArrayList<>()).add(new Region.Prefix(c, file, line0)));
            } catch (IllegalArgumentException e) {
                problems.add(file, n, e.getMessage());
            }
        }
        if (byRegion.isEmpty()) {
            problems.add(file, 0, "no allocated ipv4 or ipv6 lines");
        }
        problems.throwIfAny();
        List<Region> regions = new ArrayList<>();
        byRegion.forEach((name, prefixes) -> regions.add(new Region(name, prefixes)));
        return new TopologySource(file, TopologySource.Format.APNIC, regions, List.of());
    }

    /** The fewest CIDRs covering {@code count} addresses from {@code start} (counts need not be powers of two). */
    static List<Cidr> rangeToCidrs(String start, long count) {
        if (count <= 0 || count > (1L << 32)) {
            throw new IllegalArgumentException("address count must be 1..4294967296, not " + count);
        }
        InetAddress ip;
        try {
            ip = InetAddress.ofLiteral(start);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + start + "' is not an IPv4 address");
        }
        if (!(ip instanceof java.net.Inet4Address)) {
            throw new IllegalArgumentException("'" + start + "' is not an IPv4 address");
        }
        long first = new BigInteger(1, ip.getAddress()).longValue();
        long last = first + count - 1;
        if (last >= (1L << 32)) {
            throw new IllegalArgumentException(start + " + " + count + " runs past 255.255.255.255");
        }
        List<Cidr> out = new ArrayList<>();
        for (IPv4Address block : new IPv4Address((int) first).spanWithPrefixBlocks(new IPv4Address((int) last))) {
            out.add(Cidr.parse(block.toCanonicalString()));
        }
        return out;
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
