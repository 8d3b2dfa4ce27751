package dev.gslb.api;

import java.util.List;

/** The LDNS counts over the last minute, the last hour and since start (GET /stats/ldns). */
public record LdnsStats(Split lastMinute, Split lastHour, Split sinceStart) {

    /** A share of the LDNS in one window. */
    public record Count(String name, long ldns, double percent) {}

    /** How many LDNS asked within a window, by the data center they were sent to and by region. */
    public record Split(long ldns, List<Count> dataCenters, List<Count> regions) {}
}
