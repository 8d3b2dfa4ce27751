package dev.gslb.probe.health;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * HTTP or HTTPS GET (the source's content check): up when the status is the expected one and,
 * if given, the body contains the expected text. HTTPS does not verify the certificate: it checks
 * that the service answers, as F5's monitors do, not who it is.
 */
public record HttpCheck(boolean tls, int port, String path, String host, int expectStatus, String expectBody)
        implements Check {
    private static final int MAX_BODY = 64 * 1024;

    static final Setting<String> PATH = Setting.of("path", String.class, "/", "the path asked for");
    static final Setting<String> HOST =
            Setting.of("host", String.class, null, "the Host header").shown("the server's address");
    static final Setting<Integer> EXPECT_STATUS =
            Setting.integer("expect-status", 200, 100, 599, "the status the answer must have");
    static final Setting<String> EXPECT_BODY =
            Setting.of("expect-body", String.class, null, "text the body must contain");

    /** The keys of an {@code http} (or, with {@code tls}, {@code https}) monitor. */
    public static SettingsTable<HttpCheck> settings(boolean tls) {
        Setting<Integer> port = Setting.integer("port", tls ? 443 : 80, 1, 65535, "the port connected to");
        return SettingsTable.of(
                        HttpCheck.class,
                        v -> new HttpCheck(
                                tls, v.get(port), v.get(PATH), v.get(HOST), v.get(EXPECT_STATUS), v.get(EXPECT_BODY)))
                .add(port, HttpCheck::port)
                .add(PATH, HttpCheck::path)
                .add(HOST, HttpCheck::host)
                .add(EXPECT_STATUS, HttpCheck::expectStatus)
                .add(EXPECT_BODY, HttpCheck::expectBody);
    }

    @Override
    public HttpCheck atPort(int other) {
        return new HttpCheck(tls, other, path, host, expectStatus, expectBody);
    }

    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket raw = new Socket()) {
            raw.connect(new InetSocketAddress(address, port), millis);
            raw.setSoTimeout(millis);
            Socket s =
                    tls ? trustAll().getSocketFactory().createSocket(raw, address.getHostAddress(), port, true) : raw;
            if (s instanceof SSLSocket ssl) {
                ssl.startHandshake();
            }
            String hostHeader = host != null ? host : address.getHostAddress();
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + hostHeader + "\r\nUser-Agent: gslb-monitor\r\n"
                            + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = read(s.getInputStream());
            int sp = response.indexOf(' ');
            if (!response.startsWith("HTTP/") || sp < 0 || response.length() < sp + 4) {
                return CheckResult.fail("not an HTTP response");
            }
            int status = Integer.parseInt(response.substring(sp + 1, sp + 4));
            if (status != expectStatus) {
                return CheckResult.fail("status " + status + ", expected " + expectStatus);
            }
            if (expectBody != null) {
                int bodyAt = response.indexOf("\r\n\r\n");
                String body = bodyAt < 0 ? "" : response.substring(bodyAt + 4);
                if (!body.contains(expectBody)) {
                    return CheckResult.fail("status " + status + " but the body lacks '" + expectBody + "'");
                }
            }
            return CheckResult.ok("status " + status);
        } catch (IOException | NumberFormatException | java.security.GeneralSecurityException e) {
            return CheckResult.fail((tls ? "https " : "http ") + port + ": " + e.getMessage());
        }
    }

    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        for (int n; buf.size() < MAX_BODY && (n = in.read(chunk)) > 0; ) {
            buf.write(chunk, 0, n);
        }
        return buf.toString(StandardCharsets.ISO_8859_1);
    }

    private static SSLContext trustAll() throws java.security.GeneralSecurityException {
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(
                null,
                new TrustManager[] {
                    new X509TrustManager() {
                        @Override
                        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

                        @Override
                        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

                        @Override
                        public X509Certificate[] getAcceptedIssuers() {
                            return new X509Certificate[0];
                        }
                    }
                },
                null);
        return c;
    }
}
