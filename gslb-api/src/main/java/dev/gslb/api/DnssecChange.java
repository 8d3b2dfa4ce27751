package dev.gslb.api;

/**
 * A DNSSEC command (POST /dnssec/roll, POST /dnssec/submitted).
 *
 * @param zone the zone's origin
 * @param kind ksk or zsk (roll only: ksk rolls the CSK of a zone with keys: csk)
 */
public record DnssecChange(String zone, String kind) {}
