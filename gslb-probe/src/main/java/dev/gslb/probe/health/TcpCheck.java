package dev.gslb.probe.health;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Up when a TCP connection to the port is accepted; with {@code send} and/or {@code expect} (F5's
 * ECV: send a string, expect a reply), up only when what the service answers within the timeout
 * matches the regular expression (searched in the first 4 KiB).
 */
public record TcpCheck(int port, String send, String expect) implements Check {
    private static final int MAX_REPLY = 4096;

    static final Setting<Integer> PORT =
            Setting.integer("port", 0, 1, 65535, "the port connected to").derived("required");
    static final Setting<String> SEND =
            Setting.of("send", String.class, null, "sent once connected (\\r, \\n: CR, LF)");
    static final Setting<String> EXPECT =
            Setting.of("expect", String.class, null, "a regular expression the reply must match");

    /** The keys of a {@code tcp} monitor. */
    public static final SettingsTable<TcpCheck> SETTINGS = SettingsTable.of(TcpCheck.class, v -> {
                if (!v.given(PORT)) {
                    throw new IllegalArgumentException("a tcp monitor needs 'port:'");
                }
                return new TcpCheck(v.get(PORT), v.get(SEND), v.get(EXPECT));
            })
            .add(PORT, TcpCheck::port)
            .add(SEND, TcpCheck::send)
            .add(EXPECT, TcpCheck::expect);

    public TcpCheck {
        if (expect != null) {
            try {
                Pattern.compile(expect);
            } catch (java.util.regex.PatternSyntaxException e) {
                throw new IllegalArgumentException("'expect:' is not a regular expression: " + e.getDescription());
            }
        }
    }

    public TcpCheck(int port) {
        this(port, null, null);
    }

    @Override
    public TcpCheck atPort(int other) {
        return new TcpCheck(other, send, expect);
    }

    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), (int) Math.max(1, timeout.toMillis()));
            if (send == null && expect == null) {
                return CheckResult.ok("tcp " + port + " accepted");
            }
            if (send != null) {
                s.getOutputStream()
                        .write(send.replace("\\r", "\r").replace("\\n", "\n").getBytes(StandardCharsets.UTF_8));
                s.getOutputStream().flush();
            }
            return expect == null ? CheckResult.ok("tcp " + port + " took the send string") : reply(s, deadline);
        } catch (IOException e) {
            return CheckResult.fail("tcp " + port + ": " + e.getMessage());
        }
    }

    /** Reads until the reply matches, the service closes, 4 KiB arrived, or the time is up. */
    private CheckResult reply(Socket s, long deadline) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[MAX_REPLY];
        Pattern wanted = Pattern.compile(expect);
        int n = 0;
        while (n < buf.length) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                break;
            }
            s.setSoTimeout((int) left);
            int r;
            try {
                r = in.read(buf, n, buf.length - n);
            } catch (SocketTimeoutException e) {
                break;
            }
            if (r < 0) {
                break;
            }
            n += r;
            if (wanted.matcher(new String(buf, 0, n, StandardCharsets.UTF_8)).find()) {
                return CheckResult.ok("tcp " + port + ": reply matches /" + expect + "/");
            }
        }
        String got = new String(buf, 0, Math.min(n, 80), StandardCharsets.UTF_8).strip();
        return CheckResult.fail("tcp " + port + ": reply does not match /" + expect + "/ (got '" + got + "')");
    }
}
