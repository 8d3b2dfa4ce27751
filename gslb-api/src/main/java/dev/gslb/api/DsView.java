package dev.gslb.api;

import java.util.List;

/**
 * The DS records the parent of a zone should hold (GET /dnssec/ds, {@code gslb dnssec ds}): one
 * per KSK or CSK, SHA-256, as zone-file lines.
 */
public record DsView(String zone, List<Ds> records) {
    /**
     * @param tag    the key's tag
     * @param role   ksk or csk
     * @param ds     the DS record as a zone-file line
     * @param dnskey the DNSKEY record it names, as a zone-file line
     * @param from   when the parent may take it (ISO-8601): once every cache can have the key; null: now
     */
    public record Ds(int tag, String role, String ds, String dnskey, String from) {}
}
