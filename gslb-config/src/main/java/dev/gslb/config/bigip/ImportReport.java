package dev.gslb.config.bigip;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an import did with each object and setting of the F5 configuration: mapped as it is,
 * mapped with a difference (said), or not supported (said why, and what to do instead), each at
 * its {@code file:line}; and a count per kind of object.
 */
public final class ImportReport {
    /** How a line of the F5 configuration came across. */
    public enum Status {
        MAPPED("mapped"),
        DIFFERENT("different"),
        UNSUPPORTED("not supported");

        private final String text;

        Status(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** One object or setting: {@code kind} is the F5 object's kind (pool, wideip, monitor, ...). */
    public record Line(String file, int line, String kind, String object, Status status, String what) {
        @Override
        public String toString() {
            return printable(file + ":" + line + ": " + kind + " " + object + ": " + status.text() + ": " + what);
        }
    }

    /** Control characters from the F5 file shown escaped: a quoted new line or ESC must not make a line of its own. */
    static String printable(String text) {
        StringBuilder b = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                b.append(String.format("\\x%02x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
    }

    private final String file;
    private final List<Line> lines = new ArrayList<>();

    ImportReport(String file) {
        this.file = file;
    }

    void mapped(String kind, String object, int line, String what) {
        lines.add(new Line(file, line, kind, object, Status.MAPPED, what));
    }

    void different(String kind, String object, int line, String what) {
        lines.add(new Line(file, line, kind, object, Status.DIFFERENT, what));
    }

    void unsupported(String kind, String object, int line, String what) {
        lines.add(new Line(file, line, kind, object, Status.UNSUPPORTED, what));
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** Lines per kind and status, kinds in name order. */
    public Map<String, Map<Status, Integer>> counts() {
        Map<String, Map<Status, Integer>> out = new TreeMap<>();
        for (Line l : lines) {
            out.computeIfAbsent(l.kind(), k -> {
                        Map<Status, Integer> m = new EnumMap<>(Status.class);
                        for (Status s : Status.values()) {
                            m.put(s, 0);
                        }
                        return m;
                    })
                    .merge(l.status(), 1, Integer::sum);
        }
        return out;
    }

    public int count(Status status) {
        return (int) lines.stream().filter(l -> l.status() == status).count();
    }

    /** The count table: one row per kind, and the total. */
    public String summary() {
        StringBuilder b = new StringBuilder(
                String.format("%-16s %8s %10s %14s%n", "KIND", "MAPPED", "DIFFERENT", "NOT SUPPORTED"));
        int[] total = new int[3];
        for (var e : counts().entrySet()) {
            var m = e.getValue();
            b.append(String.format(
                    "%-16s %8d %10d %14d%n",
                    e.getKey(), m.get(Status.MAPPED), m.get(Status.DIFFERENT), m.get(Status.UNSUPPORTED)));
            for (Status s : Status.values()) {
                total[s.ordinal()] += m.get(s);
            }
        }
        b.append(String.format("%-16s %8d %10d %14d%n", "total", total[0], total[1], total[2]));
        return b.toString();
    }

    /** The whole report: the counts, then every line in file order, or only the lines that are not plainly mapped. */
    public String text(boolean withMapped) {
        StringBuilder b = new StringBuilder(summary());
        List<Line> sorted = new ArrayList<>(lines);
        sorted.sort(java.util.Comparator.comparingInt(Line::line));
        for (Line l : sorted) {
            if (withMapped || l.status() != Status.MAPPED) {
                b.append(l).append('\n');
            }
        }
        return b.toString();
    }
}
