package dev.gslb.probe.health;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Locale;
import org.apache.commons.net.SocketClient;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPReply;
import org.apache.commons.net.imap.IMAPClient;
import org.apache.commons.net.pop3.POP3Client;
import org.apache.commons.net.smtp.SMTPClient;
import org.apache.commons.net.smtp.SMTPReply;

/**
 * A mail or file service answers as it should (commons-net's clients): it connects and greets
 * (SMTP and FTP 220, POP3 +OK, IMAP * OK), accepts the login when one is configured (SMTP: HELO),
 * and, for SMTP and FTP, answers a configured command with the expected reply code (default: any
 * 2xx). The session ends with QUIT or LOGOUT.
 *
 * @param send       an SMTP or FTP command sent after the login (e.g. NOOP), or null
 * @param expectCode the reply code {@code send} must get, or 0 for any positive completion
 */
public record ProtocolCheck(Protocol protocol, int port, String user, String password, String send, int expectCode)
        implements Check {
    public enum Protocol {
        SMTP(25),
        FTP(21),
        POP3(110),
        IMAP(143);

        public final int port;

        Protocol(int port) {
            this.port = port;
        }

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static final Setting<String> USER =
            Setting.of("user", String.class, null, "the login (SMTP: the HELO name); none: no login");
    static final Setting<String> PASSWORD = Setting.of(
                    "password", String.class, null, "the login's password (or password-file:, ${env:GSLB_...})")
            .asSecret();
    static final Setting<String> SEND =
            Setting.of("send", String.class, null, "an SMTP or FTP command sent after the login (e.g. NOOP)");
    static final Setting<Integer> EXPECT_CODE = Setting.integer(
                    "expect-code", 0, 100, 599, "the reply code the command must get")
            .shown("any 2xx");

    /** The keys of a monitor of {@code protocol}. */
    public static SettingsTable<ProtocolCheck> settings(Protocol protocol) {
        Setting<Integer> port = Setting.integer("port", protocol.port, 1, 65535, "the port connected to");
        return SettingsTable.of(
                        ProtocolCheck.class,
                        v -> new ProtocolCheck(
                                protocol, v.get(port), v.get(USER), v.get(PASSWORD), v.get(SEND), v.get(EXPECT_CODE)))
                .add(port, ProtocolCheck::port)
                .add(USER, ProtocolCheck::user)
                .add(PASSWORD, ProtocolCheck::password)
                .add(SEND, ProtocolCheck::send)
                .add(EXPECT_CODE, ProtocolCheck::expectCode);
    }

    public ProtocolCheck {
        if (send != null && (protocol == Protocol.POP3 || protocol == Protocol.IMAP)) {
            throw new IllegalArgumentException("a " + protocol.key() + " monitor takes no 'send:' (login only)");
        }
        if ((user == null) != (password == null) && protocol != Protocol.SMTP) {
            throw new IllegalArgumentException(
                    "a " + protocol.key() + " monitor needs both 'user:' and 'password:' (or 'password-file:')");
        }
    }

    @Override
    public ProtocolCheck atPort(int other) {
        return new ProtocolCheck(protocol, other, user, password, send, expectCode);
    }

    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        int millis = (int) Math.max(1, timeout.toMillis());
        SocketClient client = switch (protocol) {
            case SMTP -> new SMTPClient();
            case FTP -> new FTPClient();
            case POP3 -> new POP3Client();
            case IMAP -> new IMAPClient();
        };
        client.setConnectTimeout(millis);
        client.setDefaultTimeout(millis);
        String what = protocol.key() + " " + port;
        try {
            client.connect(address, port);
            return switch (client) {
                case SMTPClient smtp -> smtp(smtp, what);
                case FTPClient ftp -> ftp(ftp, what);
                case POP3Client pop3 -> pop3(pop3, what);
                case IMAPClient imap -> imap(imap, what);
                default -> throw new IllegalStateException();
            };
        } catch (IOException e) {
            return CheckResult.fail(what + ": " + e.getMessage());
        } finally {
            try {
                if (client.isConnected()) {
                    client.disconnect();
                }
            } catch (IOException e) {
                // closing
            }
        }
    }

    private CheckResult smtp(SMTPClient c, String what) throws IOException {
        if (!SMTPReply.isPositiveCompletion(c.getReplyCode())) {
            return CheckResult.fail(what + ": greeting " + c.getReplyString().trim());
        }
        if (user != null && !c.login(user)) {
            return CheckResult.fail(
                    what + ": HELO " + user + " refused: " + c.getReplyString().trim());
        }
        CheckResult r = command(c, what);
        end(() -> c.quit());
        return r;
    }

    private CheckResult ftp(FTPClient c, String what) throws IOException {
        if (!FTPReply.isPositiveCompletion(c.getReplyCode())) {
            return CheckResult.fail(what + ": greeting " + c.getReplyString().trim());
        }
        if (user != null && !c.login(user, password)) {
            return CheckResult.fail(what + ": login as " + user + " refused: "
                    + c.getReplyString().trim());
        }
        CheckResult r = command(c, what);
        end(() -> c.logout());
        return r;
    }

    /** Sends the configured command, if any, and judges its reply code. */
    private CheckResult command(SocketClient client, String what) throws IOException {
        String before = reply(client);
        if (send == null) {
            return CheckResult.ok(what + ": " + firstLine(before));
        }
        int code = client instanceof SMTPClient smtp ? smtp.sendCommand(send) : ((FTPClient) client).sendCommand(send);
        boolean ok = expectCode == 0 ? code >= 200 && code < 300 : code == expectCode;
        return ok
                ? CheckResult.ok(what + ": " + send + " -> " + code)
                : CheckResult.fail(what + ": " + send + " -> " + firstLine(reply(client))
                        + (expectCode == 0 ? ", expected 2xx" : ", expected " + expectCode));
    }

    private static String reply(SocketClient client) {
        return client instanceof SMTPClient smtp ? smtp.getReplyString() : ((FTPClient) client).getReplyString();
    }

    private CheckResult pop3(POP3Client c, String what) throws IOException {
        String greeting = c.getReplyString();
        if (greeting == null || !greeting.startsWith("+OK")) {
            return CheckResult.fail(what + ": greeting " + firstLine(greeting));
        }
        if (user != null && !c.login(user, password)) {
            return CheckResult.fail(what + ": login as " + user + " refused: " + firstLine(c.getReplyString()));
        }
        end(() -> c.logout());
        return CheckResult.ok(what + ": " + firstLine(greeting));
    }

    private CheckResult imap(IMAPClient c, String what) throws IOException {
        String greeting = c.getReplyString();
        if (greeting == null || !greeting.startsWith("* OK")) {
            return CheckResult.fail(what + ": greeting " + firstLine(greeting));
        }
        if (user != null && !c.login(user, password)) {
            return CheckResult.fail(what + ": login as " + user + " refused: " + firstLine(c.getReplyString()));
        }
        end(() -> c.logout());
        return CheckResult.ok(what + ": " + firstLine(greeting));
    }

    private interface Farewell {
        Object say() throws IOException;
    }

    /** QUIT or LOGOUT: a server that hangs up instead of answering it has still passed the check. */
    private static void end(Farewell f) {
        try {
            f.say();
        } catch (IOException e) {
            // the check is already decided
        }
    }

    private static String firstLine(String s) {
        return s == null ? "nothing" : s.strip().lines().findFirst().orElse("");
    }
}
