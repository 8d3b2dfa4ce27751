package dev.gslb.probe.health;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.settings.Bounds;
import java.time.Duration;
import java.util.List;

/**
 * A configured monitor: what check, how often, and the hysteresis. From UNKNOWN the first
 * completed check decides; after that it takes {@code downThreshold} failures in a row to go
 * DOWN and {@code upThreshold} successes in a row to come back UP, so a flapping target does not
 * flap the answer.
 */
public record MonitorSpec(
        String name, Check check, Duration interval, Duration timeout, int upThreshold, int downThreshold) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    public static final int DEFAULT_UP = 2;
    public static final int DEFAULT_DOWN = 3;

    public MonitorSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a monitor needs 'name:'");
        }
        if (upThreshold < 1 || downThreshold < 1) {
            throw new IllegalArgumentException("monitor " + name + ": thresholds must be at least 1");
        }
        if (timeout.compareTo(interval) > 0) {
            throw new IllegalArgumentException("monitor " + name + ": timeout must not exceed the interval");
        }
    }

    static final String TYPES = "icmp, tcp, http, https, smtp, ftp, pop3, imap, dns or external";

    private static DnsCheck dns(Integer port, String queryName, String queryType, String rcode, String answer) {
        if (queryName == null) {
            throw new IllegalArgumentException("a dns monitor needs 'query-name:'");
        }
        org.xbill.DNS.Name name;
        try {
            name = org.xbill.DNS.Name.fromString(queryName, org.xbill.DNS.Name.root);
        } catch (org.xbill.DNS.TextParseException e) {
            throw new IllegalArgumentException("'" + queryName + "' is not a domain name: " + e.getMessage());
        }
        int type = org.xbill.DNS.Type.value(requireNonNullElse(queryType, "A"));
        if (type < 0) {
            throw new IllegalArgumentException("'" + queryType + "' is not a DNS type");
        }
        int expect = org.xbill.DNS.Rcode.value(requireNonNullElse(rcode, "NOERROR"));
        if (expect < 0) {
            throw new IllegalArgumentException("'" + rcode + "' is not an rcode (NOERROR, NXDOMAIN, ...)");
        }
        return new DnsCheck(Bounds.within("port", requireNonNullElse(port, 53), 1, 65535), name, type, expect, answer);
    }

    /** One entry of {@code monitors:} (README "Health monitors"); the timeout defaults to half the interval. */
    @JsonCreator
    public static MonitorSpec bind(
            @JsonProperty("name") String name,
            @JsonProperty("type") String type,
            @JsonProperty("port") Integer port,
            @JsonProperty("path") String path,
            @JsonProperty("host") String host,
            @JsonProperty("expect-status") Integer expectStatus,
            @JsonProperty("expect-body") String expectBody,
            @JsonProperty("command") List<String> command,
            @JsonProperty("send") String send,
            @JsonProperty("expect") String expect,
            @JsonProperty("user") String user,
            @JsonProperty("password") String password,
            @JsonProperty("expect-code") Integer expectCode,
            @JsonProperty("query-name") String queryName,
            @JsonProperty("query-type") String queryType,
            @JsonProperty("expect-rcode") String expectRcode,
            @JsonProperty("expect-answer") String expectAnswer,
            @JsonProperty("interval") Duration interval,
            @JsonProperty("timeout") Duration timeout,
            @JsonProperty("up") Integer up,
            @JsonProperty("down") Integer down) {
        if (type == null) {
            throw new IllegalArgumentException("monitor " + name + " needs 'type:' (" + TYPES + ")");
        }
        Check check = switch (type) {
            case "icmp" -> new IcmpCheck();
            case "tcp" -> {
                if (port == null) {
                    throw new IllegalArgumentException("a tcp monitor needs 'port:'");
                }
                yield new TcpCheck(Bounds.within("port", port, 1, 65535), send, expect);
            }
            case "smtp", "ftp", "pop3", "imap" -> {
                var protocol = ProtocolCheck.Protocol.valueOf(type.toUpperCase(java.util.Locale.ROOT));
                yield new ProtocolCheck(
                        protocol,
                        Bounds.within("port", requireNonNullElse(port, protocol.port), 1, 65535),
                        user,
                        password,
                        send,
                        expectCode == null ? 0 : Bounds.within("expect-code", expectCode, 100, 599));
            }
            case "dns" -> dns(port, queryName, queryType, expectRcode, expectAnswer);
            case "http", "https" ->
                new HttpCheck(
                        type.equals("https"),
                        Bounds.within("port", requireNonNullElse(port, type.equals("https") ? 443 : 80), 1, 65535),
                        requireNonNullElse(path, "/"),
                        host,
                        Bounds.within("expect-status", requireNonNullElse(expectStatus, 200), 100, 599),
                        expectBody);
            case "external" -> {
                if (command == null || command.isEmpty()) {
                    throw new IllegalArgumentException("an external monitor needs 'command:' (a list)");
                }
                yield new ExternalCheck(command);
            }
            default -> throw new IllegalArgumentException("unknown monitor type '" + type + "'; expected " + TYPES);
        };
        Duration every = requireNonNullElse(interval, DEFAULT_INTERVAL);
        return new MonitorSpec(
                name,
                check,
                every,
                requireNonNullElse(timeout, every.dividedBy(2)),
                Bounds.within("up", requireNonNullElse(up, DEFAULT_UP), 1, 1000),
                Bounds.within("down", requireNonNullElse(down, DEFAULT_DOWN), 1, 1000));
    }
}
