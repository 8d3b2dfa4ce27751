package dev.gslb.config.alert;

import dev.gslb.api.Event;
import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One entry of {@code alerts:} (docs/operator-guide.md "Get told when something changes"): which
 * events, and where they go: a program run with the event as JSON on its standard input, and/or a
 * webhook the event is POSTed to.
 *
 * @param maxPerMinute events beyond this in any minute are dropped and counted (a flapping server
 *                     cannot flood the pager)
 * @param timeout      how long a program or webhook may take; then it is given up (never retried)
 */
public record AlertSpec(Set<Event.Kind> on, List<String> exec, URI webhook, int maxPerMinute, Duration timeout) {
    public static final Setting<Set<Event.Kind>> ON = Setting.list(
                    "on", String.class, List.of(), "the events sent (server-down, link-up, peer-lost, ...)")
            .map(names -> names.stream().map(Event.Kind::parse).collect(Collectors.toSet()), Set.<Event.Kind>of())
            .shown("required");
    public static final Setting<List<String>> EXEC = Setting.list(
            "exec",
            String.class,
            null,
            "a program and its arguments, run with the event as JSON on its standard input");
    public static final Setting<URI> WEBHOOK = Setting.of(
                    "webhook", URI.class, null, "an http or https URL the event is POSTed to")
            .asSecret(); // such a URL often carries a token: webhook-file: or ${env:GSLB_...}
    public static final Setting<Integer> MAX_PER_MINUTE =
            Setting.integer("max-per-minute", 20, 1, 10_000, "more in any minute are dropped and counted");
    public static final Setting<Duration> TIMEOUT = Setting.duration(
            "timeout", Duration.ofSeconds(10), "a program or webhook taking longer is given up (never retried)");

    public static final SettingsTable<AlertSpec> SETTINGS =
            SettingsTable.of(AlertSpec.class, ON, EXEC, WEBHOOK, MAX_PER_MINUTE, TIMEOUT);

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
}
