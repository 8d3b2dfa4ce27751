package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.ServerStatus;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "health",
        description = "Virtual servers: state, last check, worst-case switch-over time after a failure, load, reason.")
final class HealthCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Mixin
    AdminOption admin;

    @Override
    public Integer call() throws Exception {
        return AdminReply.print(
                admin.client().get("/health/servers"), json, new TypeReference<List<ServerStatus>>() {}, r -> {
                    System.out.printf(
                            "%-16s %-40s %-6s %-8s %-25s %-11s %-28s %s%n",
                            "SERVER", "ADDRESS", "DC", "STATE", "LAST CHECK", "SWITCH-OVER", "LOAD", "REASON");
                    for (var s : r) {
                        System.out.printf(
                                "%-16s %-40s %-6s %-8s %-25s %-11s %-28s %s%n",
                                s.name(),
                                s.checked() == null ? s.address() : s.address() + " checked at " + s.checked(),
                                s.dataCenter(),
                                s.state(),
                                s.lastCheck() == null ? "-" : s.lastCheck(),
                                s.switchOverSeconds() == null ? "-" : "<= " + s.switchOverSeconds() + " s",
                                load(s.load()),
                                s.runtime() == null ? reason(s) : s.runtime() + "; " + reason(s));
                    }
                });
    }

    /**
     * Its known metrics, short ("5200 conn, cpu 40%, 812000 kbit/s"), "-" when nothing is known;
     * over a limit, that comes first ("OVER: ...").
     */
    static String load(ServerStatus.Load l) {
        if (l == null) {
            return "-";
        }
        List<String> parts = new java.util.ArrayList<>();
        if (l.connections() != null) {
            parts.add(l.connections() + " conn");
        }
        if (l.cpuPercent() != null) {
            parts.add("cpu " + Math.round(l.cpuPercent()) + "%");
        }
        if (l.memoryPercent() != null) {
            parts.add("mem " + Math.round(l.memoryPercent()) + "%");
        }
        if (l.loadAverage() != null) {
            parts.add(String.format(java.util.Locale.ROOT, "load %.2f", l.loadAverage()));
        }
        if (l.kbps() != null) {
            parts.add(l.kbps() + " kbit/s");
        }
        if (l.packetsPerSecond() != null) {
            parts.add(l.packetsPerSecond() + " pkt/s");
        }
        if (l.serversUp() != null) {
            parts.add(l.serversUp() + " up");
        }
        String known = parts.isEmpty() ? "unknown" : String.join(", ", parts);
        return l.overLimit() == null ? known : "OVER: " + known;
    }

    /** A server waiting for resume says so, and whether resuming brings it up at once. */
    static String reason(ServerStatus s) {
        if (!s.waitingForResume()) {
            return s.load() != null && s.load().overLimit() != null
                    ? s.reason() + "; " + s.load().overLimit()
                    : s.reason();
        }
        return "waiting for resume since " + s.waitingSince()
                + (s.passedAgainAt() != null
                        ? ", its monitors passed again at " + s.passedAgainAt()
                        : ", still failing: " + s.reason())
                + " (gslb resume vs " + s.name() + ")";
    }
}
