package dev.gslb.dns.method;

/** What a method did with a query. */
public enum Outcome {
    /** Chose: the candidates' first entry is the answer. */
    PICKED,
    /** Cannot decide: the next method, then the next pool, then the wide IP's failure behaviour. */
    PASS,
    /** Answer nothing (drop-packet). */
    DROP,
    /** Answer from the zone file's own records at this name (return-to-dns). */
    RETURN_TO_DNS,
    /** Answer the pool's fallback address regardless of health (fallback-ip). */
    FALLBACK_IP
}
