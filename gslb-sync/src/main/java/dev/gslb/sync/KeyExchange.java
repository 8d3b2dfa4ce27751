package dev.gslb.sync;

/**
 * The DNSSEC keys' side of peer sync: both instances of a pair answer for a signed zone, so both
 * must sign with the same keys, those the parent's DS trusts. An offer's content is the owner's
 * key folder zipped (at most {@code Wire.MAX_KEYS} bytes); the owner decides what to adopt.
 */
public interface KeyExchange extends OfferExchange {}
