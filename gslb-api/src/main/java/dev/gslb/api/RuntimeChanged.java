package dev.gslb.api;

/**
 * What a runtime-state change did.
 *
 * @param before            the target's state before (enabled, drained, disabled)
 * @param after             its state now
 * @param answersLastMinute the answers it got in the last minute: about what a disable or drain
 *                          moves elsewhere (from `gslb stats`)
 * @param generation        the runtime states' generation now (unchanged when nothing changed)
 * @param warning           what the operator should know (e.g. forced past the last enabled member), or null
 */
public record RuntimeChanged(
        String kind,
        String name,
        String before,
        String after,
        long answersLastMinute,
        long generation,
        String warning) {}
