package dev.gslb.probe;

import java.net.InetAddress;
import java.time.Duration;

/** Sends one probe of one protocol to an LDNS. Any reply of any kind counts; a timeout does not. */
public interface Prober {
    ProbeProtocol protocol();

    /** False when this process cannot send this kind of probe (ICMP without a raw or ping socket). */
    default boolean available() {
        return true;
    }

    /** One sample; blocks the calling (virtual) thread for at most {@code timeout}. */
    Sample sample(InetAddress target, Duration timeout);
}
