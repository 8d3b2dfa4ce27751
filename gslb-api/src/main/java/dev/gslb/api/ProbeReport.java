package dev.gslb.api;

/** POST /ldns/probe: what one probe round found, and the entry after it. */
public record ProbeReport(
        String ip,
        boolean probeable,
        String protocol,
        long rttMicros,
        int completion,
        int hops,
        int sent,
        int replies,
        LdnsView entry) {}
