package dev.gslb.dns.answer;

import java.net.InetAddress;
import org.xbill.DNS.Name;

/** Takes a NOTIFY (RFC 1996) for a zone: the rcode to answer it with. */
public interface NotifyReceiver {
    /**
     * A NOTIFY for {@code zone} from {@code from}, signed with the key named {@code key} (checked
     * already; null: unsigned): NOERROR when it is taken, REFUSED or NOTAUTH when not.
     */
    int notified(Name zone, InetAddress from, Name key);

    /** Whether {@code from} is a primary of a zone here: its NOTIFY has a budget of its own, a flood from elsewhere cannot spend. */
    default boolean fromPrimary(InetAddress from) {
        return false;
    }
}
