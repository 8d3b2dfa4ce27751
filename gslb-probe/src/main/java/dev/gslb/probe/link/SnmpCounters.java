package dev.gslb.probe.link;

import dev.gslb.probe.snmp.SnmpAgent;
import dev.gslb.probe.snmp.SnmpV3User;
import dev.gslb.settings.HostPort;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.Variable;

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

    static final Setting<InetSocketAddress> ADDRESS = Setting.of(
                    "address", HostPort.class, null, "the router, host[:port]")
            .map(a -> a.orPort(161), null)
            .derived("required");
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
            InetSocketAddress address,
            String community,
            SnmpV3User user,
            String ifName,
            int ifIndex,
            boolean facingSite) {
        public static final SettingsTable<Spec> SETTINGS =
                SettingsTable.of(Spec.class, ADDRESS, SnmpAgent.COMMUNITY, SnmpAgent.USER, NAME_KEY, IF_INDEX, FACING);
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

    private final SnmpAgent agent;
    private final String ifName;
    private final boolean facingSite;
    private volatile int ifIndex;

    /**
     * @param community v2c community, or null when {@code user} is given
     * @param ifName    the interface's name, or null when {@code ifIndex} (from 1) is given
     * @param facingSite the interface faces the site, not the ISP: in and out are swapped
     */
    public SnmpCounters(
            InetSocketAddress address,
            String community,
            SnmpV3User user,
            String ifName,
            int ifIndex,
            boolean facingSite) {
        this.agent = new SnmpAgent(address, community, user, "snmp traffic");
        if ((ifName == null) == (ifIndex <= 0)) {
            throw new IllegalArgumentException("snmp traffic needs exactly one of 'if-name:' or 'if-index:'");
        }
        this.ifName = ifName;
        this.ifIndex = ifIndex;
        this.facingSite = facingSite;
    }

    @Override
    public synchronized Counters read(Duration timeout) throws IOException {
        if (ifIndex <= 0) {
            ifIndex = agent.interfaceIndex(timeout, ifName);
        }
        SnmpAgent.Answer a;
        try {
            a = agent.get(
                    timeout,
                    List.of(new OID(IF_HC_IN_OCTETS).append(ifIndex), new OID(IF_HC_OUT_OCTETS).append(ifIndex)));
        } catch (IOException e) {
            forgetIndex();
            throw e;
        }
        Variable in = a.values().get(0);
        Variable out = a.values().get(1);
        if (!(in instanceof Counter64) || !(out instanceof Counter64)) {
            forgetIndex();
            throw new IOException(agent.where() + " has no 64-bit octet counters for interface " + ifIndex + " ("
                    + in.getSyntaxString() + ")");
        }
        return facingSite
                ? new Counters(out.toLong(), in.toLong(), a.epoch())
                : new Counters(in.toLong(), out.toLong(), a.epoch());
    }

    /** A name is looked up again after a failure; a configured index is kept. */
    private void forgetIndex() {
        if (ifName != null) {
            ifIndex = 0;
        }
    }

    @Override
    public String describe() {
        return "snmp " + agent.where() + " " + (ifName != null ? "if-name " + ifName : "if-index " + ifIndex)
                + (facingSite ? " (facing the site)" : "");
    }

    @Override
    public void close() {
        agent.close();
    }
}
