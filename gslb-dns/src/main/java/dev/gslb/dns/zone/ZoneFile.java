package dev.gslb.dns.zone;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Master;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * Reads an RFC 1035 master file into a {@link Zone}, checking what an authoritative server needs:
 * one SOA at the apex, NS at the apex, no data outside the zone, no CNAME beside other data, glue
 * for in-bailiwick name servers of delegations. Every problem names the file and line.
 */
public final class ZoneFile {
    /** A bound on what one file can make the server hold. */
    public static final int MAX_RECORDS = 1_000_000;

    /**
     * A bound on the records a file's $GENERATE lines make together: a /16's PTR records. Lower than
     * {@link #MAX_RECORDS} because one short line of text should not cost seconds of loading.
     */
    public static final int MAX_GENERATED = 65_536;

    private ZoneFile() {}

    /** Loads {@code file}; the origin is given, or taken from the file name without a ".zone" suffix. */
    public static Zone load(Path file, Name origin) throws ZoneException {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(file.toString(), in, origin == null ? originFromFileName(file) : origin);
        } catch (IOException e) {
            throw new ZoneException(List.of(new ZoneProblem(file.toString(), 0, "cannot read: " + e.getMessage())));
        }
    }

    /** Reads a zone from {@code stream}; {@code label} names it in problems (the file). */
    public static Zone parse(String label, InputStream stream, Name origin) throws ZoneException {
        List<ZoneProblem> problems = new ArrayList<>();
        List<Record> records = new ArrayList<>();
        Map<Record, Integer> lines = new HashMap<>();
        try (LineCountingStream in = new LineCountingStream(stream)) {
            Master master = new Master(in, origin, 3600);
            master.disableIncludes(true); // a zone file names no other file: each is listed in the config
            for (; ; ) {
                Record r;
                try {
                    r = master.nextRecord();
                    if (r != null) {
                        r.toWireCanonical(); // dnsjava accepts some records it cannot write (empty OPENPGPKEY)
                    }
                } catch (TextParseException e) {
                    problems.add(new ZoneProblem(
                            label, lineOf(e.getMessage(), in.line() + 1), stripLocation(e.getMessage())));
                    break; // the tokenizer cannot resynchronise reliably after a syntax error
                } catch (RuntimeException e) { // dnsjava's reaction to some malformed lines ($GENERATE, empty rdata)
                    problems.add(new ZoneProblem(label, in.line() + 1, "malformed line (" + e.getMessage() + ")"));
                    break;
                }
                if (r == null) {
                    break;
                }
                if (records.size() == MAX_RECORDS) {
                    problems.add(new ZoneProblem(label, in.line(), tooMany()));
                    break;
                }
                records.add(r);
                lines.putIfAbsent(r, Math.max(1, in.line()));
            }
        } catch (GenerateTooWide e) {
            problems.add(new ZoneProblem(
                    label, e.line, "$GENERATE lines make more than " + MAX_GENERATED + " records; write them out"));
        } catch (IOException e) {
            problems.add(new ZoneProblem(label, 0, "cannot read: " + e.getMessage()));
        }
        if (!problems.isEmpty()) {
            throw new ZoneException(problems);
        }
        return check(label, origin, records, lines);
    }

    static Name originFromFileName(Path file) throws ZoneException {
        String name = file.getFileName().toString();
        if (name.endsWith(".zone")) {
            name = name.substring(0, name.length() - ".zone".length());
        }
        try {
            return Name.fromString(name, Name.root);
        } catch (TextParseException e) {
            throw new ZoneException(List.of(new ZoneProblem(
                    file.toString(), 0, "cannot take the zone origin from the file name; give origin explicitly")));
        }
    }

    /**
     * A zone of {@code records} (a transfer's), checked by the same rules as a file's; problems
     * name {@code label} and line 0.
     */
    public static Zone of(String label, Name origin, List<Record> records) throws ZoneException {
        if (records.size() > MAX_RECORDS) {
            throw new ZoneException(List.of(
                    new ZoneProblem(label, 0, records.size() + " records; a zone may hold at most " + MAX_RECORDS)));
        }
        return check(label, origin, records, Map.of());
    }

    private static Zone check(String label, Name origin, List<Record> records, Map<Record, Integer> lines)
            throws ZoneException {
        List<ZoneProblem> problems = new ArrayList<>();
        Map<Name, Map<Integer, List<Record>>> byName = new HashMap<>();
        SOARecord soa = null;
        for (Record r : records) {
            int line = lines.getOrDefault(r, 0);
            if (r.getDClass() != DClass.IN) {
                problems.add(new ZoneProblem(
                        label, line, "class " + DClass.string(r.getDClass()) + " is not served; use IN"));
                continue;
            }
            if (!r.getName().subdomain(origin)) {
                problems.add(new ZoneProblem(label, line, r.getName() + " is outside the zone " + origin));
                continue;
            }
            if (r instanceof SOARecord s) {
                if (!r.getName().equals(origin)) {
                    problems.add(new ZoneProblem(label, line, "SOA must be at the apex " + origin));
                    continue;
                }
                if (soa != null) {
                    problems.add(new ZoneProblem(label, line, "second SOA record; a zone has exactly one"));
                    continue;
                }
                soa = s;
            }
            byName.computeIfAbsent(r.getName(), n -> new HashMap<>())
                    .computeIfAbsent(r.getType(), t -> new ArrayList<>())
                    .add(r);
        }
        if (soa == null) {
            problems.add(new ZoneProblem(label, 0, "no SOA record at the apex " + origin));
        }
        Map<Integer, List<Record>> apex = byName.getOrDefault(origin, Map.of());
        if (!apex.containsKey(Type.NS)) {
            problems.add(new ZoneProblem(label, 0, "no NS records at the apex " + origin));
        }
        for (var entry : byName.entrySet()) {
            Map<Integer, List<Record>> types = entry.getValue();
            List<Record> cnames = types.get(Type.CNAME);
            if (cnames != null && (types.size() > 1 || cnames.size() > 1)) {
                problems.add(new ZoneProblem(
                        label,
                        lines.getOrDefault(cnames.getFirst(), 0),
                        entry.getKey() + " has a CNAME and other data; a CNAME must stand alone"));
            }
            if (cnames != null && entry.getKey().equals(origin)) {
                problems.add(new ZoneProblem(
                        label, lines.getOrDefault(cnames.getFirst(), 0), "CNAME at the zone apex is not allowed"));
            }
            List<Record> ns = types.get(Type.NS);
            if (ns != null && !entry.getKey().equals(origin)) {
                for (Record r : ns) {
                    Name target = ((NSRecord) r).getTarget();
                    Map<Integer, List<Record>> glue = byName.get(target);
                    boolean needsGlue = target.subdomain(entry.getKey());
                    if (needsGlue && (glue == null || !(glue.containsKey(Type.A) || glue.containsKey(Type.AAAA)))) {
                        problems.add(new ZoneProblem(
                                label,
                                lines.getOrDefault(r, 0),
                                "delegation " + entry.getKey() + " to " + target
                                        + " needs glue: add an A or AAAA record for " + target));
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            problems.sort((a, b) -> Integer.compare(a.line(), b.line()));
            throw new ZoneException(problems);
        }
        return new Zone(origin, soa, byName);
    }

    private static final java.util.regex.Pattern LOCATION = java.util.regex.Pattern.compile("^[^:]*:(\\d+):");

    private static int lineOf(String message, int fallback) {
        var m = message == null ? null : LOCATION.matcher(message);
        return m != null && m.find() ? Integer.parseInt(m.group(1)) : fallback;
    }

    /** dnsjava prefixes its messages with "file:line:"; we print our own location. */
    private static String stripLocation(String message) {
        if (message == null) {
            return "syntax error";
        }
        return message.replaceFirst("^[^:]*:\\d+:\\s*", "");
    }

    private static String tooMany() {
        return "more than " + MAX_RECORDS + " records; split the zone";
    }

    /** A $GENERATE line whose range would take the file past {@link #MAX_GENERATED}. */
    private static final class GenerateTooWide extends IOException {
        final int line;

        GenerateTooWide(int line) {
            super("$GENERATE range too wide at line " + line);
            this.line = line;
        }
    }

    /**
     * Counts newlines as the tokenizer consumes them, so a record can be tied to its line; and
     * adds up the $GENERATE ranges as their lines pass, so that one too wide is refused before
     * dnsjava makes its records (a million take seconds), not after.
     */
    private static final class LineCountingStream extends BufferedInputStream {
        private static final Pattern GENERATE =
                Pattern.compile("\\$GENERATE\\s+(\\d{1,18})-(\\d{1,18})(?:/(\\d{1,18}))?\\s", Pattern.CASE_INSENSITIVE);

        private int newlines;
        /** The start of the line being read: enough for a $GENERATE directive's range. */
        private final byte[] head = new byte[64];

        private int headLength;
        /** Whether this line's $GENERATE range was counted (as soon as its range ended, see {@link #see}). */
        private boolean counted;

        private long generated;

        LineCountingStream(InputStream in) {
            super(in);
        }

        int line() {
            return newlines;
        }

        @Override
        public synchronized int read() throws IOException {
            int b = super.read();
            see(b);
            return b;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            for (int i = 0; i < n; i++) {
                see(b[off + i]);
            }
            if (n < 0) {
                see(-1);
            }
            return n;
        }

        private void see(int b) throws GenerateTooWide {
            if (b == '\n' || b < 0) {
                if (b == '\n') {
                    newlines++;
                }
                if (!counted && headLength > 0 && head[0] == '$') {
                    count(b < 0 ? newlines + 1 : newlines);
                }
                headLength = 0;
                counted = false;
            } else if (headLength < head.length) {
                head[headLength++] = (byte) b;
                // Counted when the range ends, not at the newline: dnsjava may start generating before
                // it reads the end of the line (a fuzzed line whose rest it skips took seconds).
                if (!counted && head[0] == '$' && (b == ' ' || b == '\t')) {
                    count(newlines + 1);
                }
            }
        }

        private void count(int lineNumber) throws GenerateTooWide {
            String line = new String(head, 0, headLength, StandardCharsets.ISO_8859_1) + "\n";
            Matcher m = GENERATE.matcher(line);
            if (!m.lookingAt()) {
                return;
            }
            counted = true;
            long start = Long.parseLong(m.group(1));
            long end = Long.parseLong(m.group(2));
            long step = m.group(3) == null ? 1 : Math.max(1, Long.parseLong(m.group(3)));
            generated += end < start ? 0 : (end - start) / step + 1;
            if (generated > MAX_GENERATED) {
                throw new GenerateTooWide(lineNumber);
            }
        }
    }
}
