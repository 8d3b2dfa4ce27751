package dev.gslb.probe.snmp;

import dev.gslb.settings.Setting;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
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
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModels;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
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
 * One SNMP agent (a router's, a server's) asked over v2c or v3 (USM, this agent's own user table,
 * not the library's process-wide one). Every GET also asks {@code sysUpTime}: when it goes back the
 * agent restarted and its counters began again from zero, which {@link Answer#epoch} tells. The
 * socket is opened at the first request: checking a configuration opens nothing.
 */
public final class SnmpAgent implements AutoCloseable {
    static final OID SYS_UP_TIME = new OID("1.3.6.1.2.1.1.3.0");
    static final OID IF_NAME = new OID("1.3.6.1.2.1.31.1.1.1.1");
    static final OID IF_DESCR = new OID("1.3.6.1.2.1.2.2.1.2");

    /** {@code community:} (v2c), a secret. */
    public static final Setting<String> COMMUNITY = Setting.of(
                    "community", String.class, null, "v2c community (or community-file:, ${env:GSLB_...})")
            .asSecret();
    /** {@code user:} (v3). */
    public static final Setting<SnmpV3User> USER =
            Setting.of("user", SnmpV3User.class, null, "v3 user: name, auth-protocol, auth-password, ...");

    /** The values asked for, in order, and the agent's restart count as this agent has seen it. */
    public record Answer(List<Variable> values, long epoch) {}

    private final InetSocketAddress address;
    private final String community;
    private final SnmpV3User user;
    private Snmp snmp;
    private long lastUptime = -1;
    private long restarts;

    /**
     * @param community the v2c community, or null when {@code user} (v3) is given
     * @param what      what is read, as the error names it ({@code snmp traffic})
     */
    public SnmpAgent(InetSocketAddress address, String community, SnmpV3User user, String what) {
        if ((community == null) == (user == null)) {
            throw new IllegalArgumentException(what + " needs exactly one of 'community:' (v2c) or 'user:' (v3)");
        }
        this.address = address;
        this.community = community;
        this.user = user;
    }

    private synchronized Snmp session() throws IOException {
        if (snmp != null) {
            return snmp;
        }
        Snmp s = new Snmp(new DefaultUdpTransportMapping());
        if (user != null) {
            USM usm = new USM(
                    // SHA-1 is what most agents still speak; the library's default set leaves it out
                    new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.maxCompatibility),
                    new OctetString(MPv3.createLocalEngineID()),
                    0);
            ((MPv3) s.getMessageProcessingModel(MPv3.ID)).setSecurityModels(new SecurityModels().addSecurityModel(usm));
            boolean auth = user.authPassword() != null;
            boolean priv = user.privPassword() != null;
            usm.addUser(
                    new OctetString(user.name()),
                    new UsmUser(
                            new OctetString(user.name()),
                            auth ? user.authOid() : null,
                            auth ? new OctetString(user.authPassword()) : null,
                            priv ? user.privOid() : null,
                            priv ? new OctetString(user.privPassword()) : null));
        }
        s.listen();
        snmp = s;
        return s;
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

    /** {@code sysUpTime} and {@code oids} in one GET; the values of {@code oids}, in order. */
    public synchronized Answer get(Duration timeout, List<OID> oids) throws IOException {
        PDU get = user != null ? new ScopedPDU() : new PDU();
        get.setType(PDU.GET);
        get.add(new VariableBinding(SYS_UP_TIME));
        for (OID oid : oids) {
            get.add(new VariableBinding(oid));
        }
        ResponseEvent<UdpAddress> ev = session().send(get, target(timeout));
        PDU r = ev.getResponse();
        if (r == null) {
            throw new IOException("no SNMP answer from " + where()
                    + (ev.getError() == null ? " within " + timeout.toMillis() + " ms" : ": " + ev.getError()));
        }
        if (r.getErrorStatus() != PDU.noError) {
            throw new IOException("SNMP error from " + where() + ": " + r.getErrorStatusText());
        }
        if (r.size() != oids.size() + 1) {
            throw new IOException(where() + " answered " + r.size() + " values for " + (oids.size() + 1) + " asked");
        }
        long uptime = r.get(0).getVariable().toLong();
        if (uptime < lastUptime) {
            restarts++; // the agent restarted: its counters start again from zero
        }
        lastUptime = uptime;
        List<Variable> values = new ArrayList<>(oids.size());
        for (int i = 1; i < r.size(); i++) {
            values.add(r.get(i).getVariable());
        }
        return new Answer(values, restarts);
    }

    /** The rows of the table column {@code column} (a walk), at most {@code limit} of them. */
    public synchronized List<VariableBinding> walk(Duration timeout, OID column, int limit) throws IOException {
        TreeUtils walk = new TreeUtils(session(), new DefaultPDUFactory(PDU.GETBULK));
        walk.setMaxRepetitions(Math.min(limit, 50));
        List<VariableBinding> rows = new ArrayList<>();
        for (TreeEvent e : walk.getSubtree(target(timeout), column)) {
            if (e.isError()) {
                throw new IOException("walking " + column + " of " + where() + ": " + e.getErrorMessage());
            }
            VariableBinding[] vbs = e.getVariableBindings();
            for (VariableBinding vb : vbs == null ? new VariableBinding[0] : vbs) {
                if (vb != null) {
                    if (rows.size() == limit) {
                        throw new IOException(where() + " has more than " + limit + " rows under " + column);
                    }
                    rows.add(vb);
                }
            }
        }
        return rows;
    }

    /** The index of the interface named {@code name} in {@code ifName}, else in {@code ifDescr}. */
    public int interfaceIndex(Duration timeout, String name) throws IOException {
        for (OID column : List.of(IF_NAME, IF_DESCR)) {
            for (VariableBinding vb : walk(timeout, column, 100_000)) {
                if (name.equals(vb.getVariable().toString())) {
                    return vb.getOid().last();
                }
            }
        }
        throw new IOException(where() + " has no interface named " + name);
    }

    /** {@code 198.18.2.1:161}, as messages name the agent. */
    public String where() {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
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
