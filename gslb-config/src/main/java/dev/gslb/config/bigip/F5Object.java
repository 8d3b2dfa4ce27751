package dev.gslb.config.bigip;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
    /** Properties by key, in order: looked up once each, however many an object has. */
    private final Map<String, List<TmshNode>> byKey = new HashMap<>();
    /** By identity: a property's equality is its whole subtree, too dear to hash. */
    private final Set<TmshNode> taken = Collections.newSetFromMap(new IdentityHashMap<>());

    F5Object(TmshNode node, String kind, String name, ImportReport report) {
        this.node = node;
        this.kind = kind;
        this.name = name;
        this.report = report;
        for (TmshNode c : node.childrenOrEmpty()) {
            byKey.computeIfAbsent(c.key(), k -> new ArrayList<>(1)).add(c);
        }
    }

    int line() {
        return node.line();
    }

    /** The property {@code key}, taken; null when absent. Given again, the others are reported by {@link #rest}. */
    TmshNode get(String key) {
        List<TmshNode> all = byKey.get(key);
        if (all == null) {
            return null;
        }
        taken.add(all.getFirst());
        return all.getFirst();
    }

    /** Every statement of {@code key} (a property an object may give several times), taken. */
    List<TmshNode> all(String key) {
        List<TmshNode> all = byKey.getOrDefault(key, List.of());
        taken.addAll(all);
        return all;
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
            if (byKey.get(c.key()).getFirst() != c
                    && taken.contains(byKey.get(c.key()).getFirst())) {
                report.unsupported(kind, name, c.line(), shown + ": " + c.key() + " given again; the first is used");
            } else if (INFORMATIONAL.contains(c.key())) {
                report.unsupported(kind, name, c.line(), shown + ": informational; not kept");
            } else {
                report.unsupported(
                        kind, name, c.line(), shown + (c.isBlock() ? " { ... }" : "") + ": no counterpart here");
            }
        }
    }

    /** The property {@code key}'s nested statements, taken ({@code members { ... }}); given twice, both blocks'. */
    List<TmshNode> block(String key) {
        List<TmshNode> out = new ArrayList<>();
        for (TmshNode c : all(key)) {
            out.addAll(c.childrenOrEmpty());
        }
        return out;
    }
}
