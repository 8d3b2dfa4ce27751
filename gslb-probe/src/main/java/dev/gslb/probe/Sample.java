package dev.gslb.probe;

/**
 * One probe packet's outcome: the round-trip time of whatever came back, or no reply.
 *
 * @param rttMicros microseconds until the reply, or -1 when nothing came back in time
 * @param replyTtl  the IP TTL of the reply where the socket shows it (ICMP), else -1
 */
public record Sample(long rttMicros, int replyTtl) {
    public static final Sample NO_REPLY = new Sample(-1, -1);

    public static Sample reply(long startNanos) {
        return new Sample(Math.max(1, (System.nanoTime() - startNanos) / 1000), -1);
    }

    public boolean replied() {
        return rttMicros >= 0;
    }
}
