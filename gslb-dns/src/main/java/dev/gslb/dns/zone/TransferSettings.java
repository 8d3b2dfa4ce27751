package dev.gslb.dns.zone;

import dev.gslb.settings.HostPort;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * A zone's {@code transfer:} entry: who may take the zone by AXFR or IXFR, and whom to NOTIFY when
 * it changes. With neither {@code allow} nor {@code tsig}, nobody may (the configuration refuses it).
 *
 * @param allow  the addresses allowed (CIDRs); empty: any address, when {@code tsig} is given
 * @param tsig   the TSIG keys allowed; when given, a request must be signed with one of them
 * @param notifyAddresses the secondaries told of each new serial (address, or address:port; port 53)
 */
public record TransferSettings(List<Cidr> allow, List<Name> tsig, List<InetSocketAddress> notifyAddresses) {
    /** Secondaries one zone notifies: a list longer than this is a mistake, and each costs a send per change. */
    public static final int MAX_NOTIFY = 64;

    public TransferSettings {
        allow = List.copyOf(allow);
        tsig = List.copyOf(tsig);
        notifyAddresses = List.copyOf(notifyAddresses);
        if (notifyAddresses.size() > MAX_NOTIFY) {
            throw new IllegalArgumentException(
                    "transfer.notify lists " + notifyAddresses.size() + " secondaries; at most " + MAX_NOTIFY);
        }
    }

    public static final Setting<List<Cidr>> ALLOW = Setting.list(
                    "allow", String.class, List.of(), "the addresses that may transfer the zone (CIDRs)")
            .map(TransferSettings::cidrs, List.<Cidr>of())
            .shown("none: any address, with a key of tsig:");
    public static final Setting<List<Name>> TSIG = Setting.list(
                    "tsig", String.class, List.of(), "the TSIG keys (of tsig-keys:) a transfer must be signed with")
            .map(TransferSettings::keyNames, List.<Name>of())
            .shown("none: unsigned, from an address of allow:");
    public static final Setting<List<InetSocketAddress>> NOTIFY = Setting.list(
                    "notify",
                    String.class,
                    List.of(),
                    "the secondaries sent NOTIFY on each new serial (address[:port])")
            .map(TransferSettings::addresses, List.<InetSocketAddress>of());

    public static final SettingsTable<TransferSettings> SETTINGS =
            SettingsTable.of(TransferSettings.class, ALLOW, TSIG, NOTIFY);

    private static List<Cidr> cidrs(List<String> written) {
        return written.stream().map(Cidr::parse).toList();
    }

    private static List<InetSocketAddress> addresses(List<String> written) {
        return written.stream().map(TransferSettings::address).toList();
    }

    private static List<Name> keyNames(List<String> written) {
        List<Name> keys = new ArrayList<>();
        for (String k : written) {
            try {
                keys.add(Name.fromString(k, Name.root));
            } catch (TextParseException e) {
                throw new IllegalArgumentException("transfer.tsig: '" + k + "' is not a key name");
            }
        }
        return keys;
    }

    /** {@code 198.18.0.2}, {@code 198.18.0.2:5300}, {@code 2001:db8::2} or {@code [2001:db8::2]:5300}: a literal, never a name to look up. */
    public static InetSocketAddress address(String text) {
        InetSocketAddress a;
        try {
            a = HostPort.parse(text.trim(), 53);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("transfer.notify: '" + text + "' is not an address: " + e.getMessage());
        }
        if (a.getPort() == 0) {
            throw new IllegalArgumentException("transfer.notify: '" + text + "' has a bad port");
        }
        return a;
    }

    /**
     * Whether a request from {@code client}, signed with the key named {@code key} (null: unsigned,
     * the signature already checked), may take the zone: its address in {@code allow} when that is
     * given, and its key in {@code tsig} when that is given.
     */
    public boolean permits(InetAddress client, Name key) {
        boolean addressOk =
                allow.isEmpty() || allow.stream().anyMatch(c -> c.contains(Cidr.hiOf(client), Cidr.loOf(client)));
        boolean keyOk = tsig.isEmpty() || (key != null && tsig.contains(key));
        return addressOk && keyOk;
    }

    /** The key NOTIFY is signed with: the first of {@code tsig}, or null (unsigned). */
    public Name notifyKey() {
        return tsig.isEmpty() ? null : tsig.getFirst();
    }
}
