package dev.gslb.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gslb.settings.Secrets;
import dev.gslb.settings.SettingsException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A shared configuration this instance did not read from its own file (a peer's, or one kept
 * since a peer sent it) as this instance loads it: the sync group's trust boundary
 * (docs/security.md "A compromised peer"). A peer is trusted for what describes the site, never
 * with this host's files, programs or secrets: such a configuration may hold the shared sections
 * only (never a key this instance keeps for itself, such as {@code alerts}, {@code probe} or
 * {@code monitor-programs}), and every file it names must be one it carries, under its
 * {@code files/}, never a path of this host. Anything else refuses it whole, naming the key and the
 * name, before any file is read. Secrets stay references ({@code password-file:},
 * {@code ${env:GSLB_...}}): each instance reads its own.
 *
 * @param content what the peer sent
 * @param dir     where {@link SharedConfig#writeTo} put it
 */
public record PeerBundle(SharedConfig content, Path dir) {
    /**
     * {@code local}'s own sections with the bundle's shared ones instead, the files it names
     * pointed at {@link #dir}: the text this configuration is loaded from.
     */
    public String mergedInto(GslbConfig.ConfigText local) throws SettingsException {
        ObjectNode root = SharedConfig.tree(local);
        SharedConfig.SECTIONS.forEach(root::remove);
        List<String> refused = new ArrayList<>();
        try {
            JsonNode shared = SharedConfig.YAML.readTree(content.yaml());
            if (shared instanceof ObjectNode o) {
                o.properties().stream()
                        .map(java.util.Map.Entry::getKey)
                        .filter(key -> !SharedConfig.SECTIONS.contains(key))
                        .forEach(key -> refused.add("'" + shown(key) + "' is not a shared section: it stays each"
                                + " instance's own (a peer's configuration holds only " + SharedConfig.SECTIONS + ")"));
                SharedConfig.renameFiles(o, (written, under, key) -> inBundle(written, key, refused));
                o.properties().forEach(e -> root.set(e.getKey(), e.getValue()));
            }
            if (!refused.isEmpty()) {
                throw new SettingsException("the shared configuration: " + String.join("\n", refused));
            }
            return SharedConfig.YAML.writeValueAsString(root);
        } catch (IOException e) {
            throw new SettingsException("the shared configuration: " + e.getMessage());
        }
    }

    /**
     * {@code local}'s own part with this configuration as the shared part: what it runs as here. A
     * secret it names by file ({@code password-file:}) is read only from this instance's
     * configuration folder, never its state folder: the peer names a secret, never a file of its choosing.
     */
    public GslbConfig over(GslbConfig local, String label) throws SettingsException {
        Path base = local.source().base();
        return local.withShared(ConfigLoader.parse(
                label, mergedInto(local.source()), base, Secrets.ofProcess().confinedTo(base, local.stateFolder())));
    }

    /** Where this host wrote the file {@code name} names, if the bundle carries it; else the refusal says why. */
    private String inBundle(String name, String key, List<String> refused) {
        if (SharedConfig.safe(name) && carries(name)) {
            return dir.resolve(name).toAbsolutePath().toString();
        }
        refused.add(key + ": '" + shown(name) + "' is not a file of this configuration: a peer's configuration"
                + " names only files it carries (files/...), never a path of this host");
        return name;
    }

    /** A file of the bundle, or a folder holding some. */
    private boolean carries(String name) {
        return content.files().containsKey(name)
                || content.files().keySet().stream().anyMatch(f -> f.startsWith(name + "/"));
    }

    /** A peer's own text, told back on one line and cut short. */
    private static String shown(String text) {
        String line = text.replaceAll("\\p{Cntrl}", "?");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    /**
     * Why this configuration was refused, as the peer is told and {@code config status} shows it:
     * its files by their names in the bundle, not where this host keeps them.
     */
    public String refusal(Exception e) {
        String why = e.getMessage() == null ? e.toString() : e.getMessage();
        return why.replace(dir.toAbsolutePath() + File.separator, "");
    }
}
