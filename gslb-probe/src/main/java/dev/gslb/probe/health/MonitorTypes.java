package dev.gslb.probe.health;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.gslb.probe.health.ProtocolCheck.Protocol;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every monitor type by its name under {@code type:}, with the settings table of its check.
 * Adding a type is one {@link Check} class with its table, and one line here.
 */
public final class MonitorTypes {
    private static final Map<String, SettingsTable<? extends Check>> CHECKS = new LinkedHashMap<>();
    private static final Map<String, SettingsTable<MonitorSpec>> SPECS = new LinkedHashMap<>();

    static {
        add("icmp", IcmpCheck.SETTINGS, IcmpCheck.class);
        add("tcp", TcpCheck.SETTINGS, TcpCheck.class);
        add("http", HttpCheck.settings(false), HttpCheck.class);
        add("https", HttpCheck.settings(true), HttpCheck.class);
        add("smtp", ProtocolCheck.settings(Protocol.SMTP), ProtocolCheck.class);
        add("ftp", ProtocolCheck.settings(Protocol.FTP), ProtocolCheck.class);
        add("pop3", ProtocolCheck.settings(Protocol.POP3), ProtocolCheck.class);
        add("imap", ProtocolCheck.settings(Protocol.IMAP), ProtocolCheck.class);
        add("dns", DnsCheck.SETTINGS, DnsCheck.class);
        add("external", ExternalCheck.SETTINGS, ExternalCheck.class);
    }

    private MonitorTypes() {}

    private static <C extends Check> void add(String type, SettingsTable<C> check, Class<C> kind) {
        CHECKS.put(type, check);
        SPECS.put(type, MonitorSpec.table(type, check, kind));
    }

    /**
     * Each type's own keys (docs/operator-guide.md "Check the virtual servers"), in the reference's
     * order.
     */
    public static Map<String, SettingsTable<? extends Check>> checks() {
        return Collections.unmodifiableMap(CHECKS);
    }

    /** The table of a monitor of {@code type} (its common keys and its check's), or null for no such type. */
    public static SettingsTable<MonitorSpec> table(String type) {
        return SPECS.get(type);
    }

    /** "icmp, tcp, ... dns or external". */
    static String names() {
        List<String> names = new ArrayList<>(CHECKS.keySet());
        String last = names.removeLast();
        return String.join(", ", names) + " or " + last;
    }

    /** Binds a monitor with the table of its {@code type:}. */
    static final class Binder extends StdDeserializer<MonitorSpec> {
        Binder() {
            super(MonitorSpec.class);
        }

        @Override
        public MonitorSpec deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartObjectToken()) {
                return (MonitorSpec) ctxt.handleUnexpectedToken(MonitorSpec.class, p);
            }
            JsonNode given = ctxt.readTree(p);
            JsonNode type = given.get(MonitorSpec.TYPE.key());
            if (type == null || type.isNull()) {
                throw refused(
                        p,
                        "monitor " + given.path(MonitorSpec.NAME.key()).asText(null) + " needs 'type:' (" + names()
                                + ")");
            }
            SettingsTable<MonitorSpec> table = SPECS.get(type.asText());
            if (table == null) {
                throw refused(p, "unknown monitor type '" + type.asText() + "'; expected " + names());
            }
            try (JsonParser keys = given.traverse(p.getCodec())) {
                keys.nextToken();
                return table.read(keys, ctxt);
            }
        }

        private static JsonMappingException refused(JsonParser p, String message) {
            return JsonMappingException.from(p, message, new IllegalArgumentException(message));
        }
    }
}
