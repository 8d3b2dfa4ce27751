package dev.gslb.sync;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The pairings this instance has offered and not yet seen used: one-time secrets with an expiry,
 * at most {@value #MAX_PENDING} at once (a new offer pushes out the oldest).
 */
final class Pairings {
    static final int MAX_PENDING = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private record Pending(byte[] secret, long expiresAt, JoinTerms terms) {}

    private final Clock clock;
    private final List<Pending> pending = new ArrayList<>();

    Pairings(Clock clock) {
        this.clock = clock;
    }

    /** A new one-time secret, valid until {@code expiresMillis}, for a join within {@code terms}. */
    synchronized byte[] offer(long expiresMillis, JoinTerms terms) {
        byte[] secret = new byte[JoinToken.SECRET_BYTES];
        RANDOM.nextBytes(secret);
        dropExpired();
        if (pending.size() >= MAX_PENDING) {
            pending.removeFirst();
        }
        pending.add(new Pending(secret, expiresMillis, terms));
        return secret;
    }

    /** Whether any offer still waits: only then may an unpinned certificate finish the TLS handshake. */
    synchronized boolean waiting() {
        dropExpired();
        return !pending.isEmpty();
    }

    /** The terms of the offer with this secret, still unused and unexpired; null if none (it stays offered). */
    synchronized JoinTerms terms(byte[] secret) {
        dropExpired();
        for (Pending p : pending) {
            if (MessageDigest.isEqual(p.secret(), secret)) {
                return p.terms();
            }
        }
        return null;
    }

    /** Consumes the offer with this secret (compared in constant time); false if none or expired. */
    synchronized boolean take(byte[] secret) {
        long now = clock.millis();
        for (Pending p : pending) {
            if (MessageDigest.isEqual(p.secret(), secret)) {
                pending.remove(p);
                return p.expiresAt() >= now;
            }
        }
        return false;
    }

    private void dropExpired() {
        long now = clock.millis();
        pending.removeIf(p -> p.expiresAt() < now);
    }
}
