package dev.gslb.probe.load;

import dev.gslb.settings.ByteSize;
import dev.gslb.settings.Setting;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A balancer's status page read over HTTP or HTTPS (the JDK's client; certificates checked
 * against the JDK's trust store), bounded: the whole exchange within the read's timeout (a server
 * that drips its page is cut off, not waited for), at most {@code maxBytes} of body (a larger
 * page is an error, read no further), status 200 only (a redirect is not followed: it is an
 * error too). Not for the DNS path: a poller thread waits here.
 */
public final class StatusPage implements AutoCloseable {
    /** A page larger than this is refused: status pages are a few KiB, a big HAProxy's some 100. */
    public static final long DEFAULT_MAX_BYTES = 1L << 20;

    /** {@code url:} of a source's mapping; required. */
    static final Setting<URI> URL = Setting.of("url", String.class, null, "the page's http:// or https:// URL")
            .map(text -> address("url", text), null)
            .derived("required");
    /** {@code max-size:} of a source's mapping. */
    static final Setting<ByteSize> MAX_SIZE = Setting.of(
                    "max-size", ByteSize.class, new ByteSize(DEFAULT_MAX_BYTES), "a larger page is an error")
            .check("at least 1KiB", b -> {
                if (b.bytes() < 1024) {
                    throw new IllegalArgumentException("max-size must be at least 1KiB");
                }
            });

    private final URI uri;
    private final long maxBytes;
    private final String accept;
    private HttpClient client; // made at the first read: checking a configuration opens nothing

    /**
     * @param accept the Accept header ({@code text/plain}: a Prometheus endpoint then answers in
     *     its text format), or null
     */
    public StatusPage(URI uri, long maxBytes, String accept) {
        this.uri = uri;
        this.maxBytes = maxBytes;
        this.accept = accept;
        if (maxBytes < 1) {
            throw new IllegalArgumentException("a status page's size limit must be at least one byte");
        }
    }

    /** {@code text} as a status page's address: http or https, with a host. */
    public static URI address(String key, String text) {
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not an http:// or https:// URL with a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(key + ": a user and password in the URL are not supported");
        }
        return uri;
    }

    /** {@code url} as {@code key}'s page, checked to be given. */
    static StatusPage of(String key, URI url, ByteSize maxSize, String accept) {
        if (url == null) {
            throw new IllegalArgumentException(key + " needs 'url:' (its page, http://host:port/path)");
        }
        return new StatusPage(url, maxSize.bytes(), accept);
    }

    public URI uri() {
        return uri;
    }

    /** The page's text (UTF-8), or an IOException saying why not. */
    public String read(Duration timeout) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .GET()
                .timeout(timeout)
                .header("User-Agent", "gslb-load")
                .header("Accept-Encoding", "identity");
        if (accept != null) {
            request.header("Accept", accept);
        }
        CompletableFuture<HttpResponse<byte[]>> exchange =
                client().sendAsync(request.build(), info -> bounded(info.statusCode(), info.headers()));
        try {
            // the request's own timeout covers the headers only: this bounds the body too
            return new String(
                    exchange.get(timeout.toNanos(), TimeUnit.NANOSECONDS).body(), StandardCharsets.UTF_8);
        } catch (TimeoutException e) {
            throw new IOException(uri + ": no whole answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(uri + ": interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String why = cause instanceof java.net.http.HttpTimeoutException
                    ? "no answer within " + timeout.toMillis() + " ms"
                    : cause.getMessage() != null
                            ? cause.getMessage()
                            : cause.getClass().getSimpleName();
            throw new IOException(uri + ": " + why, cause);
        } finally {
            exchange.cancel(true); // ends the exchange and its connection if it is still under way
        }
    }

    private synchronized HttpClient client() {
        if (client == null) {
            client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .connectTimeout(Duration.ofSeconds(30)) // each read's own timeout is shorter
                    .build();
        }
        return client;
    }

    /** The body, refused when the status is not 200 or it grows past {@code maxBytes}. */
    private HttpResponse.BodySubscriber<byte[]> bounded(int status, java.net.http.HttpHeaders headers) {
        if (status != 200) {
            return refused("status " + status + (status / 100 == 3 ? " (redirects are not followed)" : ""));
        }
        long length = headers.firstValueAsLong("Content-Length").orElse(-1);
        if (length > maxBytes) {
            return refused("a page of " + length + " bytes, over the limit of " + maxBytes);
        }
        return new LimitedBody(maxBytes);
    }

    private static HttpResponse.BodySubscriber<byte[]> refused(String why) {
        LimitedBody body = new LimitedBody(0);
        body.fail(why);
        return body;
    }

    /** Collects the body up to a limit; past it, cancels the transfer and fails. */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final long limit;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
        private Flow.Subscription subscription;

        LimitedBody(long limit) {
            this.limit = limit;
        }

        void fail(String why) {
            result.completeExceptionally(new IOException(why));
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (result.isDone()) {
                s.cancel();
            } else {
                s.request(1);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                if (buffer.size() + (long) b.remaining() > limit) {
                    fail("a page larger than the limit of " + limit + " bytes");
                    subscription.cancel();
                    return;
                }
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                buffer.writeBytes(bytes);
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(buffer.toByteArray());
        }
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.shutdownNow();
        }
    }
}
