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
        description = "Virtual servers: state, last check, worst-case switch-over time after a failure, reason.")
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
                            "%-16s %-40s %-6s %-8s %-25s %-11s %s%n",
                            "SERVER", "ADDRESS", "DC", "STATE", "LAST CHECK", "SWITCH-OVER", "REASON");
                    for (var s : r) {
                        System.out.printf(
                                "%-16s %-40s %-6s %-8s %-25s %-11s %s%n",
                                s.name(),
                                s.checked() == null ? s.address() : s.address() + " checked at " + s.checked(),
                                s.dataCenter(),
                                s.state(),
                                s.lastCheck() == null ? "-" : s.lastCheck(),
                                s.switchOverSeconds() == null ? "-" : "<= " + s.switchOverSeconds() + " s",
                                s.runtime() == null ? reason(s) : s.runtime() + "; " + reason(s));
                    }
                });
    }

    /** A server waiting for resume says so, and whether resuming brings it up at once. */
    static String reason(ServerStatus s) {
        if (!s.waitingForResume()) {
            return s.reason();
        }
        return "waiting for resume since " + s.waitingSince()
                + (s.passedAgainAt() != null
                        ? ", its monitors passed again at " + s.passedAgainAt()
                        : ", still failing: " + s.reason())
                + " (gslb resume vs " + s.name() + ")";
    }
}
