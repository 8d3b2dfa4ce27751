package dev.gslb.api;

import java.util.List;
import java.util.Map;

/**
 * The signed zones and their keys (GET /dnssec, {@code gslb dnssec status}).
 *
 * @param zones every zone with {@code dnssec:}
 */
public record DnssecView(List<Zone> zones) {
    /**
     * One zone.
     *
     * @param zone      its origin
     * @param signed    its keys are complete and published to the query path
     * @param why       why it is not signed, or what went wrong the last time its keys were read or rolled (null: nothing)
     * @param algorithm ecdsap256sha256 or ed25519
     * @param keys      ksk-zsk or csk
     * @param folder    where its made keys are kept
     * @param keyList   every key, whatever its state
     * @param next      the next event, or null when none is set
     * @param nextAt    when (ISO-8601), or null
     */
    public record Zone(
            String zone,
            boolean signed,
            String why,
            String algorithm,
            String keys,
            String folder,
            List<Key> keyList,
            String next,
            String nextAt) {}

    /**
     * One key.
     *
     * @param tag       its key tag
     * @param role      ksk, zsk or csk
     * @param algorithm its algorithm number
     * @param state     waiting, published, active, retired or removed
     * @param cds       named by CDS and CDNSKEY now
     * @param file      its .private file
     * @param given     given as ksk-file or zsk-file (never rewritten, never rolled here)
     * @param timings   BIND's timing tags and their instants (ISO-8601)
     */
    public record Key(
            int tag,
            String role,
            int algorithm,
            String state,
            boolean cds,
            String file,
            boolean given,
            Map<String, String> timings) {}
}
