package dev.gslb.dns.dnssec;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * When a key does each thing, as BIND writes it in a {@code .private} file (YYYYMMDDHHMMSS, UTC):
 * a roll is these instants, written before they come, so a restart goes on with it. Null: not set
 * (a key with no Publish or Activate is published and active from the start, as BIND's keys
 * without timings are).
 *
 * @param created     when the key was made
 * @param publish     in the DNSKEY RRset from then
 * @param activate    signs from then
 * @param inactive    signs no more from then
 * @param delete      out of the DNSKEY RRset from then
 * @param syncPublish named by CDS and CDNSKEY from then (a KSK or CSK)
 * @param syncDelete  named by CDS and CDNSKEY no more from then
 * @param dsPublish   when the operator said the parent has this key's DS ({@code gslb dnssec submitted})
 */
public record KeyTimings(
        Instant created,
        Instant publish,
        Instant activate,
        Instant inactive,
        Instant delete,
        Instant syncPublish,
        Instant syncDelete,
        Instant dsPublish) {
    public static final KeyTimings NONE = new KeyTimings(null, null, null, null, null, null, null, null);

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

    /** A key made at {@code at}: published and active at once. */
    public static KeyTimings madeAt(Instant at) {
        return new KeyTimings(at, at, at, null, null, null, null, null);
    }

    /** The timings by BIND's tag, in BIND's order, those set only. */
    public Map<String, Instant> byTag() {
        Map<String, Instant> m = new LinkedHashMap<>();
        put(m, "Created", created);
        put(m, "Publish", publish);
        put(m, "Activate", activate);
        put(m, "Inactive", inactive);
        put(m, "Delete", delete);
        put(m, "DSPublish", dsPublish);
        put(m, "SyncPublish", syncPublish);
        put(m, "SyncDelete", syncDelete);
        return m;
    }

    /** True when {@code tag} (without its colon) is a timing this reads. */
    static boolean isTag(String tag) {
        return switch (tag) {
            case "Created", "Publish", "Activate", "Inactive", "Delete", "DSPublish", "SyncPublish", "SyncDelete" ->
                true;
            default -> false;
        };
    }

    /** These timings with {@code tag} set to {@code at}. */
    KeyTimings with(String tag, Instant at) {
        if (!isTag(tag)) {
            throw new IllegalArgumentException("no timing " + tag);
        }
        Map<String, Instant> m = byTag();
        m.put(tag, at);
        return new KeyTimings(
                m.get("Created"),
                m.get("Publish"),
                m.get("Activate"),
                m.get("Inactive"),
                m.get("Delete"),
                m.get("SyncPublish"),
                m.get("SyncDelete"),
                m.get("DSPublish"));
    }

    public KeyTimings retiring(Instant inactiveAt, Instant deleteAt) {
        return new KeyTimings(created, publish, activate, inactiveAt, deleteAt, syncPublish, syncDelete, dsPublish);
    }

    public KeyTimings named(Instant syncPublishAt, Instant syncDeleteAt) {
        return new KeyTimings(created, publish, activate, inactive, delete, syncPublishAt, syncDeleteAt, dsPublish);
    }

    public KeyTimings submitted(Instant at) {
        return with("DSPublish", at);
    }

    public static String format(Instant at) {
        return FORMAT.format(at);
    }

    /** YYYYMMDDHHMMSS (UTC) as BIND writes it; an IllegalArgumentException saying what is wrong. */
    public static Instant parse(String text) {
        if (!text.matches("[0-9]{14}")) {
            throw new IllegalArgumentException("'" + text + "' is not a time as YYYYMMDDHHMMSS");
        }
        try {
            return java.time.LocalDateTime.parse(text, DateTimeFormatter.ofPattern("uuuuMMddHHmmss"))
                    .toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a time as YYYYMMDDHHMMSS");
        }
    }

    private static void put(Map<String, Instant> m, String tag, Instant at) {
        if (at != null) {
            m.put(tag, at);
        }
    }
}
