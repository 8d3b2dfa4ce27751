package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import dev.gslb.settings.Section;
import dev.gslb.settings.SettingsException;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.load.LiveTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The {@code topology:} section: the data files and the records that score regions and CIDRs per data center. */
final class TopologyBinder extends Sections {
    /** {@code topology:} as written. */
    record TopologyEntry(List<Path> data, List<TopologyRecordEntry> records, Boolean watch) {
        static final Section<TopologyEntry> SECTION =
                Section.of("topology", TopologyEntry.class, folder -> new TopologyEntry(null, null, null));
    }

    /** One of {@code topology.records:} as written: its data center by name. */
    record TopologyRecordEntry(String region, Cidr cidr, String datacenter, Integer score) {}

    TopologyBinder(Sections shared) {
        super(shared);
    }

    /** topology: data (files/folders), records (region or cidr -> datacenter, score), watch. */
    GslbConfig.Topology topology() throws SettingsException {
        TopologyEntry t = section(TopologyEntry.SECTION);
        List<Path> data = orEmpty(t.data());
        for (int i = 0; i < data.size(); i++) {
            if (!Files.exists(data.get(i))) {
                throw file.error("topology data " + data.get(i) + " does not exist", "topology", "data", i);
            }
        }
        List<TopologyRecordEntry> given = orEmpty(t.records());
        List<TopologyRecord> records = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            TopologyRecordEntry r = given.get(i);
            if ((r.region() == null) == (r.cidr() == null)) {
                throw file.error(
                        "a topology record needs exactly one of 'region:' (a loaded list) or 'cidr:'",
                        "topology",
                        "records",
                        i);
            }
            required(r.datacenter(), "topology record", "datacenter", "topology", "records", i);
            String dc = dataCenter(r.datacenter(), "topology", "records", i, "datacenter")
                    .name();
            long score = requireNonNullElse(r.score(), 100);
            try {
                records.add(new TopologyRecord(
                        r.cidr() != null ? r.cidr().toString() : r.region(),
                        dc,
                        score,
                        file.where("topology", "records", i)));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "topology", "records", i);
            }
        }
        boolean watch = t.watch() == null || t.watch();
        return new GslbConfig.Topology(new LiveTopology.Spec(data, records, dataCenters.keySet()), watch);
    }
}
