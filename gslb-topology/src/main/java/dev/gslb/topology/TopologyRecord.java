package dev.gslb.topology;

/**
 * "LDNS in {@code region} -> {@code dataCenter} with {@code score}". A CIDR source is a region of
 * its own, named by the CIDR; {@code isp:NAME}, {@code country:CC} and {@code continent:NAME} are
 * mapped to a loaded region when the table is built; {@code !SOURCE} means every address outside it. The target is a data center's name, or a
 * pool's or virtual server's with the prefix {@link #POOL} or {@link #SERVER} (3DNS {@code pool."www"},
 * {@code server."vs1"}). {@code origin} says where the record was written (file:line), for
 * error messages.
 */
public record TopologyRecord(String region, String dataCenter, long score, String origin) {
    public static final String POOL = "pool:";
    public static final String SERVER = "server:";
    /** A region written {@code !X}: the record is for every address outside X. */
    public static final String NOT = "!";

    public TopologyRecord {
        if (score < 0 || score > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(origin + ": score must be 0.." + 0xFFFF_FFFFL + ", not " + score);
        }
    }

    /** True when the target is a data center (not a pool or a server). */
    public boolean targetsDataCenter() {
        return !dataCenter.startsWith(POOL) && !dataCenter.startsWith(SERVER);
    }
}
