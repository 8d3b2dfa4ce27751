package dev.gslb.config.alert;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.api.Event;
import dev.gslb.settings.Bounds;
import dev.gslb.settings.Section;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * One entry of {@code alerts:} (README "Alerts"): which events, and where they go: a program run
 * with the event as JSON on its standard input, and/or a webhook the event is POSTed to.
 *
 * @param maxPerMinute events beyond this in any minute are dropped and counted (a flapping server
 *                     cannot flood the pager)
 * @param timeout      how long a program or webhook may take; then it is given up (never retried)
 */
public record AlertSpec(Set<Event.Kind> on, List<String> exec, URI webhook, int maxPerMinute, Duration timeout) {
    public static final Section<List<AlertSpec>> SECTION = Section.list("alerts", AlertSpec.class);

    public AlertSpec {
        on = Set.copyOf(on);
        exec = exec == null ? null : List.copyOf(exec);
        if (on.isEmpty()) {
            throw new IllegalArgumentException("an alert needs 'on:' (a list of events: " + Event.Kind.names() + ")");
        }
        if ((exec == null || exec.isEmpty()) && webhook == null) {
            throw new IllegalArgumentException(
                    "an alert needs 'exec:' (a program and its arguments) or 'webhook:' (a URL)");
        }
        if (webhook != null && !List.of("http", "https").contains(String.valueOf(webhook.getScheme()))) {
            throw new IllegalArgumentException("webhook " + webhook + " is not an http or https URL");
        }
    }

    @JsonCreator
    public static AlertSpec bind(
            @JsonProperty("on") List<String> on,
            @JsonProperty("exec") List<String> exec,
            @JsonProperty("webhook") URI webhook,
            @JsonProperty("max-per-minute") Integer maxPerMinute,
            @JsonProperty("timeout") Duration timeout) {
        return new AlertSpec(
                on == null ? Set.of() : on.stream().map(Event.Kind::parse).collect(java.util.stream.Collectors.toSet()),
                exec,
                webhook,
                Bounds.within("max-per-minute", requireNonNullElse(maxPerMinute, 20), 1, 10_000),
                requireNonNullElse(timeout, Duration.ofSeconds(10)));
    }
}
