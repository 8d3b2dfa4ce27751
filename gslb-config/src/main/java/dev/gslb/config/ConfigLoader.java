package dev.gslb.config;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.settings.Secrets;
import dev.gslb.settings.SectionValues;
import dev.gslb.settings.SettingsException;
import dev.gslb.settings.SettingsModule;
import dev.gslb.settings.SettingsReader;
import dev.gslb.topology.Cidr;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * Reads the YAML configuration (see docs/configuration.md for every key and default): each
 * top-level key is bound to the type its section declares ({@link ConfigSections} lists them, each
 * declared by the module that owns it), and {@link ConfigResolver} resolves what the sections say
 * of each other (a pool naming a server, a record naming a data center or region, a wide IP inside
 * a zone), pointing each error at its line and column. {@code config check}, {@code serve} and
 * {@code config reload} all load through here. Paths in the file are relative to the file's folder;
 * the embedded default's are relative to the installation folder.
 */
public final class ConfigLoader {
    public static final String EMBEDDED_NAME = "embedded default config";
    private static final String EMBEDDED_RESOURCE = "/default-config.yaml";

    /** Methods built to check a configuration, never run. */
    static final MethodRegistry UNBOUND_METHODS = new MethodRegistry(MethodRegistry.Services.UNBOUND);

    private static final SettingsReader READER = new SettingsReader(new SettingsModule()
            .scalar(Cidr.class, Cidr::parse)
            .scalar(Name.class, ConfigLoader::name)
            .sections(ConfigSections.sections()));

    private ConfigLoader() {}

    public static GslbConfig loadEmbedded(Path home) throws SettingsException {
        return parse(EMBEDDED_NAME, embeddedText(), home);
    }

    /** The embedded default's YAML, as {@link #loadEmbedded} reads it (serve's AOT training edits a copy). */
    public static String embeddedText() throws SettingsException {
        try (InputStream in = ConfigLoader.class.getResourceAsStream(EMBEDDED_RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SettingsException(EMBEDDED_NAME + ": cannot read: " + e.getMessage());
        }
    }

    public static GslbConfig load(Path file) throws SettingsException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SettingsException(file + ": cannot read: " + e.getMessage());
        }
        return parse(file.toString(), text, file.toAbsolutePath().getParent());
    }

    public static GslbConfig parse(String label, String text, Path base) throws SettingsException {
        return parse(label, text, base, Secrets.ofProcess());
    }

    /** {@link #parse(String, String, Path)} with secret references read through {@code secrets}. */
    static GslbConfig parse(String label, String text, Path base, Secrets secrets) throws SettingsException {
        return new ConfigResolver(READER.read(label, text, base, SectionValues.class, secrets))
                .resolve(new GslbConfig.ConfigText(label, text, base));
    }

    /** The sections of {@code text}, bound (defaults filled in) but not resolved: what `gslb config show` shows. */
    static SectionValues sections(String label, String text, Path base) throws SettingsException {
        return READER.read(label, text, base, SectionValues.class).value();
    }

    private static Name name(String text) {
        try {
            return Name.fromString(text, Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a valid domain name: " + e.getMessage(), e);
        }
    }

    /** The host name, read without a DNS lookup (which could hang at start-up). */
    static String defaultInstanceName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            String s = Files.readString(Path.of("/etc/hostname")).trim();
            return s.isEmpty() ? "gslb" : s;
        } catch (IOException e) {
            return "gslb";
        }
    }
}
