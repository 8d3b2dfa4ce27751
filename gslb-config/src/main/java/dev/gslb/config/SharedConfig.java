package dev.gslb.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.gslb.dns.dnssec.KeyFile;
import dev.gslb.probe.store.StateFile;
import dev.gslb.settings.SettingsException;
import dev.gslb.topology.load.RuntimeLoad;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * The part of a configuration that a sync group shares (docs/operator-guide.md "One configuration
 * for the pair (sync group)"): the shared sections of the YAML and the content of every file they
 * name (zone files, topology lists), so a peer needs nothing of this host's disk. Files are kept
 * under {@code files/}, and the YAML names them there; {@link PeerBundle} points those names at
 * wherever the files were written.
 *
 * @param yaml  the shared sections, as YAML
 * @param files path inside the bundle -> content
 */
public record SharedConfig(String yaml, SortedMap<String, byte[]> files) {
    /** What is shared (the {@link ConfigSections} marked so); everything else in the file is this instance's own. */
    public static final List<String> SECTIONS = ConfigSections.keys(ConfigSections.Scope.SHARED);

    static final String YAML_ENTRY = "shared.yaml";
    /** Unzipped, a configuration may not exceed this (zones and lists of a large deployment fit many times). */
    static final long MAX_BYTES = 256L << 20;

    /** Every string is written quoted: a name like 1e3, 0x10 or yes must come back a string. */
    static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .build();

    public SharedConfig {
        files = new TreeMap<>(files);
    }

    /** The shared part of {@code source}: its shared sections and the files they name, read now. */
    public static SharedConfig of(GslbConfig.ConfigText source) throws SettingsException {
        ObjectNode root = tree(source);
        ObjectNode shared = YAML.createObjectNode();
        SortedMap<String, byte[]> files = new TreeMap<>();
        for (String key : SECTIONS) {
            if (root.has(key) && !root.get(key).isNull()) {
                shared.set(key, root.get(key).deepCopy());
            }
        }
        try {
            renameFiles(shared, (written, under, key) -> copy(source.base(), written, under, files));
            return new SharedConfig(shared.isEmpty() ? "{}\n" : YAML.writeValueAsString(shared), files);
        } catch (IOException e) {
            throw new SettingsException(source.label() + ": " + e.getMessage());
        }
    }

    /**
     * Copies a file, or a folder's regular files, into {@code files} under {@code under}; returns
     * the name the YAML gives it now. A path that does not exist stays as written: loading the
     * configuration reports it with its line.
     */
    private static String copy(Path base, String written, String under, SortedMap<String, byte[]> files)
            throws IOException {
        Path p = base.resolve(written);
        if (Files.isDirectory(p)) {
            try (Stream<Path> s = Files.list(p)) {
                for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
                    files.put(under + "/" + f.getFileName(), Files.readAllBytes(f));
                }
            }
            return under;
        }
        if (Files.isRegularFile(p)) {
            String name = under + "/" + p.getFileName();
            files.put(name, Files.readAllBytes(p));
            return name;
        }
        return written;
    }

    /**
     * A new name for a file the shared sections name; {@code under} is where the bundle keeps it,
     * {@code key} where the YAML names it ({@code zones[0].file}).
     */
    @FunctionalInterface
    interface Rename {
        String apply(String written, String under, String key) throws IOException;
    }

    /**
     * The one place that knows which keys name files: each zone's {@code file} and each entry of
     * {@code topology.data} gets {@code rename}'s name ({@code data: one/path} becomes a list of one).
     */
    static void renameFiles(ObjectNode shared, Rename rename) throws IOException {
        JsonNode zones = shared.path("zones");
        for (int i = 0; zones.isArray() && i < zones.size(); i++) {
            if (zones.get(i) instanceof ObjectNode z && z.hasNonNull("file")) {
                z.put("file", rename.apply(z.get("file").asText(), "files/zones/" + i, "zones[" + i + "].file"));
            }
            if (zones.get(i) instanceof ObjectNode z && z.get("dnssec") instanceof ObjectNode dnssec) {
                for (String key : List.of("ksk-file", "zsk-file")) {
                    if (dnssec.hasNonNull(key)) { // a key pair: its .private as named, its .key beside it
                        String written = dnssec.get(key).asText();
                        String under = "files/zones/" + i + "/" + key;
                        String at = "zones[" + i + "].dnssec." + key;
                        dnssec.put(key, rename.apply(written, under, at));
                        rename.apply(KeyFile.publicFile(Path.of(written)).toString(), under, at + " (its .key)");
                    }
                }
            }
        }
        if (!(shared.get("topology") instanceof ObjectNode topology)) {
            return;
        }
        if (topology.path("data").isTextual()) {
            topology.set("data", YAML.createArrayNode().add(topology.get("data")));
        }
        if (topology.get("data") instanceof ArrayNode data) {
            for (int i = 0; i < data.size(); i++) {
                String key = "topology.data[" + i + "]";
                data.set(i, TextNode.valueOf(rename.apply(data.get(i).asText(), "files/topology/" + i, key)));
            }
        }
    }

    static ObjectNode tree(GslbConfig.ConfigText source) throws SettingsException {
        try {
            JsonNode n = YAML.readTree(source.text());
            return n instanceof ObjectNode o ? o : YAML.createObjectNode();
        } catch (IOException e) {
            throw new SettingsException(source.label() + ": " + e.getMessage());
        }
    }

    private static final String LOADS = "files/loads/";
    /** A load's name, files, author, instance and time (a bundle of before has none: defaults then). */
    private static final String META = "load.yaml";

    /**
     * What was loaded at run time, in order: it is shared like the lists the file names. A bundle
     * comes from a peer too, so a load's description is read leniently (what is odd in it is
     * left out) and its texts are checked when the topology is built.
     */
    public List<RuntimeLoad> loads() {
        SortedMap<String, SortedMap<String, byte[]>> byLoad = new TreeMap<>();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            if (e.getKey().startsWith(LOADS)) {
                String[] parts = e.getKey().substring(LOADS.length()).split("/", 2);
                if (parts.length == 2) {
                    byLoad.computeIfAbsent(parts[0], k -> new TreeMap<>()).put(parts[1], e.getValue());
                }
            }
        }
        List<RuntimeLoad> loads = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (var e : byLoad.entrySet()) {
            RuntimeLoad l = load(e.getKey(), e.getValue(), names);
            if (l != null) {
                names.add(l.name());
                loads.add(l);
            }
        }
        return List.copyOf(loads);
    }

    /** One load from its entries ({@code region}, {@code load.yaml}, {@code texts/NAME}); null when it holds no text. */
    private static RuntimeLoad load(String index, SortedMap<String, byte[]> entries, java.util.Set<String> taken) {
        Map<String, String> stored = new java.util.LinkedHashMap<>();
        entries.forEach((k, v) -> {
            if (k.startsWith("texts/") && k.length() > "texts/".length()) {
                stored.put(k.substring("texts/".length()), new String(v, StandardCharsets.UTF_8));
            }
        });
        if (stored.isEmpty()) {
            return null;
        }
        JsonNode meta = meta(entries.get(META));
        Map<String, String> texts = new java.util.LinkedHashMap<>();
        for (JsonNode f : meta.path("files")) { // the names as given, in the order they were loaded
            String name = f.asText();
            if (RuntimeLoad.plain(name) && stored.containsKey(RuntimeLoad.fileName(name))) {
                texts.putIfAbsent(name, stored.get(RuntimeLoad.fileName(name)));
            }
        }
        if (texts.size() != stored.size()) {
            texts = stored;
        }
        String name = meta.path("name").asText("");
        if (!RuntimeLoad.NAME.matcher(name).matches()) {
            name = RuntimeLoad.nameOf(texts.keySet().iterator().next());
        }
        if (taken.contains(name)) {
            name = RuntimeLoad.nameOf(name + "-" + index);
        }
        byte[] region = entries.get("region");
        String r = region == null ? null : new String(region, StandardCharsets.UTF_8);
        java.time.Instant at = null;
        try {
            at = meta.hasNonNull("at") ? java.time.Instant.parse(meta.get("at").asText()) : null;
        } catch (java.time.format.DateTimeParseException e) {
            // left out, as an odd author is
        }
        return new RuntimeLoad(
                name, texts, RuntimeLoad.plain(r) ? r : null, plain(meta, "by"), plain(meta, "instance"), at);
    }

    private static JsonNode meta(byte[] yaml) {
        if (yaml == null || yaml.length > 1 << 20) {
            return YAML.createObjectNode();
        }
        try {
            JsonNode n = YAML.readTree(yaml);
            return n instanceof ObjectNode ? n : YAML.createObjectNode();
        } catch (IOException e) {
            return YAML.createObjectNode();
        }
    }

    private static String plain(JsonNode meta, String key) {
        String v = meta.hasNonNull(key) ? meta.get(key).asText() : null;
        return RuntimeLoad.plain(v) ? v : null;
    }

    /** This configuration with {@code loads} as its run-time loads, in order. */
    public SharedConfig withLoads(List<RuntimeLoad> loads) {
        SortedMap<String, byte[]> f = new TreeMap<>(files);
        f.keySet().removeIf(k -> k.startsWith(LOADS));
        for (int i = 0; i < loads.size(); i++) {
            RuntimeLoad l = loads.get(i);
            String at = LOADS + "%06d".formatted(i) + "/";
            if (l.region() != null) {
                f.put(at + "region", l.region().getBytes(StandardCharsets.UTF_8));
            }
            ObjectNode meta = YAML.createObjectNode().put("name", l.name());
            ArrayNode names = meta.putArray("files");
            l.texts().keySet().forEach(names::add);
            meta.put("by", l.by()).put("instance", l.instance());
            meta.put("at", l.at() == null ? null : l.at().toString());
            try {
                f.put(at + META, YAML.writeValueAsBytes(meta));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            l.texts()
                    .forEach((name, text) ->
                            f.put(at + "texts/" + RuntimeLoad.fileName(name), text.getBytes(StandardCharsets.UTF_8)));
        }
        return new SharedConfig(yaml, f);
    }

    /** This configuration with {@code other}'s run-time loads instead of its own. */
    public SharedConfig withLoadsOf(SharedConfig other) {
        SortedMap<String, byte[]> f = new TreeMap<>(files);
        f.keySet().removeIf(k -> k.startsWith(LOADS));
        other.files.forEach((k, v) -> {
            if (k.startsWith(LOADS)) {
                f.put(k, v);
            }
        });
        return new SharedConfig(yaml, f);
    }

    /**
     * Everything this configuration is, by name: {@value #YAML_ENTRY} first, then the files in name
     * order. Digest, zip, folder and diff all go through this one list.
     */
    public Map<String, byte[]> entries() {
        Map<String, byte[]> all = new java.util.LinkedHashMap<>();
        all.put(YAML_ENTRY, yaml.getBytes(StandardCharsets.UTF_8));
        all.putAll(files);
        return all;
    }

    /** SHA-256 over the YAML and every file with its name: equal digests, equal configurations. */
    public String digest() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            entries().forEach((name, bytes) -> update(md, name, bytes));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void update(MessageDigest md, String name, byte[] bytes) {
        md.update(name.getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0);
        md.update(java.nio.ByteBuffer.allocate(8).putLong(bytes.length).array());
        md.update(bytes);
    }

    /** What travels to peers: the YAML and the files, zipped, entries in name order. */
    public byte[] zip() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(b)) {
            for (Map.Entry<String, byte[]> e : entries().entrySet()) {
                entry(z, e.getKey(), e.getValue());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return b.toByteArray();
    }

    private static void entry(ZipOutputStream z, String name, byte[] bytes) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setTime(0); // the same content zips to the same bytes
        z.putNextEntry(e);
        z.write(bytes);
        z.closeEntry();
    }

    /**
     * Reads what {@link #zip} wrote, from a peer: every name must stay under {@code files/}
     * (no {@code ..}, no absolute path), and the whole may not exceed {@value #MAX_BYTES} bytes
     * unzipped.
     */
    public static SharedConfig unzip(byte[] zipped) throws IOException {
        String yaml = null;
        SortedMap<String, byte[]> files = new TreeMap<>();
        long total = 0;
        try (ZipInputStream z = new ZipInputStream(new ByteArrayInputStream(zipped))) {
            for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
                String name = e.getName();
                byte[] bytes = z.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, MAX_BYTES - total + 1));
                total += bytes.length;
                if (total > MAX_BYTES) {
                    throw new IOException("the configuration exceeds " + (MAX_BYTES >> 20) + " MiB unzipped");
                }
                if (name.equals(YAML_ENTRY)) {
                    yaml = new String(bytes, StandardCharsets.UTF_8);
                } else if (safe(name)) {
                    files.put(name, bytes);
                } else {
                    throw new IOException("a file named " + name + " in the configuration (only files/... is allowed)");
                }
            }
        }
        if (yaml == null) {
            throw new IOException("no " + YAML_ENTRY + " in the configuration");
        }
        return new SharedConfig(yaml, files);
    }

    /** A name under {@code files/} that stays there: no {@code ..}, {@code .}, empty part, backslash or absolute path. */
    static boolean safe(String name) {
        if (!name.startsWith("files/") || name.contains("\\") || name.length() > 1024) {
            return false;
        }
        for (String part : name.split("/", -1)) {
            if (part.isEmpty() || part.equals("..") || part.equals(".")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the YAML and the files into {@code dir}, which must not exist yet: a copy in the state
     * folder, readable by this user only (it may hold an inline password).
     */
    public void writeTo(Path dir) throws IOException {
        StateFile.folder(dir);
        for (Map.Entry<String, byte[]> e : entries().entrySet()) {
            StateFile.createNew(dir.resolve(e.getKey()), e.getValue());
        }
    }

    /** What {@link #writeTo} wrote. */
    public static SharedConfig readFrom(Path dir) throws IOException {
        String yaml = Files.readString(dir.resolve(YAML_ENTRY));
        SortedMap<String, byte[]> files = new TreeMap<>();
        Path root = dir.resolve("files");
        if (Files.isDirectory(root)) {
            List<Path> all = new ArrayList<>();
            try (Stream<Path> s = Files.walk(root)) {
                s.filter(Files::isRegularFile).forEach(all::add);
            }
            for (Path f : all) {
                files.put(dir.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
            }
        }
        return new SharedConfig(yaml, files);
    }
}
