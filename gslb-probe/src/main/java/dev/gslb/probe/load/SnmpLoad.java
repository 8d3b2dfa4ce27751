package dev.gslb.probe.load;

import dev.gslb.probe.snmp.SnmpAgent;
import dev.gslb.probe.snmp.SnmpV3User;
import dev.gslb.settings.HostPort;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snmp4j.smi.AssignableFromInteger;
import org.snmp4j.smi.AssignableFromLong;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * A server's own SNMP agent (net-snmp's snmpd, a balancer's), v2c or v3 as a link's router:
 * HOST-RESOURCES {@code hrProcessorLoad} averaged over the processors (cpu), UCD-SNMP's memory
 * (memory: what is neither free nor buffers nor cache, of {@code memTotalReal}) and {@code laLoad.1}
 * (load-average), an interface's IF-MIB 64-bit counters, both directions (bytes: octets; packets:
 * unicast, multicast and broadcast), and any OID the operator names as a metric. One GET a read
 * (and a walk of the processors); {@code sysUpTime} going back, or the interface's index changing,
 * is a new epoch: the counters began again.
 */
public final class SnmpLoad implements LoadSource {
    static final OID HR_PROCESSOR_LOAD = new OID("1.3.6.1.2.1.25.3.3.1.2");
    static final OID MEM_TOTAL_REAL = new OID("1.3.6.1.4.1.2021.4.5.0");
    static final OID MEM_AVAIL_REAL = new OID("1.3.6.1.4.1.2021.4.6.0");
    static final OID MEM_BUFFER = new OID("1.3.6.1.4.1.2021.4.14.0");
    static final OID MEM_CACHED = new OID("1.3.6.1.4.1.2021.4.15.0");
    static final OID LA_LOAD_1 = new OID("1.3.6.1.4.1.2021.10.1.3.1");
    /** ifHCInOctets, ifHCOutOctets. */
    static final List<OID> OCTETS = List.of(new OID("1.3.6.1.2.1.31.1.1.1.6"), new OID("1.3.6.1.2.1.31.1.1.1.10"));
    /** ifHC{In,Out}{Ucast,Multicast,Broadcast}Pkts. */
    static final List<OID> PACKETS = List.of(
            new OID("1.3.6.1.2.1.31.1.1.1.7"),
            new OID("1.3.6.1.2.1.31.1.1.1.8"),
            new OID("1.3.6.1.2.1.31.1.1.1.9"),
            new OID("1.3.6.1.2.1.31.1.1.1.11"),
            new OID("1.3.6.1.2.1.31.1.1.1.12"),
            new OID("1.3.6.1.2.1.31.1.1.1.13"));

    private static final int MAX_PROCESSORS = 4096;
    private static final Set<Metric> HOST_METRICS = Set.of(Metric.CPU, Metric.MEMORY, Metric.LOAD_AVERAGE);

    static final Setting<HostPort> ADDRESS = Setting.of("address", HostPort.class, null, "the agent, host[:port]")
            .derived("required");
    static final Setting<Integer> PORT =
            Setting.integer("port", 0, 1, 65535, "the agent's port").shown("161");
    static final Setting<String> VERSION = Setting.of("version", String.class, null, "2c or 3")
            .derived("3 with user:, else 2c")
            .check("2c or 3", v -> {
                if (!v.equals("2c") && !v.equals("3")) {
                    throw new IllegalArgumentException("snmp version must be 2c or 3, not '" + v + "'");
                }
            });
    static final Setting<List<String>> METRICS =
            Setting.list("metrics", String.class, List.of(), "of cpu, memory, load-average");
    static final Setting<String> INTERFACE = Setting.of(
                    "interface", String.class, null, "an interface's name (ifName, ifDescr): bytes and packets")
            .shown("none");
    static final Setting<Map<String, String>> OIDS =
            Setting.mapping("oids", String.class, "a metric read at an OID: {connections: 1.3.6.1.4.1...}");

    /** What {@code snmp:} says. */
    public record Spec(
            HostPort address,
            int port,
            String version,
            String community,
            SnmpV3User user,
            List<String> metrics,
            String interfaceName,
            Map<String, String> oids) {
        public static final SettingsTable<Spec> SETTINGS = SettingsTable.of(
                Spec.class, ADDRESS, PORT, VERSION, SnmpAgent.COMMUNITY, SnmpAgent.USER, METRICS, INTERFACE, OIDS);
    }

    /** {@code snmp:} under a virtual server's {@code load:}. */
    public static final Setting<Spec> SETTING = Setting.of(
            "snmp", Spec.class, null, "the server's SNMP agent: cpu, memory, load-average, an interface, OIDs");

    private final SnmpAgent agent;
    private final String where;
    private final Set<Metric> host;
    private final String interfaceName;
    private final Map<Metric, OID> oids;
    private final Set<Metric> metrics;
    private int ifIndex; // 0: not looked up yet (again after a failure: a rebooted agent may renumber)

    /**
     * @param host          which of cpu, memory and load-average are read
     * @param interfaceName the interface whose bytes and packets are read, or null
     * @param oids          more metrics, each at its OID
     */
    public SnmpLoad(SnmpAgent agent, Set<Metric> host, String interfaceName, Map<Metric, OID> oids) {
        this.agent = agent;
        this.where = agent.where();
        this.host = Set.copyOf(host);
        this.interfaceName = interfaceName;
        this.oids = new EnumMap<>(Metric.class);
        this.oids.putAll(oids);
        Set<Metric> all = java.util.EnumSet.noneOf(Metric.class);
        all.addAll(host);
        if (interfaceName != null) {
            all.add(Metric.BYTES);
            all.add(Metric.PACKETS);
        }
        for (Metric m : oids.keySet()) {
            if (!all.add(m)) {
                throw new IllegalArgumentException("snmp: " + m.key() + " is read twice; give it once");
            }
        }
        if (!HOST_METRICS.containsAll(host)) {
            throw new IllegalArgumentException("snmp metrics are cpu, memory and load-average (others by oids:)");
        }
        if (all.isEmpty()) {
            throw new IllegalArgumentException("snmp needs 'metrics:', 'interface:' or 'oids:' (what to read)");
        }
        this.metrics = Set.copyOf(all);
    }

    public static SnmpLoad of(Spec spec) {
        if (spec.address() == null) {
            throw new IllegalArgumentException("snmp needs 'address:' (the server's agent, host[:port])");
        }
        if (spec.address().port() != HostPort.NO_PORT
                && spec.port() != 0
                && spec.address().port() != spec.port()) {
            throw new IllegalArgumentException("snmp: the address's port and 'port:' differ; give one");
        }
        InetSocketAddress address = spec.address().orPort(spec.port() != 0 ? spec.port() : 161);
        if ("3".equals(spec.version()) && spec.user() == null) {
            throw new IllegalArgumentException("snmp version 3 needs 'user:'");
        }
        if ("2c".equals(spec.version()) && spec.community() == null) {
            throw new IllegalArgumentException("snmp version 2c needs 'community:'");
        }
        Set<Metric> host = java.util.EnumSet.noneOf(Metric.class);
        for (String key : spec.metrics()) {
            if (!host.add(Metric.ofKey(key))) {
                throw new IllegalArgumentException("snmp metrics: " + key + " twice");
            }
        }
        Map<Metric, OID> oids = new LinkedHashMap<>();
        spec.oids().forEach((key, oid) -> {
            if (!oid.matches("\\.?\\d+(\\.\\d+){1,127}")) {
                throw new IllegalArgumentException("snmp oids: " + key + ": '" + oid + "' is not a numeric OID");
            }
            oids.put(Metric.ofKey(key), new OID(oid.startsWith(".") ? oid.substring(1) : oid));
        });
        return new SnmpLoad(
                new SnmpAgent(address, spec.community(), spec.user(), "snmp load"), host, spec.interfaceName(), oids);
    }

    @Override
    public Set<Metric> metrics() {
        return metrics;
    }

    @Override
    public synchronized LoadReading read(Duration timeout) throws IOException {
        if (interfaceName != null && ifIndex == 0) {
            ifIndex = agent.interfaceIndex(timeout, interfaceName);
        }
        List<OID> asked = new ArrayList<>();
        if (host.contains(Metric.MEMORY)) {
            asked.addAll(List.of(MEM_TOTAL_REAL, MEM_AVAIL_REAL, MEM_BUFFER, MEM_CACHED));
        }
        if (host.contains(Metric.LOAD_AVERAGE)) {
            asked.add(LA_LOAD_1);
        }
        if (interfaceName != null) {
            for (OID column : OCTETS) {
                asked.add(new OID(column).append(ifIndex));
            }
            for (OID column : PACKETS) {
                asked.add(new OID(column).append(ifIndex));
            }
        }
        asked.addAll(oids.values());
        SnmpAgent.Answer answer;
        try {
            answer = agent.get(timeout, asked);
        } catch (IOException e) {
            ifIndex = 0;
            throw e;
        }
        List<Variable> got = answer.values();
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        int at = 0;
        if (host.contains(Metric.MEMORY)) {
            double total = number(got.get(0), "memTotalReal");
            double free = number(got.get(1), "memAvailReal");
            // buffers and cache are memory the kernel gives back; an agent without them has none to give
            double buffers = got.get(2) instanceof Null ? 0 : number(got.get(2), "memBuffer");
            double cached = got.get(3) instanceof Null ? 0 : number(got.get(3), "memCached");
            if (total <= 0) {
                throw new IOException(where + ": memTotalReal is 0");
            }
            values.put(Metric.MEMORY, Math.clamp((total - free - buffers - cached) / total * 100, 0.0, 100.0));
            at += 4;
        }
        if (host.contains(Metric.LOAD_AVERAGE)) {
            values.put(Metric.LOAD_AVERAGE, number(got.get(at++), "laLoad.1"));
        }
        if (interfaceName != null) {
            values.put(Metric.BYTES, counters(got.subList(at, at + OCTETS.size()), "octet"));
            at += OCTETS.size();
            values.put(Metric.PACKETS, counters(got.subList(at, at + PACKETS.size()), "packet"));
            at += PACKETS.size();
        }
        for (Map.Entry<Metric, OID> e : oids.entrySet()) {
            values.put(e.getKey(), number(got.get(at++), e.getKey().key() + " at " + e.getValue()));
        }
        if (host.contains(Metric.CPU)) {
            values.put(Metric.CPU, cpu(timeout));
        }
        return new LoadReading(values, answer.epoch() << 32 | ifIndex);
    }

    /** hrProcessorLoad of every processor (percent over the last minute), averaged. */
    private double cpu(Duration timeout) throws IOException {
        List<VariableBinding> rows = agent.walk(timeout, HR_PROCESSOR_LOAD, MAX_PROCESSORS);
        if (rows.isEmpty()) {
            throw new IOException(where + " has no hrProcessorLoad rows (HOST-RESOURCES-MIB)");
        }
        double sum = 0;
        for (VariableBinding vb : rows) {
            double load = number(vb.getVariable(), "hrProcessorLoad");
            if (load > 100) {
                throw new IOException(where + ": hrProcessorLoad is " + load + ", over 100 %");
            }
            sum += load;
        }
        return sum / rows.size();
    }

    /** The sum of an interface's 64-bit counters (unsigned), or why they cannot be read. */
    private double counters(List<Variable> columns, String what) throws IOException {
        double sum = 0;
        for (Variable v : columns) {
            if (!(v instanceof Counter64 c)) {
                ifIndex = 0;
                throw new IOException(where + " has no 64-bit " + what + " counters for interface " + interfaceName
                        + " (" + v.getSyntaxString() + ")");
            }
            long n = c.getValue();
            sum += n >= 0 ? n : n + 0x1p64; // unsigned
        }
        return sum;
    }

    /** A number the agent gave (an integer, a counter, or text such as laLoad's "0.15"), never negative. */
    private double number(Variable v, String what) throws IOException {
        double n;
        if (v instanceof Null || v == null) {
            throw new IOException(
                    where + " has no " + what + " (" + (v == null ? "nothing" : v.getSyntaxString()) + ")");
        } else if (v instanceof Counter64 c) {
            n = c.getValue() >= 0 ? c.getValue() : c.getValue() + 0x1p64;
        } else if (v instanceof AssignableFromLong || v instanceof AssignableFromInteger) {
            n = v.toLong(); // Integer32, Counter32, Gauge32, TimeTicks
        } else if (v instanceof OctetString s) {
            String text = s.toString().strip();
            try {
                n = Double.parseDouble(text);
            } catch (NumberFormatException e) {
                throw new IOException(
                        where + ": " + what + " is '" + HaproxyStats.abbreviated(text) + "', not a number");
            }
        } else {
            throw new IOException(where + ": " + what + " is a " + v.getSyntaxString() + ", not a number");
        }
        if (!Double.isFinite(n) || n < 0) {
            throw new IOException(where + ": " + what + " is " + n + ", not a load");
        }
        return n;
    }

    @Override
    public String describe() {
        return "snmp " + where + " "
                + metrics.stream().map(Metric::key).sorted().collect(java.util.stream.Collectors.joining(" "));
    }

    @Override
    public void close() {
        agent.close();
    }
}
