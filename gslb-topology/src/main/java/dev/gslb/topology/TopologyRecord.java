package dev.gslb.topology;

/**
 * "LDNS in {@code region} -> data center {@code dataCenter} with {@code score}". A CIDR source is
 * a region of its own, named by the CIDR. {@code origin} says where the record was written
 * (file:line), for error messages.
 */
public record TopologyRecord(String region, String dataCenter, long score, String origin) {
    public TopologyRecord {
        if (score < 0 || score > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(origin + ": score must be 0.." + 0xFFFF_FFFFL + ", not " + score);
        }
    }
}
