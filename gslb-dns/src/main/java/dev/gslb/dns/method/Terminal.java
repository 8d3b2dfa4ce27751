package dev.gslb.dns.method;

/**
 * The methods that end the query without choosing a member: fallback-ip (the pool's fallback
 * address, whatever the health), return-to-dns (the zone file's own records), drop-packet (no
 * answer), none (pass to the next tier).
 */
public record Terminal(String name, Outcome outcome) implements LoadBalancingMethod {
    public static Terminal fallbackIp() {
        return new Terminal("fallback-ip", Outcome.FALLBACK_IP);
    }

    public static Terminal returnToDns() {
        return new Terminal("return-to-dns", Outcome.RETURN_TO_DNS);
    }

    public static Terminal dropPacket() {
        return new Terminal("drop-packet", Outcome.DROP);
    }

    public static Terminal none() {
        return new Terminal("none", Outcome.PASS);
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        return outcome;
    }
}
