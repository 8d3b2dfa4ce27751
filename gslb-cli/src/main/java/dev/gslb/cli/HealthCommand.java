package dev.gslb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.cli.admin.AdminClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "health", description = "Virtual servers: state, last check, reason.")
final class HealthCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--admin", paramLabel = "URL", defaultValue = "http://127.0.0.1:8053")
    String admin;

    @Override
    public Integer call() throws Exception {
        return TopologyCommand.print(new AdminClient(admin).get("/health/servers"), json, r -> {
            System.out.printf("%-16s %-40s %-6s %-8s %-25s %s%n", "SERVER", "ADDRESS", "DC", "STATE", "LAST CHECK", "REASON");
            for (JsonNode s : r) {
                System.out.printf("%-16s %-40s %-6s %-8s %-25s %s%n", s.path("name").asText(), s.path("address").asText(),
                        s.path("dataCenter").asText(), s.path("state").asText(), s.path("lastCheck").asText("-"),
                        s.path("reason").asText());
            }
        });
    }
}
