package dev.gslb.server.admin;

import dev.gslb.api.Explanation;
import dev.gslb.api.LdnsStats;
import dev.gslb.api.ServerStatus;
import dev.gslb.api.WideIpStats;
import dev.gslb.dns.wideip.AnswerStatistics;
import dev.gslb.dns.wideip.LdnsSeen;
import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.health.ManualResume;
import dev.gslb.site.ServerLoad;
import java.util.List;

/**
 * The modules' own values as the admin API's records (gslb-api), which the command reads: the
 * same fields in the same order, so the JSON is what the modules' records would write.
 */
public final class Replies {
    private Replies() {}

    public static ServerStatus server(HealthMonitor.Status s, String runtime, ServerLoad load) {
        ManualResume.Waiting w = s.waiting();
        return new ServerStatus(
                s.name(),
                s.address(),
                s.checked(),
                s.dataCenter(),
                state(s.state()),
                s.lastCheck(),
                s.reason(),
                s.monitors().stream()
                        .map(m -> new ServerStatus.Monitor(
                                m.monitor(), state(m.state()), m.successes(), m.failures(), m.lastCheck(), m.reason()))
                        .toList(),
                s.switchOverSeconds(),
                w != null,
                w == null ? null : w.since().toString(),
                w == null || w.passedAgain() == null ? null : w.passedAgain().toString(),
                runtime,
                load(load));
    }

    /** A measured load with its unknown metrics as null, or null when nothing measured it. */
    static ServerStatus.Load load(ServerLoad l) {
        if (l == null || l.measuredAt() == 0) {
            return null;
        }
        return new ServerStatus.Load(
                l.connections() < 0 ? null : l.connections(),
                l.cpuPercent() < 0 ? null : l.cpuPercent(),
                l.memoryPercent() < 0 ? null : l.memoryPercent(),
                l.loadAverage() < 0 ? null : l.loadAverage(),
                l.bytesPerSecond() < 0 ? null : l.bytesPerSecond() * 8 / 1000,
                l.packetsPerSecond() < 0 ? null : l.packetsPerSecond(),
                l.serversUp() < 0 ? null : l.serversUp(),
                l.overLimitReason(),
                java.time.Instant.ofEpochMilli(l.measuredAt()).toString(),
                l.measuredBy());
    }

    private static ServerStatus.State state(dev.gslb.site.HealthState s) {
        return s == null ? null : ServerStatus.State.valueOf(s.name());
    }

    public static Explanation explanation(dev.gslb.dns.wideip.Explanation x) {
        var by = x.decidedBy();
        return new Explanation(
                x.name(),
                x.type(),
                x.ldns(),
                x.ecs(),
                x.steps().stream()
                        .map(s -> new Explanation.Step(s.topic(), s.detail()))
                        .toList(),
                by == null
                        ? null
                        : new Explanation.DecidedBy(
                                by.pool(),
                                by.tier(),
                                by.method(),
                                by.outcome() == null
                                        ? null
                                        : Explanation.Outcome.valueOf(
                                                by.outcome().name())),
                x.failure(),
                x.answers().stream()
                        .map(a -> new Explanation.Answer(a.server(), a.address(), a.dataCenter()))
                        .toList(),
                x.ttl(),
                x.ecsScope());
    }

    public static List<WideIpStats> wideIps(List<AnswerStatistics.WideIpView> all) {
        return all.stream()
                .map(w ->
                        new WideIpStats(w.name(), window(w.lastMinute()), window(w.lastHour()), window(w.sinceStart())))
                .toList();
    }

    private static WideIpStats.Window window(AnswerStatistics.Window w) {
        return w == null
                ? null
                : new WideIpStats.Window(
                        w.answers(),
                        shares(w.dataCenters()),
                        shares(w.servers()),
                        shares(w.pools()),
                        shares(w.methods()));
    }

    private static List<WideIpStats.Share> shares(List<AnswerStatistics.Share> all) {
        return all.stream()
                .map(s -> new WideIpStats.Share(s.name(), s.answers(), s.percent()))
                .toList();
    }

    public static LdnsStats ldns(AnswerStatistics.LdnsView v) {
        return new LdnsStats(split(v.lastMinute()), split(v.lastHour()), split(v.sinceStart()));
    }

    private static LdnsStats.Split split(LdnsSeen.Split s) {
        return s == null ? null : new LdnsStats.Split(s.ldns(), counts(s.dataCenters()), counts(s.regions()));
    }

    private static List<LdnsStats.Count> counts(List<LdnsSeen.Count> all) {
        return all.stream()
                .map(c -> new LdnsStats.Count(c.name(), c.ldns(), c.percent()))
                .toList();
    }
}
