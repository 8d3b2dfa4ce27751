package dev.gslb.server.admin;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gslb.api.Role;
import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.admin.AuditSettings;
import dev.gslb.server.access.Tokens;
import dev.gslb.server.audit.AuditLog;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;

/**
 * The admin request reader (netty's HTTP decoder and {@link AdminExchange}) on any bytes a client
 * could send: nothing escapes, every answer is a well-formed HTTP status line with a code the
 * server uses, a protected route never runs without the token, and no route reads more of a body
 * than it takes. Seeds: AdminRequestFuzzTestInputs.
 */
class AdminRequestFuzzTest {
    static final String TOKEN = "fuzz-token-0123456789abcdef";
    private static final Set<Integer> CODES = Set.of(200, 400, 401, 403, 404, 405, 408, 413, 415, 431, 500, 503);
    private static final AtomicInteger protectedRan = new AtomicInteger();
    private static final AtomicInteger largestBody = new AtomicInteger();
    private static final AdminServer.Routes ROUTES = routes();

    private static AdminServer.Routes routes() {
        try {
            Path dir = Files.createTempDirectory("gslb-admin-fuzz");
            Path token = dir.resolve("admin.token");
            dev.gslb.probe.store.StateFile.createPrivate(token, (TOKEN + "\n").getBytes(StandardCharsets.US_ASCII));
            AdminSettings settings =
                    AdminSettings.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 8053), token);
            return new AdminServer.Routes(
                    settings,
                    Tokens.open(settings, Clock.systemUTC()),
                    new AuditLog(new AuditSettings(dir.resolve("audit.log"), AuditSettings.MIN_SIZE, 2)),
                    List.of(
                            new AdminServer.Route("GET", "/health", Role.VIEWER, r -> AdminServer.Response.ok("up")),
                            new AdminServer.Route(
                                    "POST",
                                    "/peer/pair",
                                    Role.ADMIN,
                                    r -> {
                                        protectedRan.incrementAndGet();
                                        largestBody.accumulateAndGet(r.body().length(), Math::max);
                                        return AdminServer.Response.ok(r.body().length());
                                    },
                                    AdminServer.Body.COMMAND),
                            new AdminServer.Route("POST", "/config/reload", Role.ADMIN, r -> {
                                protectedRan.incrementAndGet();
                                throw new IllegalStateException("a route that fails");
                            })),
                    new SimpleMeterRegistry(),
                    Runnable::run);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the server wrote: whole answers, one after another, each a known status, its body as long as it says. */
    private static void checkAnswers(String written) {
        int at = 0;
        while (at < written.length()) {
            int headEnd = written.indexOf("\r\n\r\n", at);
            if (!written.startsWith("HTTP/1.1 ", at) || headEnd < 0) {
                throw new AssertionError(
                        "not an answer: " + written.substring(at).lines().findFirst());
            }
            int status = Integer.parseInt(written.substring(at + 9, at + 12));
            if (!CODES.contains(status)) {
                throw new AssertionError("a status the server does not send: " + status);
            }
            String head = written.substring(at, headEnd).toLowerCase(java.util.Locale.ROOT);
            int length = head.indexOf("content-length: ");
            if (length < 0) {
                throw new AssertionError("an answer without content-length: " + head);
            }
            int eol = head.indexOf("\r\n", length);
            at = headEnd
                    + 4
                    + Integer.parseInt(head.substring(length + 16, eol < 0 ? head.length() : eol)
                            .strip());
        }
        if (at != written.length()) {
            throw new AssertionError("an answer shorter than its content-length");
        }
    }

    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anyBytesGetWellFormedAnswersAndNoRouteWithoutTheToken(byte[] data) {
        int ranBefore = protectedRan.get();
        EmbeddedChannel ch = new EmbeddedChannel(
                new HttpServerCodec(
                        new HttpDecoderConfig().setMaxInitialLineLength(8192).setMaxHeaderSize(8192)),
                new AdminExchange(ROUTES));
        StringBuilder written = new StringBuilder();
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(data));
            ch.runPendingTasks();
            for (Object out = ch.readOutbound(); out != null; out = ch.readOutbound()) {
                ByteBuf b = (ByteBuf) out; // an answer's head and body may come in separate buffers
                written.append(b.toString(StandardCharsets.ISO_8859_1));
                b.release();
            }
        } finally {
            ch.finishAndReleaseAll();
        }
        checkAnswers(written.toString());
        String sent = new String(data, StandardCharsets.ISO_8859_1);
        if (protectedRan.get() > ranBefore && !sent.contains(TOKEN)) {
            throw new AssertionError("a protected route ran without the token");
        }
        if (largestBody.get() > AdminSettings.MAX_COMMAND) {
            throw new AssertionError("a command route read " + largestBody.get() + " bytes");
        }
    }
}
