package dev.gslb.api;

import java.util.List;

/** The answer to POST /peer/pair: the one-time join token and this instance's certificate. */
public record PairingView(String token, String expires, String fingerprint, List<String> warnings) {}
