package dev.gslb.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The configuration a command finds its server by: {@code --config FILE}, else {@code $GSLB_CONFIG},
 * else {@code gslb.yaml} of the installation when it exists ({@code /etc/gslb/gslb.yaml} for the
 * package), else none (the embedded default's admin keys: 127.0.0.1:8053, var/admin.token).
 *
 * @param file    the file, or null
 * @param because ", given by --config", ", given by $GSLB_CONFIG" or "": what messages add
 */
record ConfigLocation(Path file, String because) {
    /** The largest configuration read for its admin keys; the server's own limit is far below it. */
    private static final long MAX_BYTES = 64L << 20;

    /**
     * What the CLI needs of a configuration: {@code admin.listen} and {@code admin.token-file},
     * as written (null when absent); the token file resolved against the file's folder.
     */
    record AdminKeys(String listen, Path tokenFile, boolean tokenFileSet, boolean noToken) {}

    static ConfigLocation find(Path option) {
        if (option != null) {
            return new ConfigLocation(option, ", given by --config");
        }
        String env = AdminTarget.env("GSLB_CONFIG");
        if (env != null && !env.isBlank()) {
            return new ConfigLocation(Path.of(env), ", given by $GSLB_CONFIG");
        }
        Path installed = Gslb.home().resolve("gslb.yaml");
        return Files.isRegularFile(installed) ? new ConfigLocation(installed, "") : new ConfigLocation(null, "");
    }

    /**
     * Reads the {@code admin} section only, with a streaming parser that skips every other value
     * and stops after it: a configuration with a mistake elsewhere, even a YAML syntax error after
     * the admin section, still names its server. Not the full loader: it would read zones and
     * topology lists and refuse the whole file for one bad key.
     */
    AdminKeys adminKeys() throws IOException {
        String listen = null;
        String tokenFile = null;
        try (InputStream in = Files.newInputStream(file);
                JsonParser p = new YAMLFactory().createParser(new java.io.BufferedInputStream(in))) {
            if (Files.size(file) > MAX_BYTES) {
                throw new IOException(file + ": larger than " + (MAX_BYTES >> 20) + " MiB; not a configuration");
            }
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(file + ": not a configuration (a mapping of sections)");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String section = p.currentName();
                JsonToken value = p.nextToken();
                if (!section.equals("admin") || value != JsonToken.START_OBJECT) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    JsonToken v = p.nextToken();
                    if (v.isScalarValue() && key.equals("listen")) {
                        listen = p.getText();
                    } else if (v.isScalarValue() && key.equals("token-file")) {
                        tokenFile = p.getText();
                    } else {
                        p.skipChildren();
                    }
                }
                break;
            }
        } catch (NoSuchFileException e) {
            throw new IOException(file + because + " does not exist: give the configuration `gslb serve --config` runs"
                    + " with, or --admin ADDR and --token-file FILE");
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IOException("cannot read " + file + because + ": permission denied; run as the gslb user or"
                    + " root, or pass --admin ADDR and --token-file FILE");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(file + because + ": the admin section cannot be read: "
                    + e.getOriginalMessage().lines().findFirst().orElse("") + " (line "
                    + e.getLocation().getLineNr() + "); fix it, or pass --admin ADDR and --token-file FILE");
        }
        Path base = file.toAbsolutePath().getParent();
        boolean none = tokenFile != null && tokenFile.strip().equals("none");
        Path token =
                tokenFile == null ? base.resolve("var/admin.token") : none ? null : base.resolve(tokenFile.strip());
        return new AdminKeys(listen, token, tokenFile != null, none);
    }
}
