package dev.gslb.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * The values of a configuration no reader of it should see (`gslb config show` is a viewer's
 * command): each is known by its key's name, whatever section holds it, so a new secret key named
 * like the others is hidden too. A key naming a file ({@code ...-file}) shows the file, never its
 * content; a webhook shows its scheme and host only (its path and query often carry a token).
 */
final class SecretValues {
    static final TextNode REDACTED = TextNode.valueOf("<redacted>");

    /** Parts of a key's name that make its value a secret: passwords, SNMP communities, keys, TSIG and other secrets, tokens. */
    private static final List<String> SECRET = List.of("password", "passphrase", "secret", "community", "token");

    private SecretValues() {}

    static boolean secret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        if (k.endsWith("-file") || k.endsWith("-ttl")) {
            return false; // where the secret is, or how long one lives: not the secret
        }
        return SECRET.stream().anyMatch(k::contains) || k.equals("key") || k.endsWith("-key");
    }

    /** {@code node} with every secret value replaced, in place. */
    static void redact(JsonNode node) {
        if (node instanceof ObjectNode o) {
            for (var e : o.properties()) {
                String key = e.getKey();
                if (secret(key) && !e.getValue().isNull()) {
                    e.setValue(REDACTED);
                } else if (key.equals("webhook") && e.getValue().isTextual()) {
                    e.setValue(TextNode.valueOf(origin(e.getValue().asText())));
                } else {
                    redact(e.getValue());
                }
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(SecretValues::redact);
        }
    }

    /** {@code https://hooks.example.com/<redacted>}: where it goes, not what it carries. */
    private static String origin(String url) {
        try {
            URI u = URI.create(url);
            if (u.getHost() == null) {
                return REDACTED.asText();
            }
            String port = u.getPort() < 0 ? "" : ":" + u.getPort();
            boolean more = u.getRawUserInfo() != null
                    || u.getRawQuery() != null
                    || u.getRawPath() != null
                            && !u.getRawPath().isEmpty()
                            && !u.getRawPath().equals("/");
            return u.getScheme() + "://" + u.getHost() + port + (more ? "/" + REDACTED.asText() : "");
        } catch (IllegalArgumentException e) {
            return REDACTED.asText();
        }
    }
}
