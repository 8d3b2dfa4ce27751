package dev.gslb.server.alert;

import dev.gslb.api.Event;
import dev.gslb.api.Json;
import dev.gslb.config.alert.AlertSpec;
import dev.gslb.dns.answer.ThrottledLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Sends events to the configured alert targets. {@link #raise} never blocks: an event goes into
 * each matching target's bounded queue (full: dropped and counted) and one virtual thread per
 * target runs the program or POSTs the webhook, with a timeout; a failure is logged (throttled)
 * and counted, never retried. Each target takes at most {@code max-per-minute} events in any
 * minute; the rest are dropped and counted.
 */
public final class Alerts implements AutoCloseable {
    private static final int QUEUE = 1000;

    private final String instance;
    private final Clock clock;
    private final List<Target> targets = new ArrayList<>();
    // only when a target has a webhook: a client loads the JDK's CA certificates (about 0.1 s of
    // every start otherwise)
    private final HttpClient http;
    private final ThrottledLog failures = new ThrottledLog(Alerts.class.getName());
    private final Counter sent;
    private final Counter failed;
    private final Counter dropped;

    /** One alert entry: its spec, queue, rate window and sender thread. */
    private final class Target {
        final AlertSpec spec;
        final BlockingQueue<Event> queue = new ArrayBlockingQueue<>(QUEUE);
        final ArrayDeque<Long> recent = new ArrayDeque<>();
        final Thread sender;

        Target(AlertSpec spec, int index) {
            this.spec = spec;
            this.sender = Thread.ofVirtual().name("alert-" + index).start(this::send);
        }

        /** False when this minute's allowance is spent. */
        synchronized boolean allow(long now) {
            while (!recent.isEmpty() && now - recent.peekFirst() >= 60_000) {
                recent.removeFirst();
            }
            if (recent.size() >= spec.maxPerMinute()) {
                return false;
            }
            recent.addLast(now);
            return true;
        }

        private void send() {
            try {
                for (; ; ) {
                    Event e = queue.take();
                    byte[] json = Json.compact(e).getBytes(StandardCharsets.UTF_8);
                    if (spec.exec() != null && !spec.exec().isEmpty()) {
                        deliver(e, "exec " + spec.exec().getFirst(), () -> run(e, json));
                    }
                    if (spec.webhook() != null) {
                        deliver( // the host only: a webhook's user, path or query often is its token
                                e,
                                "webhook " + spec.webhook().getScheme() + "://"
                                        + spec.webhook().getHost()
                                        + (spec.webhook().getPort() < 0
                                                ? ""
                                                : ":" + spec.webhook().getPort()),
                                () -> post(json));
                    }
                }
            } catch (InterruptedException stop) {
                // closing
            }
        }

        private void run(Event e, byte[] json) throws IOException, InterruptedException {
            List<String> command = spec.exec().stream()
                    .map(a -> a.replace("{event}", CommandLineName.of(e.event()))
                            .replace("{subject}", CommandLineName.of(e.subject())))
                    .toList();
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("GSLB_EVENT", e.event());
            pb.environment().put("GSLB_SUBJECT", e.subject());
            Process p = pb.start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(json);
            } catch (IOException ignored) {
                // the program did not read its input: that is its choice
            }
            boolean finished;
            try {
                finished = p.waitFor(spec.timeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException stopping) {
                p.destroyForcibly(); // the server stops: so does what it started
                throw stopping;
            }
            if (!finished) {
                p.destroyForcibly();
                throw new IOException("did not finish within " + spec.timeout().toMillis() + " ms");
            }
            if (p.exitValue() != 0) {
                throw new IOException("exited with " + p.exitValue());
            }
        }

        private void post(byte[] json) throws IOException, InterruptedException {
            HttpResponse<Void> r = http.send(
                    HttpRequest.newBuilder(spec.webhook())
                            .timeout(spec.timeout())
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(json))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() / 100 != 2) {
                throw new IOException("answered " + r.statusCode());
            }
        }
    }

    private interface Delivery {
        void run() throws IOException, InterruptedException;
    }

    private void deliver(Event e, String where, Delivery d) throws InterruptedException {
        try {
            d.run();
            sent.increment();
        } catch (IOException | RuntimeException x) {
            failed.increment();
            if (failures.admit()) {
                failures.line("alert " + e.event() + " about " + e.subject() + " to " + where
                        + " failed (not retried): " + x.getMessage());
            }
        }
    }

    public Alerts(List<AlertSpec> specs, String instance, Clock clock, MeterRegistry registry) {
        this.instance = instance;
        this.clock = clock;
        this.sent = alerts("sent", registry);
        this.failed = alerts("failed", registry);
        this.dropped = alerts("dropped", registry);
        this.http = specs.stream().anyMatch(s -> s.webhook() != null)
                ? HttpClient.newBuilder()
                        .connectTimeout(java.time.Duration.ofSeconds(5))
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .build()
                : null;
        for (int i = 0; i < specs.size(); i++) {
            targets.add(new Target(specs.get(i), i));
        }
    }

    private static Counter alerts(String result, MeterRegistry registry) {
        return Counter.builder("alerts")
                .tag("result", result)
                .description("Alert events, by result: sent to a target, failed (not retried), or dropped (the"
                        + " target's queue full or over its max-per-minute)")
                .register(registry);
    }

    /** Tells every target that listens for {@code kind}; returns at once. */
    public void raise(Event.Kind kind, String subject, String dataCenter, String detail) {
        if (targets.isEmpty()) {
            return;
        }
        long now = clock.millis();
        Event e = new Event(
                kind.label(),
                subject,
                dataCenter,
                instance,
                Instant.ofEpochMilli(now).toString(),
                detail);
        for (Target t : targets) {
            if (t.spec.on().contains(kind)) {
                if (!t.allow(now) || !t.queue.offer(e)) {
                    dropped.increment();
                }
            }
        }
    }

    @Override
    public void close() {
        targets.forEach(t -> t.sender.interrupt());
        failures.close();
    }
}
