package dev.gslb.topology.load;

import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyRecord;
import java.util.List;

/** What one file contributed: regions (prefix lists) and, for 3DNS topology files, records. */
public record TopologySource(String file, Format format, List<Region> regions, List<TopologyRecord> records) {
    public enum Format {
        CIDR_LIST,
        THREE_DNS,
        APNIC
    }

    public TopologySource {
        regions = List.copyOf(regions);
        records = List.copyOf(records);
    }
}
