package dev.gslb.api;

import java.util.List;

/** POST /peer/pair: the sync addresses to put in the token (empty: sync.advertise). */
public record PairRequest(List<String> advertise) {}
