package dev.gslb.api;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A state change worth telling an operator, as the alert programs and webhooks receive it (JSON).
 *
 * @param subject the server, link or peer it is about
 * @param at      ISO-8601 UTC
 */
public record Event(String event, String subject, String dataCenter, String instance, String at, String detail) {
    public enum Kind {
        SERVER_DOWN,
        SERVER_UP,
        LINK_DOWN,
        LINK_UP,
        LINK_OVER_LIMIT,
        LINK_UNDER_LIMIT,
        PEER_LOST,
        PEER_CONNECTED,
        CONFIG_OUT_OF_SYNC,
        CONFIG_IN_SYNC,
        DNSSEC_FAILING,
        DNSSEC_SIGNING;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Kind parse(String label) {
            for (Kind k : values()) {
                if (k.label().equals(label)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown alert event '" + label + "'; known: " + names());
        }

        public static List<String> names() {
            return Arrays.stream(values()).map(Kind::label).toList();
        }
    }
}
