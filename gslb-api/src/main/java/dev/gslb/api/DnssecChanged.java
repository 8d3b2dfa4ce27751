package dev.gslb.api;

import java.util.List;

/**
 * What a DNSSEC command did: the keys it wrote and the steps to come, a line each.
 *
 * @param zone  the zone's origin
 * @param steps what happens when, in order
 */
public record DnssecChanged(String zone, List<String> steps) {}
