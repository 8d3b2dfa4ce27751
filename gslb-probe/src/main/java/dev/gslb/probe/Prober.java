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

    /**
     * The samples of one round to {@code target}, one after another. By default each stands
     * alone; a prober that can keep what one sample set up for the next (a socket) does.
     */
    default Series series(InetAddress target) {
        return timeout -> sample(target, timeout);
    }

    /** One round's samples to one target; closing it frees what they kept. */
    interface Series extends AutoCloseable {
        /** One sample; blocks the calling (virtual) thread for at most {@code timeout}. */
        Sample sample(Duration timeout);

        @Override
        default void close() {}
    }
}
