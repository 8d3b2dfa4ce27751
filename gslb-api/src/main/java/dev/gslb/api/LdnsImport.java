package dev.gslb.api;

/** POST /ldns/import: a 3DNS {@code ldns { ... }} dump, as text, and where it came from (for file:line). */
public record LdnsImport(String source, String text) {}
