package dev.gslb.site;

import java.time.Instant;

/**
 * One runtime state as an operator set it.
 *
 * @param by          who set it: the admin token's name, or the peer instance it came from
 * @param atMillis    when
 * @param reason      why, as given (may be empty)
 * @param untilMillis when it ends by itself ({@code --for}), or 0 for never
 */
public record RuntimeState(AdminState state, String by, long atMillis, String reason, long untilMillis) {
    public RuntimeState {
        reason = reason == null ? "" : reason;
        by = by == null ? "" : by;
        RuntimeTarget.printable(reason, "reason");
        RuntimeTarget.printable(by, "who");
    }

    /** Still in force at {@code now}. */
    public boolean liveAt(long now) {
        return untilMillis <= 0 || now < untilMillis;
    }

    /** {@code disabled by alice at 2026-12-01T10:00:00Z: kernel upgrade}: what explanations show. */
    public String describe() {
        return state.word() + " by " + by + " at " + Instant.ofEpochMilli(atMillis)
                + (untilMillis > 0 ? " until " + Instant.ofEpochMilli(untilMillis) : "")
                + (reason.isEmpty() ? "" : ": " + reason);
    }
}
