package dev.gslb.dns.server;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.rrl.RateLimitSettings;
import dev.gslb.settings.ByteSize;
import dev.gslb.settings.HostPort;
import java.time.Duration;
import java.util.List;

/** The {@code dns:} section: where the listeners run and how they answer (README "Configuration"). */
public record DnsSettings(ListenerSettings listener, AnswerSettings answers) {
    public static final DnsSettings DEFAULTS = new DnsSettings(ListenerSettings.DEFAULTS, AnswerSettings.DEFAULTS);

    /** Binds the section's keys; an absent key keeps its default. */
    @JsonCreator
    public static DnsSettings bind(
            @JsonProperty("listen") List<HostPort> listen,
            @JsonProperty("threads") Integer threads,
            @JsonProperty("tcp-idle-timeout") Duration tcpIdle,
            @JsonProperty("tcp-query-timeout") Duration tcpQueryTimeout,
            @JsonProperty("tcp-max-connections") Integer tcpMaxConnections,
            @JsonProperty("tcp-max-connections-per-source") Integer tcpMaxConnectionsPerSource,
            @JsonProperty("edns-udp-size") Integer ednsUdpSize,
            @JsonProperty("cookies") Boolean cookies,
            @JsonProperty("cookie-rotation") Duration cookieRotation,
            @JsonProperty("answer-cache") ByteSize answerCache,
            @JsonProperty("rate-limit") RateLimitSettings rateLimit) {
        ListenerSettings l = ListenerSettings.DEFAULTS;
        AnswerSettings a = AnswerSettings.DEFAULTS;
        return new DnsSettings(
                new ListenerSettings(
                        listen == null
                                ? l.addresses()
                                : listen.stream()
                                        .map(h -> h.orPort(ListenerSettings.DEFAULT_PORT))
                                        .toList(),
                        requireNonNullElse(threads, l.threads()),
                        requireNonNullElse(tcpIdle, l.tcpIdle()),
                        requireNonNullElse(tcpQueryTimeout, l.tcpQueryTimeout()),
                        requireNonNullElse(tcpMaxConnections, l.tcpMaxConnections()),
                        requireNonNullElse(tcpMaxConnectionsPerSource, l.tcpMaxConnectionsPerSource())),
                new AnswerSettings(
                        requireNonNullElse(ednsUdpSize, a.ednsUdpSize()),
                        requireNonNullElse(cookies, a.cookies()),
                        requireNonNullElse(cookieRotation, a.cookieRotation()),
                        answerCache == null ? a.cacheBytes() : answerCache.bytes(),
                        requireNonNullElse(rateLimit, a.rateLimit())));
    }
}
