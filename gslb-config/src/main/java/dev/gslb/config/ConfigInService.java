package dev.gslb.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.health.MonitorTypes;
import dev.gslb.settings.FilledSection;
import dev.gslb.settings.SectionValues;
import dev.gslb.settings.SettingsException;
import java.io.IOException;

/**
 * The configuration a server runs, as `gslb config show` prints it (as {@code tmsh list} or
 * {@code knotc conf-read} do): every section in the loader's order, the keys given as written and
 * every other key of a settings section with its default, this instance's name and data center as
 * it runs, and no secret ({@link SecretValues}).
 */
public final class ConfigInService {
    private static final FilledSection FILLED = new FilledSection(
            (bound, given) -> bound instanceof MonitorSpec && given != null && given.hasNonNull(MonitorSpec.TYPE.key())
                    ? MonitorTypes.table(given.get(MonitorSpec.TYPE.key()).asText())
                    : null);

    private ConfigInService() {}

    /**
     * {@code text}, the configuration {@code running} was loaded from (its own part and the shared
     * part in service), as shown.
     */
    public static ObjectNode of(GslbConfig running, String text) throws SettingsException {
        GslbConfig.ConfigText source = running.source();
        SectionValues values = ConfigLoader.sections(source.label(), text, source.base());
        JsonNode tree;
        try {
            tree = SharedConfig.YAML.readTree(text);
        } catch (IOException e) {
            throw new SettingsException(source.label() + ": " + e.getMessage());
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (ConfigSections.Entry e : ConfigSections.ALL) {
            String key = e.section().key();
            JsonNode given = tree == null ? null : tree.get(key);
            // sync's path-ttl defaults to the probe's: the section alone does not know it
            Object bound = key.equals("sync") ? running.sync() : values.get(e.section());
            JsonNode shown = FILLED.fill(given == null || given.isNull() ? null : given, bound);
            if (shown != null) {
                out.set(key, shown);
            }
        }
        ObjectNode instance = out.putObject("instance");
        instance.put("name", running.instance().name());
        instance.put("datacenter", running.instance().dataCenter());
        out.putObject("config").put("sync", running.configSync());
        SecretValues.redact(out);
        return out;
    }
}
