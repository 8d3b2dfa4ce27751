package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.method.QualityOfService;
import dev.gslb.dns.wideip.CnameMembers;
import dev.gslb.dns.wideip.CnameTarget;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.load.LoadSpec;
import dev.gslb.probe.load.LoadTarget;
import dev.gslb.probe.load.Metric;
import dev.gslb.probe.load.ServerLimits;
import dev.gslb.settings.Bounds;
import dev.gslb.settings.HostPort;
import dev.gslb.settings.Section;
import dev.gslb.settings.SettingsException;
import dev.gslb.settings.SettingsOverlay;
import dev.gslb.site.DataCenter;
import dev.gslb.site.Dependencies;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/** The {@code virtual-servers:} and {@code pools:} sections: servers in data centers behind links, pools of them with their methods. */
final class ServerBinder extends Sections {
    /** One entry of {@code virtual-servers:} as written: its data center, link and monitors by name. */
    record VirtualServerEntry(
            String name,
            InetAddress address,
            String datacenter,
            String link,
            List<String> monitors,
            Integer ratio,
            Integer order,
            List<String> dependsOn,
            String translation,
            Integer score,
            LoadSpec load,
            ServerLimits limits) {
        static final Section<List<VirtualServerEntry>> SECTION =
                Section.list("virtual-servers", VirtualServerEntry.class);
    }

    /** One entry of {@code pools:} as written: its members and methods by name. */
    record PoolEntry(
            String name,
            String type,
            List<PoolMember> members,
            String preferred,
            String alternate,
            String fallback,
            Integer maxAnswers,
            Duration ttl,
            List<InetAddress> fallbackIp,
            SettingsOverlay<QualityOfService.Settings> qos,
            Integer minUpMembers,
            Pool.MinUpAction minUpAction) {
        static final Section<List<PoolEntry>> SECTION = Section.list("pools", PoolEntry.class);
    }

    /** A pool member as written: a name alone, or {@code {name: N, ratio: 2}} (a CNAME pool's names only). */
    record PoolMember(String name, Integer ratio) {
        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        PoolMember {}

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static PoolMember of(String name) {
            return new PoolMember(name, null);
        }
    }

    ServerBinder(Sections shared) {
        super(shared);
    }

    void virtualServers() throws SettingsException {
        List<VirtualServerEntry> given = section(VirtualServerEntry.SECTION);
        for (int i = 0; i < given.size(); i++) {
            virtualServer(given.get(i), i);
        }
        dependencies(given);
    }

    /** After every server is bound (a server may depend on one listed after it): names known, none itself, no cycle. */
    private void dependencies(List<VirtualServerEntry> given) throws SettingsException {
        for (int i = 0; i < given.size(); i++) {
            List<String> on = orEmpty(given.get(i).dependsOn());
            for (int k = 0; k < on.size(); k++) {
                if (on.get(k).equals(given.get(i).name())) {
                    throw file.error(
                            "virtual server " + on.get(k) + " depends on itself",
                            "virtual-servers",
                            i,
                            "depends-on",
                            k);
                }
                if (!virtualServers.containsKey(on.get(k))) {
                    throw file.error(
                            "virtual server " + given.get(i).name() + " depends on " + on.get(k)
                                    + ", which is not defined; defined: " + virtualServers.keySet(),
                            "virtual-servers",
                            i,
                            "depends-on",
                            k);
                }
            }
        }
        List<String> cycle = Dependencies.cycle(List.copyOf(virtualServers.values()));
        if (!cycle.isEmpty()) { // pointed at where the first server of the cycle names the second
            int i = List.copyOf(virtualServers.keySet()).indexOf(cycle.getFirst());
            throw file.error(
                    "virtual servers depend on each other in a cycle: " + String.join(" -> ", cycle),
                    "virtual-servers",
                    i,
                    "depends-on",
                    given.get(i).dependsOn().indexOf(cycle.get(1)));
        }
    }

    /** After {@link #virtualServers}: the pools name them. */
    void pools() throws SettingsException {
        List<PoolEntry> given = section(PoolEntry.SECTION);
        for (int i = 0; i < given.size(); i++) {
            pool(given.get(i), i);
        }
    }

    private void virtualServer(VirtualServerEntry v, int i) throws SettingsException {
        required(v.name(), "virtual server", "name", "virtual-servers", i);
        required(v.address(), "virtual server", "address", "virtual-servers", i);
        required(v.datacenter(), "virtual server", "datacenter", "virtual-servers", i);
        DataCenter dc = dataCenter(v.datacenter(), "virtual-servers", i, "datacenter");
        String link = linkOf(v, dc, i);
        VirtualServer vs;
        try {
            vs = new VirtualServer(
                    v.name(),
                    v.address(),
                    dc,
                    Bounds.within("ratio", requireNonNullElse(v.ratio(), 1), 0, 1_000_000),
                    Bounds.within("order", requireNonNullElse(v.order(), 0), 0, 1_000_000),
                    link,
                    virtualServers.size());
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "virtual-servers", i);
        }
        if (v.score() != null) {
            try {
                vs = vs.withScore(Bounds.within("score", v.score(), 0, 100));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "virtual-servers", i, "score");
            }
        }
        vs = vs.withDependsOn(orEmpty(v.dependsOn()));
        if (virtualServers.put(v.name(), vs) != null) {
            throw file.error("virtual server " + v.name() + " is defined twice", "virtual-servers", i);
        }
        load(v, i);
        healthTargets.add(new HealthTarget(vs, monitorsNamed(v.monitors(), "virtual-servers", i), translation(v, i)));
    }

    /** {@code translation: "ADDR:PORT"}, {@code "[ADDR]:PORT"} or an address alone: where monitors check it. */
    private HostPort translation(VirtualServerEntry v, int i) throws SettingsException {
        if (v.translation() == null) {
            return null;
        }
        HostPort t;
        try {
            t = HostPort.parse(v.translation());
        } catch (IllegalArgumentException e) {
            t = null;
        }
        if (t == null || t.port() == 0) {
            throw file.error(
                    "virtual server " + v.name() + ": translation '" + v.translation()
                            + "' is not an address, ADDR:PORT or [ADDR]:PORT with a port 1-65535"
                            + " (10.0.0.10, 10.0.0.10:8080, [fd00::10]:8080)",
                    "virtual-servers",
                    i,
                    "translation");
        }
        return t;
    }

    /** A server's {@code load:} and {@code limits:}: a limit needs a source that reads its metric. */
    private void load(VirtualServerEntry v, int i) throws SettingsException {
        if (v.load() == null && v.limits() == null) {
            return;
        }
        Metric unread = LoadTarget.unmeasured(v.load(), v.limits());
        if (unread != null) {
            throw file.error(
                    "virtual server " + v.name() + " has a limit on " + ServerLimits.key(unread)
                            + " but no source under 'load:' reads " + unread.key()
                            + (v.load() == null
                                    ? " (it has no 'load:')"
                                    : " (its sources read "
                                            + v.load().metrics().stream()
                                                    .map(Metric::key)
                                                    .toList() + ")"),
                    "virtual-servers",
                    i,
                    "limits",
                    ServerLimits.key(unread));
        }
        if (v.load() != null) {
            loadTargets.add(new LoadTarget(v.name(), v.datacenter(), v.load(), v.limits()));
        }
    }

    /** The link a server names, or else the only link of its data center, or null. */
    private String linkOf(VirtualServerEntry v, DataCenter dc, int i) throws SettingsException {
        if (v.link() == null) {
            List<LinkSpec> own = links.values().stream()
                    .filter(l -> l.dataCenter().equals(dc.name()))
                    .toList();
            return own.size() == 1 ? own.getFirst().name() : null;
        }
        LinkSpec l = links.get(v.link());
        if (l == null) {
            throw file.error(
                    "link " + v.link() + " is not defined under 'links:'; defined: " + links.keySet(),
                    "virtual-servers",
                    i,
                    "link");
        }
        if (!l.dataCenter().equals(dc.name())) {
            throw file.error(
                    "virtual server " + v.name() + " is in " + dc.name() + " but link " + l.name() + " is in "
                            + l.dataCenter(),
                    "virtual-servers",
                    i,
                    "link");
        }
        return l.name();
    }

    private void pool(PoolEntry p, int i) throws SettingsException {
        required(p.name(), "pool", "name", "pools", i);
        required(p.members(), "pool", "members", "pools", i);
        if (p.type() != null && !p.type().equals("address") && !p.type().equals("cname")) {
            throw file.error(
                    "pool type must be address (virtual servers, the default) or cname (names)", "pools", i, "type");
        }
        if ("cname".equals(p.type())) {
            cnamePool(p, i);
            return;
        }
        List<VirtualServer> members = new ArrayList<>();
        for (int m = 0; m < p.members().size(); m++) {
            PoolMember member = p.members().get(m);
            VirtualServer vs = virtualServers.get(member.name());
            if (vs == null) {
                throw file.error(
                        "pool " + p.name() + " names virtual server "
                                + member.name() + ", which is not defined; defined: "
                                + virtualServers.keySet(),
                        "pools",
                        i,
                        "members",
                        m);
            }
            if (member.ratio() != null) {
                throw file.error(
                        "a virtual server's ratio is set on the virtual server (ratio:), not in a pool",
                        "pools",
                        i,
                        "members",
                        m,
                        "ratio");
            }
            members.add(vs);
        }
        if (members.isEmpty()) {
            throw file.error("pool " + p.name() + " has no members", "pools", i);
        }
        List<String> given = Arrays.asList(p.preferred(), p.alternate(), p.fallback());
        MethodSettings own = MethodSettings.DEFAULTS;
        if (p.qos() != null) { // the pool's coefficients over the global ones
            try {
                own = MethodSettings.of(p.qos()
                        .over(section(GslbConfig.LoadBalancing.SECTION)
                                .methods()
                                .orDefault(QualityOfService.Settings.DEFAULTS)));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "pools", i, "qos");
            }
        }
        List<String> methods = new ArrayList<>();
        List<LoadBalancingMethod> trial = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            String method = requireNonNullElse(given.get(t), MethodRegistry.DEFAULT_CHAIN.get(t));
            try {
                trial.add(ConfigLoader.UNBOUND_METHODS.create(method, own));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "pools", i, Pool.TIER_NAMES.get(t));
            }
            methods.add(method);
        }
        List<InetAddress> fallback = orEmpty(p.fallbackIp());
        long ttl = p.ttl() == null ? -1 : p.ttl().toSeconds();
        int maxAnswers;
        int minUp;
        Pool.MinUpAction action = requireNonNullElse(p.minUpAction(), Pool.MinUpAction.NEXT_POOL);
        try { // the pool's own rules (the alternate tier reads no path metrics), checked where they live
            maxAnswers = Bounds.within("max-answers", requireNonNullElse(p.maxAnswers(), 1), 1, 16);
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "pools", i, "max-answers");
        }
        try {
            minUp = Bounds.within("min-up-members", requireNonNullElse(p.minUpMembers(), 0), 0, members.size());
        } catch (IllegalArgumentException e) {
            throw file.error(
                    "pool " + p.name() + " has " + members.size() + " members: " + e.getMessage(),
                    "pools",
                    i,
                    "min-up-members");
        }
        try {
            new Pool(p.name(), members, trial, maxAnswers, ttl, fallback, minUp, action);
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "pools", i);
        }
        if (pools.put(
                        p.name(),
                        new PoolSpec(p.name(), members, methods, maxAnswers, ttl, fallback, own, minUp, action, null))
                != null) {
            throw file.error("pool " + p.name() + " is defined twice", "pools", i);
        }
    }

    /**
     * A CNAME pool ({@code type: cname}): its members are names, answered as a CNAME; only the
     * methods that need no server state may choose ({@link CnameMembers#METHODS}), and keys about
     * addresses or members up (fallback-ip, max-answers, qos, min-up-*) have no meaning here.
     */
    private void cnamePool(PoolEntry p, int i) throws SettingsException {
        for (String key : List.of("fallback-ip", "max-answers", "qos", "min-up-members", "min-up-action")) {
            if (file.has("pools", i, key)) {
                throw file.error(
                        "pool " + p.name() + " is a CNAME pool: " + key + " is for a pool of virtual servers",
                        "pools",
                        i,
                        key);
            }
        }
        List<CnameTarget> targets = new ArrayList<>();
        for (int m = 0; m < p.members().size(); m++) {
            PoolMember member = p.members().get(m);
            try {
                targets.add(new CnameTarget(
                        Name.fromString(member.name(), Name.root),
                        Bounds.within("ratio", requireNonNullElse(member.ratio(), 1), 0, 1_000_000)));
            } catch (TextParseException | IllegalArgumentException | NullPointerException e) {
                throw file.error(
                        "pool " + p.name() + ": member " + member.name() + " is not a domain name: " + e.getMessage(),
                        "pools",
                        i,
                        "members",
                        m);
            }
        }
        List<String> given = Arrays.asList(p.preferred(), p.alternate(), p.fallback());
        List<String> methods = new ArrayList<>();
        List<LoadBalancingMethod> trial = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            String method = requireNonNullElse(given.get(t), CnameMembers.DEFAULT_CHAIN.get(t));
            try {
                CnameMembers.check(p.name(), method);
                trial.add(ConfigLoader.UNBOUND_METHODS.create(method));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "pools", i, Pool.TIER_NAMES.get(t));
            }
            methods.add(method);
        }
        long ttl = p.ttl() == null ? -1 : p.ttl().toSeconds();
        try {
            Pool.cname(p.name(), trial, ttl, new CnameMembers(targets));
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "pools", i);
        }
        PoolSpec spec = new PoolSpec(
                p.name(),
                List.of(),
                methods,
                1,
                ttl,
                List.of(),
                MethodSettings.DEFAULTS,
                0,
                Pool.MinUpAction.NEXT_POOL,
                targets);
        if (pools.put(p.name(), spec) != null) {
            throw file.error("pool " + p.name() + " is defined twice", "pools", i);
        }
    }
}
