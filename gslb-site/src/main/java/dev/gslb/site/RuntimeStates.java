package dev.gslb.site;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every runtime state of one generation: immutable, replaced whole. A target absent here is
 * enabled. The pool, member and wide-IP states are indexed for the query path (a map read only
 * when there are any; no allocation).
 *
 * @param generation one more than the states it replaced (0: nothing was ever set)
 * @param origin     the instance where that change was made
 */
public record RuntimeStates(long generation, String origin, Map<RuntimeTarget, RuntimeState> states) {
    public static final RuntimeStates NONE = new RuntimeStates(0, "", Map.of());

    public RuntimeStates {
        origin = origin == null ? "" : origin;
        states = Map.copyOf(states);
    }

    /** The state set on {@code target}, or null (enabled). */
    public RuntimeState get(RuntimeTarget target) {
        return states.get(target);
    }

    /** The state set on {@code target} and in force at {@code now} (not ended), or null (enabled). */
    public RuntimeState inForce(RuntimeTarget target, long now) {
        RuntimeState s = states.get(target);
        return s != null && s.liveAt(now) ? s : null;
    }

    /**
     * What holds {@code vs} at {@code now}: the strictest of the states in force on it, its data
     * center and its link (of equal ones, the server's own, then its data center's), or null.
     */
    public RuntimeState on(VirtualServer vs, long now) {
        RuntimeState set = stricter(
                inForce(new RuntimeTarget(RuntimeTarget.Kind.VS, vs.name()), now),
                inForce(
                        new RuntimeTarget(
                                RuntimeTarget.Kind.DATACENTER, vs.dataCenter().name()),
                        now));
        return vs.link() == null
                ? set
                : stricter(set, inForce(new RuntimeTarget(RuntimeTarget.Kind.LINK, vs.link()), now));
    }

    /** The stricter of two states (null: enabled); of equal ones, the first. */
    private static RuntimeState stricter(RuntimeState a, RuntimeState b) {
        if (a == null) {
            return b;
        }
        return b != null && b.state().ordinal() > a.state().ordinal() ? b : a;
    }

    /**
     * The next generation, made at {@code origin}: {@code target} set to {@code state} (removed
     * when null: enabled), and what ended before {@code now} dropped.
     */
    public RuntimeStates with(RuntimeTarget target, RuntimeState state, String origin, long now) {
        Map<RuntimeTarget, RuntimeState> next = new LinkedHashMap<>();
        states.forEach((t, s) -> {
            if (s.liveAt(now)) {
                next.put(t, s);
            }
        });
        if (state == null) {
            next.remove(target);
        } else {
            next.put(target, state);
        }
        return new RuntimeStates(generation + 1, origin, next);
    }

    /** Newer than {@code o}: the greater generation, then the greater origin (both sides pick alike). */
    public boolean newerThan(RuntimeStates o) {
        return generation != o.generation ? generation > o.generation : origin.compareTo(o.origin) > 0;
    }

    /** The states of one kind in force at {@code now}, by name: what the query path's indexes hold. */
    Map<String, RuntimeState> live(RuntimeTarget.Kind kind, long now) {
        Map<String, RuntimeState> m = new HashMap<>();
        states.forEach((t, s) -> {
            if (t.kind() == kind && s.liveAt(now)) {
                m.put(t.name(), s);
            }
        });
        return m;
    }

    /** The earliest end of a state still in force, or Long.MAX_VALUE. */
    long nextEnd(long now) {
        long next = Long.MAX_VALUE;
        for (RuntimeState s : states.values()) {
            if (s.untilMillis() > now) {
                next = Math.min(next, s.untilMillis());
            }
        }
        return next;
    }
}
