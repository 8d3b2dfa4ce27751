package dev.gslb.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What the CLI subcommands use to talk to a running server's admin API: one HTTP/1.1 request on a
 * plain socket, then the connection closes. Not java.net.http: its client loads and starts TLS,
 * HTTP/2 and a selector thread, which cost a command most of its second for one loopback request.
 */
public final class AdminClient {
    public record Reply(int status, String body) {
        public boolean ok() {
            return status / 100 == 2;
        }
    }

    /** An answer larger than this is refused: the API's largest (a whole LDNS table) is well under it. */
    static final int MAX_REPLY = 256 << 20;

    private static final int CONNECT_MILLIS = 3_000;
    private static final int READ_MILLIS = 60_000;

    private final String base;
    private final URI uri;
    private final String token;
    private final AdminTarget target;

    /** A client of the API at {@code base}; {@code token} (null: none) goes in every request. */
    public AdminClient(String base, String token) {
        this(base, token, null);
    }

    /** A client of the target's API: its refusals of the token say where the token came from. */
    AdminClient(AdminTarget target, String token) {
        this(target.url(), token, target);
    }

    private AdminClient(String base, String token, AdminTarget target) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.uri = URI.create(this.base);
        this.token = token;
        this.target = target;
    }

    public Reply get(String pathAndQuery) throws IOException {
        return send("GET", pathAndQuery, null);
    }

    public Reply post(String path, String json) throws IOException {
        return send("POST", path, json);
    }

    private Reply send(String method, String pathAndQuery, String json) throws IOException {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        String host = uri.getHost(); // [::1] keeps its brackets, as a Host header wants
        int port = uri.getPort();
        StringBuilder head = new StringBuilder(256)
                .append(method)
                .append(' ')
                .append(pathAndQuery)
                .append(" HTTP/1.1\r\nHost: ")
                .append(host)
                .append(':')
                .append(port)
                .append("\r\nConnection: close\r\nAccept: application/json\r\nUser-Agent: gslb-cli\r\n");
        if (token != null) {
            head.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        if (json != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ")
                    .append(body.length)
                    .append("\r\n");
        }
        head.append("\r\n");
        String literal = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(literal, port), CONNECT_MILLIS);
            s.setSoTimeout(READ_MILLIS);
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            Reply reply = read(s.getInputStream());
            if (reply.status() == 401 && target != null) { // the server's own advice is for its operator
                throw new IOException(target.refusedToken(token != null));
            }
            return reply;
        } catch (ConnectException e) {
            throw new IOException("cannot reach the admin API at " + base
                    + (target == null ? "" : " (" + target.urlFrom() + ")") + "; is `gslb serve` running? Its address"
                    + " comes from " + AdminTarget.ADDRESS_SOURCES + " (gslb --config FILE)");
        } catch (SocketTimeoutException e) {
            throw new IOException("the admin API at " + base + " did not answer in time");
        }
    }

    /** Status line, headers (only Content-Length matters: the server always sends it), body. */
    private Reply read(InputStream raw) throws IOException {
        InputStream in = new java.io.BufferedInputStream(raw);
        String status = line(in);
        if (status == null || !status.startsWith("HTTP/1.") || status.length() < 12) {
            throw new IOException("the admin API at " + base + " answered something that is not HTTP");
        }
        int code;
        try {
            code = Integer.parseInt(status.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new IOException("the admin API at " + base + " answered a bad status line: " + status);
        }
        long length = -1;
        for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            if (colon > 0
                    && h.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals("content-length")) {
                length = Long.parseLong(h.substring(colon + 1).strip());
            }
        }
        if (length > MAX_REPLY) {
            throw new IOException("the admin API's answer of " + length + " bytes is larger than the CLI reads");
        }
        byte[] bytes = length >= 0 ? in.readNBytes((int) length) : in.readNBytes(MAX_REPLY);
        return new Reply(code, new String(bytes, StandardCharsets.UTF_8));
    }

    /** One header line without its CR LF; null at the end of the stream. At most 64 KiB. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
            }
            if (b.size() > 65_536) {
                throw new IOException("a header line of the admin API's answer is too long");
            }
            b.write(c);
        }
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }
}
