package dev.gslb.api;

import java.util.List;

/** What `gslb stats` shows for one wide IP (GET /stats, a list of these). */
public record WideIpStats(String name, Window lastMinute, Window lastHour, Window sinceStart) {

    /** A share of the answers in one window. */
    public record Share(String name, long answers, double percent) {}

    /** One window of one wide IP: how many answers, and how they split. */
    public record Window(
            long answers, List<Share> dataCenters, List<Share> servers, List<Share> pools, List<Share> methods) {}
}
