package dev.gslb.api;

import java.util.List;

/** GET /config/diff?peer=NAME: lines only here (-) and only on the peer (+), file by file. */
public record ConfigDiff(String peer, boolean same, List<String> lines) {}
