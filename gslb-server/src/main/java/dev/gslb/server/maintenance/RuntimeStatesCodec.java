package dev.gslb.server.maintenance;

import dev.gslb.api.Json;
import dev.gslb.api.RuntimeStatesView;
import dev.gslb.site.AdminState;
import dev.gslb.site.RuntimeState;
import dev.gslb.site.RuntimeStates;
import dev.gslb.site.RuntimeTarget;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runtime states as JSON ({@link RuntimeStatesView}): what the state folder keeps and what peers
 * exchange. Both are read as hostile: a bounded number of states, bounded texts, known kinds and
 * states, or an error saying what is wrong.
 */
final class RuntimeStatesCodec {
    /** More than any site has things to disable; a peer cannot make this instance hold more. */
    static final int MAX_STATES = 4096;

    static final int MAX_NAME = RuntimeTarget.MAX_NAME;
    static final int MAX_BY = 64;
    static final int MAX_REASON = 256;

    private RuntimeStatesCodec() {}

    static RuntimeStatesView view(RuntimeStates r) {
        return new RuntimeStatesView(
                r.generation(),
                r.origin(),
                r.states().entrySet().stream()
                        .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(RuntimeTarget::toString)))
                        .map(e -> new RuntimeStatesView.Entry(
                                e.getKey().kind().word(),
                                e.getKey().name(),
                                e.getValue().state().word(),
                                e.getValue().by(),
                                Instant.ofEpochMilli(e.getValue().atMillis()).toString(),
                                e.getValue().reason(),
                                e.getValue().untilMillis() > 0
                                        ? Instant.ofEpochMilli(e.getValue().untilMillis())
                                                .toString()
                                        : null))
                        .toList());
    }

    static byte[] encode(RuntimeStates r) {
        return Json.write(view(r)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The states in {@code bytes}; IllegalArgumentException naming what is wrong. */
    static RuntimeStates decode(byte[] bytes) {
        RuntimeStatesView v;
        try {
            v = Json.MAPPER.readValue(bytes, RuntimeStatesView.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("not runtime states: " + e.getMessage(), e);
        }
        if (v == null || v.generation() < 0) {
            throw new IllegalArgumentException("no generation");
        }
        if (v.states().size() > MAX_STATES) {
            throw new IllegalArgumentException(v.states().size() + " states, more than " + MAX_STATES);
        }
        Map<RuntimeTarget, RuntimeState> states = new LinkedHashMap<>();
        for (RuntimeStatesView.Entry e : v.states()) {
            RuntimeTarget t = new RuntimeTarget(
                    RuntimeTarget.Kind.parse(text(e.kind(), "kind", 16)), text(e.name(), "name", MAX_NAME));
            AdminState s = switch (text(e.state(), "state", 16)) {
                case "disabled" -> AdminState.DISABLED;
                case "drained" -> AdminState.DRAINED;
                case "enabled" -> AdminState.ENABLED; // only a resume is kept enabled
                default ->
                    throw new IllegalArgumentException(t + ": state must be disabled or drained, not " + e.state());
            };
            if ((s == AdminState.ENABLED) != (t.kind() == RuntimeTarget.Kind.RESUME)) {
                throw new IllegalArgumentException(
                        t + ": state must be " + (s == AdminState.ENABLED ? "disabled or drained" : "enabled"));
            }
            states.put(
                    t,
                    new RuntimeState(
                            s,
                            text(e.by(), "by", MAX_BY),
                            instant(e.at(), t),
                            e.reason() == null ? "" : text(e.reason(), "reason", MAX_REASON),
                            e.until() == null ? 0 : instant(e.until(), t)));
        }
        return new RuntimeStates(v.generation(), text(v.origin(), "origin", MAX_BY), states);
    }

    private static String text(String s, String what, int max) {
        if (s == null) {
            throw new IllegalArgumentException("a state without its " + what);
        }
        if (s.length() > max) {
            throw new IllegalArgumentException(what + " longer than " + max + " characters");
        }
        return s;
    }

    private static long instant(String s, RuntimeTarget t) {
        try {
            return Instant.parse(text(s, "time", 40)).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(t + ": not a time: " + s, e);
        }
    }
}
