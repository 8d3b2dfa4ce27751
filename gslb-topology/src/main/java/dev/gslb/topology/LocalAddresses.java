package dev.gslb.topology;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Every address of this host's interfaces, as found now (probe exclusions, the admin API's Host check). */
public final class LocalAddresses {
    private LocalAddresses() {}

    public static List<InetAddress> all() throws SocketException {
        List<InetAddress> all = new ArrayList<>();
        for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            all.addAll(Collections.list(i.getInetAddresses()));
        }
        return all;
    }

    /** How an address is spelled without its scope (fe80::1%eth0 is fe80:0:0:0:0:0:0:1). */
    public static String text(InetAddress a) {
        String s = a.getHostAddress();
        int scope = s.indexOf('%');
        return scope < 0 ? s : s.substring(0, scope);
    }
}
