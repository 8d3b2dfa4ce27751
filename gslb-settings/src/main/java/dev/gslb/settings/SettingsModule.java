package dev.gslb.settings;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.Deserializers;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value types a settings file may hold beyond numbers, booleans and text, each read from one
 * scalar: durations ({@code 30s}), sizes ({@code 32MiB}), addresses (literals only, never a DNS
 * lookup), listen addresses ({@code [::1]:5353}) and paths (relative to the file's folder).
 */
public final class SettingsModule extends SimpleModule {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)?");

    public SettingsModule() {
        super("gslb-settings");
        scalar(Duration.class, SettingsModule::duration);
        scalar(ByteSize.class, ByteSize::parse);
        scalar(HostPort.class, HostPort::parse);
        scalar(InetAddress.class, SettingsModule::address);
    }

    /** Records that declare a {@link SettingsTable} bind through it, and so do overlays of them. */
    @Override
    public void setupModule(SetupContext context) {
        super.setupModule(context);
        context.addDeserializers(new Deserializers.Base() {
            @Override
            public JsonDeserializer<?> findBeanDeserializer(
                    JavaType type, DeserializationConfig config, BeanDescription beanDesc) {
                if (type.getRawClass() == SettingsOverlay.class) {
                    JavaType laidOver = type.containedTypeOrUnknown(0);
                    SettingsTable<?> table = SettingsTable.declaredBy(laidOver.getRawClass());
                    if (table == null) {
                        throw new IllegalStateException(laidOver + " declares no SettingsTable to overlay");
                    }
                    return table.overlayBinder();
                }
                SettingsTable<?> table = SettingsTable.declaredBy(type.getRawClass());
                return table == null ? null : table.binder();
            }
        });
    }

    /** Reads {@code type} from one scalar with {@code parse}; its IllegalArgumentException is the error. */
    public <T> SettingsModule scalar(Class<T> type, Function<String, T> parse) {
        addDeserializer(type, new Scalar<>(type, (text, ctxt) -> parse.apply(text)));
        return this;
    }

    /** Paths resolve against the folder of the file being read (injected as a {@link Path}). */
    SettingsModule pathsRelativeToTheFile() {
        addDeserializer(Path.class, new Scalar<>(Path.class, (text, ctxt) -> {
            return folder(ctxt).resolve(text);
        }));
        return this;
    }

    /** The folder of the file being read, which the reader injects. */
    static Path folder(DeserializationContext ctxt) throws JsonMappingException {
        return (Path) ctxt.findInjectableValue(Path.class.getName(), null, null, null, null);
    }

    /** Where secrets written as references are read from, which the reader injects. */
    static Secrets secrets(DeserializationContext ctxt) throws JsonMappingException {
        return (Secrets) ctxt.findInjectableValue(Secrets.class.getName(), null, null, null, null);
    }

    /**
     * A file whose top-level keys are {@code sections} reads as {@link SectionValues}: each key bound
     * to its section's type, so the reader knows the file's keys by name, each declared by its owner.
     */
    public SettingsModule sections(List<Section<?>> sections) {
        addDeserializer(SectionValues.class, new SectionsBinder(sections));
        return this;
    }

    /** A duration: a number of seconds, or a number with ms, s, m, h or d. */
    public static Duration duration(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration such as 30s, 5m or 10 (seconds)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofSeconds(n);
        };
    }

    private static InetAddress address(String text) {
        try {
            return InetAddress.ofLiteral(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 or IPv6 address", e);
        }
    }

    private interface Parse<T> {
        T apply(String text, DeserializationContext ctxt) throws IOException;
    }

    /** One scalar (text or number) parsed whole; a mapping or list where a scalar belongs is a type error. */
    private static final class Scalar<T> extends StdScalarDeserializer<T> {
        private final Class<T> type;
        private final transient Parse<T> parse;

        Scalar(Class<T> type, Parse<T> parse) {
            super(type);
            this.type = type;
            this.parse = parse;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.currentToken().isScalarValue()) {
                return type.cast(ctxt.handleUnexpectedToken(type, p));
            }
            String text = p.getText().trim();
            try {
                if (text.isEmpty()) {
                    throw new IllegalArgumentException("a value is missing");
                }
                return parse.apply(text, ctxt);
            } catch (IllegalArgumentException e) {
                InvalidFormatException refused = new InvalidFormatException(p, e.getMessage(), text, type);
                refused.initCause(e); // the parse's own words are the message
                throw refused;
            }
        }
    }
}
