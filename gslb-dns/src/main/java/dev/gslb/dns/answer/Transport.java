package dev.gslb.dns.answer;

/** How a query arrived; UDP answers are size-limited, TCP answers are complete. */
public enum Transport {
    UDP,
    TCP
}
