package dev.gslb.api;

import java.util.List;

/** What POST /ldns/import applied: LDNS read, paths recorded, and what was left out (file:line). */
public record LdnsImported(int ldns, int paths, List<String> skipped) {}
