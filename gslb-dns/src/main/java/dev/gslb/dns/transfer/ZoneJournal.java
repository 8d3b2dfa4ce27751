package dev.gslb.dns.transfer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Serial;

/**
 * A zone's last changes, for IXFR (RFC 1995): each the records deleted and added between two
 * serials. Bounded: {@link #MAX_CHANGES} changes and {@link #MAX_RECORDS} records in all, the
 * oldest dropped first; a secondary older than what is kept gets the whole zone. Immutable.
 */
record ZoneJournal(List<Change> changes) {
    static final ZoneJournal EMPTY = new ZoneJournal(List.of());
    static final int MAX_CHANGES = 32;
    static final int MAX_RECORDS = 200_000;

    /** From the zone at {@code from} to the zone at {@code to}: the records deleted, then those added. */
    record Change(SOARecord from, SOARecord to, List<Record> deleted, List<Record> added) {
        int size() {
            return deleted.size() + added.size();
        }
    }

    ZoneJournal {
        changes = List.copyOf(changes);
    }

    /** A record and its TTL: dnsjava's equality leaves the TTL out, and a TTL change is a change. */
    private record Keyed(Record record, long ttl) {
        Keyed(Record r) {
            this(r, r.getTTL());
        }
    }

    /**
     * This journal and the change from {@code before} to {@code after}: itself when nothing
     * changed; empty when the records changed but the serial did not go forward (RFC 1982), as
     * the history kept no longer leads to the zone served.
     */
    ZoneJournal after(ZoneContent before, ZoneContent after) {
        long from = before.soa().getSerial();
        long to = after.soa().getSerial();
        Set<Keyed> old = new HashSet<>();
        before.records().forEach(r -> old.add(new Keyed(r)));
        Set<Keyed> now = new HashSet<>();
        after.records().forEach(r -> now.add(new Keyed(r)));
        List<Record> deleted = new ArrayList<>();
        for (Keyed k : old) {
            if (!now.contains(k)) {
                deleted.add(k.record());
            }
        }
        List<Record> added = new ArrayList<>();
        for (Keyed k : now) {
            if (!old.contains(k)) {
                added.add(k.record());
            }
        }
        Change change = new Change(before.soa(), after.soa(), deleted, added);
        if (from == to && change.size() == 0 && before.soa().equals(after.soa())) {
            return this;
        }
        if (from == to || Serial.compare(to, from) < 0 || change.size() > MAX_RECORDS) {
            return EMPTY;
        }
        List<Change> kept = new ArrayList<>(changes);
        kept.add(change);
        int records = kept.stream().mapToInt(Change::size).sum();
        while (kept.size() > MAX_CHANGES || records > MAX_RECORDS) {
            records -= kept.removeFirst().size();
        }
        return new ZoneJournal(kept);
    }

    /** The changes from {@code serial} to the newest, in order, or null when they are not all kept. */
    List<Change> since(long serial) {
        for (int i = 0; i < changes.size(); i++) {
            if (changes.get(i).from().getSerial() == serial) {
                return changes.subList(i, changes.size());
            }
        }
        return null;
    }
}
