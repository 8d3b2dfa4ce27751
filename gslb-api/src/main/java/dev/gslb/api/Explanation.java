package dev.gslb.api;

import java.util.List;

/**
 * A wide IP's decision for one LDNS (and client subnet), step by step: what GET /resolve answers
 * and `gslb resolve --explain` prints.
 */
public record Explanation(
        String name,
        String type,
        String ldns,
        String ecs,
        List<Step> steps,
        DecidedBy decidedBy,
        String failure,
        List<Answer> answers,
        long ttl,
        int ecsScope) {

    /** One step of the decision. */
    public record Step(String topic, String detail) {}

    /** The pool, tier and method that decided, and how. */
    public record DecidedBy(String pool, String tier, String method, Outcome outcome) {}

    /** How a method decided, written in lower case. */
    public enum Outcome {
        PICKED,
        PASS,
        DROP,
        RETURN_TO_DNS,
        FALLBACK_IP
    }

    /** One answered address; {@code server} and {@code dataCenter} are null for a fallback IP. */
    public record Answer(String server, String address, String dataCenter) {}
}
