package dev.gslb.settings;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds a file's root mapping by its sections: each key to its section's type, read on from the
 * same parser (so an error keeps its path, and with it its line and column); an unknown key is
 * refused with the keys known. A section left out or empty takes its default.
 */
final class SectionsBinder extends StdDeserializer<SectionValues> {
    private final Map<String, Section<?>> sections = new LinkedHashMap<>();

    SectionsBinder(List<Section<?>> sections) {
        super(SectionValues.class);
        for (Section<?> s : sections) {
            if (this.sections.putIfAbsent(s.key(), s) != null) {
                throw new IllegalArgumentException("section " + s.key() + " is listed twice");
            }
        }
    }

    @Override
    public SectionValues deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (!p.isExpectedStartObjectToken()) {
            return (SectionValues) ctxt.handleUnexpectedToken(SectionValues.class, p);
        }
        Map<String, Object> given = new HashMap<>();
        for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
            Section<?> section = sections.get(key);
            if (section == null) {
                throw SettingsReader.unknownKey(p, SectionValues.class, key, sections.keySet());
            }
            if (p.nextToken() == JsonToken.VALUE_NULL) {
                continue; // a section with nothing after it keeps its default
            }
            try {
                Object value = ctxt.readValue(p, section.type());
                if (value != null) {
                    given.put(key, value);
                }
            } catch (JsonMappingException
                    | RuntimeException e) { // as Jackson's record binding did: the key joins the path
                throw JsonMappingException.wrapWithPath(e, SectionValues.class, key);
            }
        }
        Path folder = SettingsModule.folder(ctxt);
        Map<String, Object> all = new HashMap<>();
        for (Section<?> s : sections.values()) {
            all.put(
                    s.key(),
                    given.containsKey(s.key()) ? given.get(s.key()) : s.absent().apply(folder));
        }
        return new SectionValues(all);
    }
}
