package dev.gslb.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads {@code load-balancing:}: {@code unknown-health}, and the keys of every method's settings
 * record, which the registry lists; each record takes the keys its {@code @JsonCreator} names, so
 * a new method's settings need no line here. A key no record takes is refused.
 */
final class LoadBalancingBinder extends StdDeserializer<GslbConfig.LoadBalancing> {
    private static final String UNKNOWN_HEALTH = "unknown-health";

    LoadBalancingBinder() {
        super(GslbConfig.LoadBalancing.class);
    }

    @Override
    public GslbConfig.LoadBalancing deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (!p.isExpectedStartObjectToken()) {
            return (GslbConfig.LoadBalancing) ctxt.handleUnexpectedToken(GslbConfig.LoadBalancing.class, p);
        }
        ObjectNode given = ctxt.readTree(p).deepCopy();
        boolean available = GslbConfig.LoadBalancing.DEFAULTS.unknownIsAvailable();
        JsonNode unknown = given.remove(UNKNOWN_HEALTH);
        if (unknown != null && !unknown.isNull()) {
            available = switch (unknown.asText()) {
                case "available" -> true;
                case "unavailable" -> false;
                default -> {
                    var refused = InvalidFormatException.from(
                            p, "unknown-health must be available or unavailable", unknown.asText(), Boolean.class);
                    refused.initCause(new IllegalArgumentException(refused.getOriginalMessage()));
                    refused.prependPath(GslbConfig.LoadBalancing.class, UNKNOWN_HEALTH);
                    throw refused;
                }
            };
        }
        Set<String> known = new TreeSet<>(Set.of(UNKNOWN_HEALTH));
        List<Record> settings = new ArrayList<>();
        for (Class<? extends Record> type : MethodRegistry.settingsTypes()) {
            ObjectNode mine = given.objectNode();
            for (String key : keys(type)) {
                known.add(key);
                JsonNode value = given.remove(key);
                if (value != null) {
                    mine.set(key, value);
                }
            }
            if (!mine.isEmpty()) {
                settings.add(ctxt.readTreeAsValue(mine, type));
            }
        }
        if (!given.isEmpty()) {
            throw UnrecognizedPropertyException.from(
                    p, GslbConfig.LoadBalancing.class, given.fieldNames().next(), List.copyOf(known));
        }
        return new GslbConfig.LoadBalancing(MethodSettings.of(settings), available);
    }

    /** The keys a settings record's {@code @JsonCreator} names. */
    private static List<String> keys(Class<?> type) {
        for (Method m : type.getMethods()) {
            if (m.isAnnotationPresent(JsonCreator.class)) {
                List<String> keys = new ArrayList<>();
                for (Parameter parameter : m.getParameters()) {
                    JsonProperty key = parameter.getAnnotation(JsonProperty.class);
                    if (key != null) {
                        keys.add(key.value());
                    }
                }
                return keys;
            }
        }
        throw new IllegalStateException(type + " declares no @JsonCreator");
    }
}
