package dev.gslb.probe.link;

import dev.gslb.settings.HostPort;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.snmp4j.CommunityTarget;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModels;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;
import org.snmp4j.util.DefaultPDUFactory;
import org.snmp4j.util.TreeEvent;
import org.snmp4j.util.TreeUtils;

/**
 * A router's IF-MIB 64-bit octet counters ({@code ifHCInOctets}, {@code ifHCOutOctets}) over SNMP
 * v2c or v3 (USM), as 3DNS reads its routers; the interface is given by index or by name (looked up
 * in {@code ifName}, then {@code ifDescr}, again after every failure: a rebooted router may
 * renumber). {@code sysUpTime} going back is a restart: the counters began again from zero. The
 * interface faces the ISP (its in is the site's inbound), or the site (an ISP's router port toward
 * the customer: its out is the site's inbound).
 */
public final class SnmpCounters implements TrafficSource {
    static final OID IF_HC_IN_OCTETS = new OID("1.3.6.1.2.1.31.1.1.1.6");
    static final OID IF_HC_OUT_OCTETS = new OID("1.3.6.1.2.1.31.1.1.1.10");
    static final OID IF_NAME = new OID("1.3.6.1.2.1.31.1.1.1.1");
    static final OID IF_DESCR = new OID("1.3.6.1.2.1.2.2.1.2");
    static final OID SYS_UP_TIME = new OID("1.3.6.1.2.1.1.3.0");

    /** A v3 user: authentication sha or sha256; privacy aes or aes256, or none. */
    public record V3User(
            String name, String authProtocol, String authPassword, String privProtocol, String privPassword) {
        static final Setting<String> NAME = Setting.of("name", String.class, null, "the USM user");
        static final Setting<String> AUTH_PROTOCOL =
                Setting.of("auth-protocol", String.class, null, "sha or sha256").shown("sha");
        static final Setting<String> AUTH_PASSWORD = Setting.of(
                        "auth-password", String.class, null, "at least 8 characters (or auth-password-file:)")
                .asSecret();
        static final Setting<String> PRIV_PROTOCOL =
                Setting.of("priv-protocol", String.class, null, "aes or aes256").shown("aes");
        static final Setting<String> PRIV_PASSWORD = Setting.of(
                        "priv-password", String.class, null, "at least 8 characters (or priv-password-file:)")
                .asSecret();
        public static final SettingsTable<V3User> SETTINGS =
                SettingsTable.of(V3User.class, NAME, AUTH_PROTOCOL, AUTH_PASSWORD, PRIV_PROTOCOL, PRIV_PASSWORD);

        public V3User {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("an SNMP v3 user needs 'name:'");
            }
            if (authPassword != null && authPassword.length() < 8
                    || privPassword != null && privPassword.length() < 8) {
                throw new IllegalArgumentException("SNMP v3 passwords need at least 8 characters (RFC 3414)");
            }
            if (privPassword != null && authPassword == null) {
                throw new IllegalArgumentException("SNMP v3 privacy needs authentication too");
            }
        }
    }

    static final Setting<InetSocketAddress> ADDRESS = Setting.of(
                    "address", HostPort.class, null, "the router, host[:port]")
            .map(a -> a.orPort(161), null)
            .derived("required");
    static final Setting<String> COMMUNITY = Setting.of(
                    "community", String.class, null, "v2c community (or community-file:, ${env:GSLB_...})")
            .asSecret();
    static final Setting<V3User> USER =
            Setting.of("user", V3User.class, null, "v3 user: name, auth-protocol, auth-password, ...");
    static final Setting<String> NAME_KEY = Setting.of("if-name", String.class, null, "the interface's name");
    static final Setting<Integer> IF_INDEX =
            Setting.integer("if-index", 0, 1, Integer.MAX_VALUE, "or its index").shown("none");
    static final Setting<Boolean> FACING = Setting.of("facing", String.class, "isp", "isp, or site: in and out swap")
            .check("isp or site", f -> {
                if (!f.equals("isp") && !f.equals("site")) {
                    throw new IllegalArgumentException("facing must be isp or site, not '" + f + "'");
                }
            })
            .map("site"::equals, false);

    /** What {@code snmp:} says, before anything is opened or checked across keys. */
    public record Spec(
            InetSocketAddress address, String community, V3User user, String ifName, int ifIndex, boolean facingSite) {
        public static final SettingsTable<Spec> SETTINGS =
                SettingsTable.of(Spec.class, ADDRESS, COMMUNITY, USER, NAME_KEY, IF_INDEX, FACING);
    }

    /** {@code snmp:} under a link's {@code traffic:}: a mapping of the keys above. */
    public static final Setting<Spec> SETTING =
            Setting.of("snmp", Spec.class, null, "a router's interface counters over SNMP (keys below)");

    /** The counters {@code spec} names. */
    public static SnmpCounters of(Spec spec) {
        if (spec.address() == null) {
            throw new IllegalArgumentException("snmp traffic needs 'address:' (the router, host[:port])");
        }
        return new SnmpCounters(
                spec.address(), spec.community(), spec.user(), spec.ifName(), spec.ifIndex(), spec.facingSite());
    }

    private final InetSocketAddress address;
    private final String community;
    private final V3User user;
    private final String ifName;
    private final boolean facingSite;
    private Snmp snmp; // opened at the first read: checking a configuration opens no socket
    private volatile int ifIndex;
    private long lastUptime = -1;
    private long restarts;

    /**
     * @param community v2c community, or null when {@code user} is given
     * @param ifName    the interface's name, or null when {@code ifIndex} (from 1) is given
     * @param facingSite the interface faces the site, not the ISP: in and out are swapped
     */
    public SnmpCounters(
            InetSocketAddress address, String community, V3User user, String ifName, int ifIndex, boolean facingSite) {
        if ((community == null) == (user == null)) {
            throw new IllegalArgumentException("snmp traffic needs exactly one of 'community:' (v2c) or 'user:' (v3)");
        }
        if ((ifName == null) == (ifIndex <= 0)) {
            throw new IllegalArgumentException("snmp traffic needs exactly one of 'if-name:' or 'if-index:'");
        }
        this.address = address;
        this.community = community;
        this.user = user;
        this.ifName = ifName;
        this.ifIndex = ifIndex;
        this.facingSite = facingSite;
        if (user != null) { // checked now, used at the first read
            authProtocol(user.authProtocol());
            privProtocol(user.privProtocol());
        }
    }

    private Snmp session() throws IOException {
        if (snmp != null) {
            return snmp;
        }
        Snmp snmp = new Snmp(new DefaultUdpTransportMapping());
        if (user != null) { // this session's own USM, not the library's process-wide one
            USM usm = new USM(
                    // SHA-1 is what most routers still speak; the library's default set leaves it out
                    new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.maxCompatibility),
                    new OctetString(MPv3.createLocalEngineID()),
                    0);
            ((MPv3) snmp.getMessageProcessingModel(MPv3.ID))
                    .setSecurityModels(new SecurityModels().addSecurityModel(usm));
            usm.addUser(
                    new OctetString(user.name()),
                    new UsmUser(
                            new OctetString(user.name()),
                            user.authPassword() == null ? null : authProtocol(user.authProtocol()),
                            user.authPassword() == null ? null : new OctetString(user.authPassword()),
                            user.privPassword() == null ? null : privProtocol(user.privProtocol()),
                            user.privPassword() == null ? null : new OctetString(user.privPassword())));
        }
        snmp.listen();
        this.snmp = snmp;
        return snmp;
    }

    private static OID authProtocol(String name) {
        return switch (name == null ? "sha" : name.toLowerCase(java.util.Locale.ROOT)) {
            case "sha" -> AuthSHA.ID;
            case "sha256" -> AuthHMAC192SHA256.ID;
            default -> throw new IllegalArgumentException("SNMP v3 auth-protocol '" + name + "': use sha or sha256");
        };
    }

    private static OID privProtocol(String name) {
        return switch (name == null ? "aes" : name.toLowerCase(java.util.Locale.ROOT)) {
            case "aes", "aes128" -> PrivAES128.ID;
            case "aes256" -> PrivAES256.ID;
            default -> throw new IllegalArgumentException("SNMP v3 priv-protocol '" + name + "': use aes or aes256");
        };
    }

    private Target<UdpAddress> target(Duration timeout) {
        UdpAddress to = new UdpAddress(address.getAddress(), address.getPort());
        Target<UdpAddress> t;
        if (community != null) {
            CommunityTarget<UdpAddress> c = new CommunityTarget<>(to, new OctetString(community));
            c.setVersion(SnmpConstants.version2c);
            t = c;
        } else {
            UserTarget<UdpAddress> u = new UserTarget<>();
            u.setAddress(to);
            u.setVersion(SnmpConstants.version3);
            u.setSecurityName(new OctetString(user.name()));
            u.setSecurityLevel(
                    user.privPassword() != null
                            ? SecurityLevel.AUTH_PRIV
                            : user.authPassword() != null ? SecurityLevel.AUTH_NOPRIV : SecurityLevel.NOAUTH_NOPRIV);
            t = u;
        }
        t.setRetries(1);
        t.setTimeout(Math.max(100, timeout.toMillis() / 2));
        return t;
    }

    private PDU pdu(int type) {
        PDU p = user != null ? new ScopedPDU() : new PDU();
        p.setType(type);
        return p;
    }

    @Override
    public synchronized Counters read(Duration timeout) throws IOException {
        Target<UdpAddress> target = target(timeout);
        if (ifIndex <= 0) {
            ifIndex = lookUpIndex(target);
        }
        PDU get = pdu(PDU.GET);
        get.add(new VariableBinding(SYS_UP_TIME));
        get.add(new VariableBinding(new OID(IF_HC_IN_OCTETS).append(ifIndex)));
        get.add(new VariableBinding(new OID(IF_HC_OUT_OCTETS).append(ifIndex)));
        ResponseEvent<UdpAddress> ev = session().send(get, target);
        PDU r = ev.getResponse();
        if (r == null) {
            forgetIndex();
            throw new IOException("no SNMP answer from " + where()
                    + (ev.getError() == null ? " within " + timeout.toMillis() + " ms" : ": " + ev.getError()));
        }
        if (r.getErrorStatus() != PDU.noError) {
            forgetIndex();
            throw new IOException("SNMP error from " + where() + ": " + r.getErrorStatusText());
        }
        long uptime = r.get(0).getVariable().toLong();
        Variable in = r.get(1).getVariable();
        Variable out = r.get(2).getVariable();
        if (!(in instanceof Counter64) || !(out instanceof Counter64)) {
            forgetIndex();
            throw new IOException(where() + " has no 64-bit octet counters for interface " + ifIndex + " ("
                    + in.getSyntaxString() + ")");
        }
        if (uptime < lastUptime) {
            restarts++; // the agent restarted: its counters start again from zero
        }
        lastUptime = uptime;
        return facingSite
                ? new Counters(out.toLong(), in.toLong(), restarts)
                : new Counters(in.toLong(), out.toLong(), restarts);
    }

    /** A name is looked up again after a failure; a configured index is kept. */
    private void forgetIndex() {
        if (ifName != null) {
            ifIndex = 0;
        }
    }

    private int lookUpIndex(Target<UdpAddress> target) throws IOException {
        TreeUtils walk = new TreeUtils(session(), new DefaultPDUFactory(PDU.GETBULK));
        for (OID column : List.of(IF_NAME, IF_DESCR)) {
            List<TreeEvent> events = walk.getSubtree(target, column);
            for (TreeEvent e : events) {
                if (e.isError()) {
                    throw new IOException("walking the interfaces of " + where() + ": " + e.getErrorMessage());
                }
                VariableBinding[] vbs = e.getVariableBindings();
                if (vbs == null) {
                    continue;
                }
                for (VariableBinding vb : vbs) {
                    if (vb != null && ifName.equals(vb.getVariable().toString())) {
                        return vb.getOid().last();
                    }
                }
            }
        }
        throw new IOException(where() + " has no interface named " + ifName);
    }

    private String where() {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    @Override
    public String describe() {
        return "snmp " + where() + " " + (ifName != null ? "if-name " + ifName : "if-index " + ifIndex)
                + (facingSite ? " (facing the site)" : "");
    }

    @Override
    public synchronized void close() {
        try {
            if (snmp != null) {
                snmp.close();
            }
        } catch (IOException e) {
            // closing a UDP socket
        }
    }
}
