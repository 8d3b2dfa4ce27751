package dev.gslb.dns.dnstap;

import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Query logging in dnstap (AUTH_QUERY and AUTH_RESPONSE messages in Frame Streams, to a file or a
 * reader's Unix socket). The query path only copies a sampled query's bytes, its answer's and its
 * decision into a slot of a bounded ring ({@link #capture}); a thread of its own encodes and
 * writes them. A full ring, a reader that is gone, a record too large: the query is dropped and
 * counted ({@code dnstap_dropped}), never waited for.
 */
public final class Dnstap implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Dnstap.class);
    /** A slot's own room for a query and its answer; a larger pair takes an array of its own. */
    static final int RECORD_BYTES = 512;
    /** Bytes at most held in such arrays at once; past it a large pair is dropped. */
    static final long LARGE_BUDGET = 8L << 20;
    /** How long the writer sleeps when the ring is empty. */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private static final long FIRST_RETRY_MILLIS = 1000;
    private static final long LAST_RETRY_MILLIS = 30_000;

    private final DnstapSettings settings;
    private final Sampling sampling;
    private final boolean queries;
    private final boolean responses;
    private final TapQueue queue;
    private final DnstapEncoder encoder;
    private final AtomicLong large = new AtomicLong();
    private final Counter queueFull;
    private final Counter noReader;
    private final Counter tooLarge;
    private final Counter queriesWritten;
    private final Counter responsesWritten;
    private final Thread writer;
    private final StringBuilder extra = new StringBuilder();
    private volatile boolean closing;
    private FrameStream out;
    private long retryMillis = FIRST_RETRY_MILLIS;
    /** Messages and queries written since the last flush: counted as written or dropped by its outcome. */
    private long pendingQueries;

    private long pendingResponses;
    private long pendingRecords;
    private long nextTry;

    /** The tap as {@code settings} say, not started (tests fill its ring first); null when they leave it off. */
    static Dnstap of(DnstapSettings settings, String instance, MeterRegistry registry) {
        return settings.enabled() ? new Dnstap(settings, instance, registry) : null;
    }

    /**
     * Starts query logging as {@code settings} say, or returns null when they leave it off (the
     * query path then pays one null check). A file that cannot be written fails the start; a
     * socket with no reader yet is tried again until one listens.
     */
    public static Dnstap start(DnstapSettings settings, String instance, MeterRegistry registry) throws IOException {
        Dnstap tap = of(settings, instance, registry);
        if (tap != null) {
            tap.startWriter();
        }
        return tap;
    }

    private Dnstap(DnstapSettings settings, String instance, MeterRegistry registry) {
        this.settings = settings;
        this.sampling = settings.sampling();
        this.queries = settings.messages().contains(DnstapSettings.AUTH_QUERY);
        this.responses = settings.messages().contains(DnstapSettings.AUTH_RESPONSE);
        this.queue = new TapQueue(settings.queue(), RECORD_BYTES);
        String v = Dnstap.class.getPackage().getImplementationVersion();
        this.encoder = new DnstapEncoder(
                settings.identity() != null ? settings.identity() : instance,
                settings.version() != null ? settings.version() : v == null ? "gslb" : "gslb " + v);
        this.queueFull = dropped(registry, "queue-full");
        this.noReader = dropped(registry, "no-reader");
        this.tooLarge = dropped(registry, "too-large");
        this.queriesWritten = written(registry, DnstapSettings.AUTH_QUERY);
        this.responsesWritten = written(registry, DnstapSettings.AUTH_RESPONSE);
        this.writer = Thread.ofPlatform().name("dnstap").daemon().unstarted(this::write);
    }

    private static Counter written(MeterRegistry registry, String type) {
        return Counter.builder("dnstap_messages")
                .description("dnstap messages written, by type")
                .tag("type", type)
                .register(registry);
    }

    private static Counter dropped(MeterRegistry registry, String reason) {
        return Counter.builder("dnstap_dropped")
                .description("Queries not logged in dnstap, by reason")
                .tag("reason", reason)
                .register(registry);
    }

    /** Opens the file (or tries the socket once) and starts the writer thread. */
    void startWriter() throws IOException {
        if (settings.file() != null) {
            out = FrameFile.open(settings.file());
            log.info("dnstap: writing {} to {}", settings.messages(), settings.file());
        } else {
            connect();
        }
        writer.start();
    }

    /** Whether this thread's query number {@code n} (0, 1, 2 ...) is logged. */
    public boolean sampled(long n) {
        return sampling.take(n);
    }

    /**
     * Queues one query for logging: its bytes {@code query[0, queryLength)}, the answer written to
     * {@code answer} from {@code answerStart} (null when none was sent), the client {@code hi:lo}
     * (the 128-bit form) and {@code port}, the time it came in, and the wide IP decided and its
     * decision (null, null for any other answer). Copies, allocates nothing (but for a pair larger
     * than a slot), never waits.
     */
    public void capture(
            byte[] query,
            int queryLength,
            boolean tcp,
            long hi,
            long lo,
            int port,
            long millis,
            ByteBuf answer,
            int answerStart,
            WideIp wideIp,
            WideIpResolver.Result decision) {
        int answerLength = answer != null && responses ? answer.writerIndex() - answerStart : -1;
        TapRecord r = queue.claim();
        if (r == null) {
            queueFull.increment();
            return;
        }
        int total = queryLength + Math.max(answerLength, 0);
        if (total > r.own.length) {
            if (large.addAndGet(total) > LARGE_BUDGET) {
                large.addAndGet(-total);
                tooLarge.increment();
                r.queryLength = -1; // the slot goes back unwritten
                queue.publish(r);
                return;
            }
            r.bytes = new byte[total];
        }
        System.arraycopy(query, 0, r.bytes, 0, queryLength);
        if (answerLength > 0) {
            answer.getBytes(answerStart, r.bytes, queryLength, answerLength);
        }
        r.queryLength = queryLength;
        r.responseLength = answerLength;
        r.tcp = tcp;
        r.hi = hi;
        r.lo = lo;
        r.port = port;
        r.millis = millis;
        r.wideIp = wideIp;
        if (wideIp != null) {
            r.outcome = decision.outcome();
            r.pool = decision.pool();
            r.tier = decision.tierName();
            r.method = decision.method();
            r.server = decision.count() > 0 ? decision.answer(0) : null;
            r.failure = decision.outcome() == null ? decision.failure().kind() : null;
        }
        queue.publish(r);
    }

    /** The writer thread: takes records in order until closed and the ring is empty. */
    private void write() {
        while (true) {
            TapRecord r = queue.peek();
            if (r == null) {
                if (closing) {
                    if (queue.peek() != null) {
                        continue; // published before the close, after the look above: written first
                    }
                    break;
                }
                if (pendingRecords > 0) {
                    flush();
                }
                if (out == null && System.currentTimeMillis() >= nextTry) {
                    connect();
                }
                LockSupport.parkNanos(IDLE_NANOS);
                continue;
            }
            if (r.queryLength >= 0) {
                if (out == null && System.currentTimeMillis() >= nextTry) {
                    connect();
                }
                if (out == null) {
                    noReader.increment();
                } else {
                    send(r);
                }
            }
            if (r.bytes != r.own) {
                large.addAndGet(-r.bytes.length);
            }
            queue.release(r);
        }
        finish();
    }

    /** Encodes and writes one record's messages; they count as written once flushed. */
    private void send(TapRecord r) {
        byte[] text = extra(r);
        try {
            if (queries) {
                DnstapEncoder.Buffer b = encoder.encode(r, DnstapEncoder.AUTH_QUERY, text);
                out.write(b.bytes, 0, b.length);
                pendingQueries++;
            }
            if (r.responseLength >= 0) {
                DnstapEncoder.Buffer b = encoder.encode(r, DnstapEncoder.AUTH_RESPONSE, text);
                out.write(b.bytes, 0, b.length);
                pendingResponses++;
            }
            pendingRecords++;
        } catch (IOException e) {
            noReader.increment(); // this one; the buffered ones are counted by lost()
            lost(e);
        } catch (RuntimeException e) { // a bug in encoding one record must not stop the log
            log.warn("dnstap: a query could not be encoded (dropped): {}", e.toString());
            noReader.increment();
        }
    }

    /** Sends what is buffered: its messages are then written; if it fails, its queries are dropped. */
    private void flush() {
        try {
            out.flush();
            delivered();
        } catch (IOException e) {
            lost(e);
        }
    }

    /** The messages sent since the last flush reached the file or the reader's socket. */
    private void delivered() {
        queriesWritten.increment(pendingQueries);
        responsesWritten.increment(pendingResponses);
        pendingQueries = 0;
        pendingResponses = 0;
        pendingRecords = 0;
    }

    /** The {@code extra} field: what decided the answer, in the decision log's words; null for other answers. */
    private byte[] extra(TapRecord r) {
        if (r.wideIp == null) {
            return null;
        }
        StringBuilder sb = extra;
        sb.setLength(0);
        sb.append("wideip=").append(r.wideIp.name().toString(true));
        if (r.outcome == null) {
            sb.append(" failure=").append(lower(r.failure));
        } else {
            sb.append(" pool=").append(r.pool.name());
            sb.append(" tier=").append(r.tier);
            sb.append(" method=").append(r.method.name());
            sb.append(" outcome=").append(lower(r.outcome));
            if (r.server != null) {
                sb.append(" server=").append(r.server.name());
                sb.append(" dc=").append(r.server.dataCenter().name());
            }
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** Tries the socket's reader; on failure, tries again later, waiting longer each time (to 30 s). */
    private void connect() {
        if (settings.socket() == null) {
            return; // a file that failed is not reopened
        }
        try {
            out = FrameSocket.connect(settings.socket());
            retryMillis = FIRST_RETRY_MILLIS;
            log.info("dnstap: writing {} to the reader on {}", settings.messages(), settings.socket());
        } catch (IOException e) {
            if (retryMillis == FIRST_RETRY_MILLIS) {
                log.warn(
                        "dnstap: no reader on {} ({}); trying again, queries are not logged meanwhile",
                        settings.socket(),
                        e.getMessage());
            }
            nextTry = System.currentTimeMillis() + retryMillis;
            retryMillis = Math.min(retryMillis * 2, LAST_RETRY_MILLIS);
        }
    }

    /** The stream broke (the reader went away, the disk is full): dropped, tried again later. */
    private void lost(IOException e) {
        log.warn("dnstap: writing failed ({}); queries are not logged until it works again", e.getMessage());
        noReader.increment(pendingRecords); // buffered, never sent
        pendingQueries = 0;
        pendingResponses = 0;
        pendingRecords = 0;
        if (out instanceof FrameSocket s) {
            s.abandon();
        }
        out = null;
        nextTry = System.currentTimeMillis() + retryMillis;
    }

    /** Ends the stream: STOP (and the reader's FINISH) so that a reader sees a whole stream. */
    private void finish() {
        if (out == null) {
            return;
        }
        try {
            out.flush();
            delivered();
            out.close();
        } catch (IOException e) {
            log.warn("dnstap: closing the stream: {}", e.getMessage());
            noReader.increment(pendingRecords);
        }
        out = null;
    }

    /** Queries dropped so far, for any reason. */
    public long dropped() {
        return (long) (queueFull.count() + noReader.count() + tooLarge.count());
    }

    /** Writes what is queued, ends the stream and stops the writer. */
    @Override
    public void close() {
        closing = true;
        if (!writer.isAlive()) {
            return;
        }
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
