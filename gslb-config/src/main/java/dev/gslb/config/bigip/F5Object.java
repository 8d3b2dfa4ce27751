package dev.gslb.config.bigip;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One F5 object (or a nested one: a pool member, a server's virtual server) being imported: its
 * properties are taken one by one, and {@link #rest} reports every property no one took as not
 * supported, so nothing of the source is dropped without a line in the report.
 */
final class F5Object {
    /** Properties that only describe an object; they are reported, never needed. */
    private static final Set<String> INFORMATIONAL = Set.of(
            "description", "app-service", "metadata", "location", "contact", "partition", "last-update", "ltm-name");

    final TmshNode node;
    final String kind;
    final String name;
    private final ImportReport report;
    private final Set<TmshNode> taken = new HashSet<>();

    F5Object(TmshNode node, String kind, String name, ImportReport report) {
        this.node = node;
        this.kind = kind;
        this.name = name;
        this.report = report;
    }

    int line() {
        return node.line();
    }

    /** The property {@code key} (its first statement), taken; null when absent. */
    TmshNode get(String key) {
        TmshNode found = null;
        for (TmshNode c : node.childrenOrEmpty()) {
            if (c.key().equals(key)) {
                taken.add(c);
                if (found == null) {
                    found = c;
                }
            }
        }
        return found;
    }

    /** The value of {@code key}, taken; null when absent. */
    String value(String key) {
        TmshNode c = get(key);
        return c == null ? null : c.value();
    }

    /** {@code enabled} or {@code disabled} written alone as a property (taken); false when neither is. */
    boolean disabled() {
        get("enabled");
        return get("disabled") != null;
    }

    void mapped(TmshNode at, String what) {
        report.mapped(kind, name, at.line(), what);
    }

    void different(TmshNode at, String what) {
        report.different(kind, name, at.line(), what);
    }

    void unsupported(TmshNode at, String what) {
        report.unsupported(kind, name, at.line(), what);
    }

    /** A line about the object itself. */
    void mapped(String what) {
        report.mapped(kind, name, line(), what);
    }

    void different(String what) {
        report.different(kind, name, line(), what);
    }

    void unsupported(String what) {
        report.unsupported(kind, name, line(), what);
    }

    /** Every property not taken: a line each, "not supported". */
    void rest() {
        for (TmshNode c : node.childrenOrEmpty()) {
            if (taken.contains(c)) {
                continue;
            }
            String shown = c.words().size() > 6
                    ? String.join(" ", c.words().subList(0, 6)) + " ..."
                    : String.join(" ", c.words());
            if (INFORMATIONAL.contains(c.key())) {
                report.unsupported(kind, name, c.line(), shown + ": informational; not kept");
            } else {
                report.unsupported(
                        kind, name, c.line(), shown + (c.isBlock() ? " { ... }" : "") + ": no counterpart here");
            }
        }
    }

    /** The property {@code key}'s nested statements, taken ({@code members { ... }}). */
    List<TmshNode> block(String key) {
        TmshNode c = get(key);
        return c == null ? List.of() : c.childrenOrEmpty();
    }
}
