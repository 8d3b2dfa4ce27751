package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.AuditEntry;
import dev.gslb.api.ErrorBody;
import dev.gslb.api.Explanation;
import dev.gslb.api.Json;
import dev.gslb.api.LdnsStats;
import dev.gslb.api.LdnsView;
import dev.gslb.api.LinkStatus;
import dev.gslb.api.PeerStatus;
import dev.gslb.api.PersistenceView;
import dev.gslb.api.Refusal;
import dev.gslb.api.RuntimeStatesView;
import dev.gslb.api.ServerStatus;
import dev.gslb.api.WideIpStats;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What the launchers run once to record the AOT cache (JEP 483): the steps of a command that
 * talks to a server (the configuration's admin keys, a connection, the answer read into the API's
 * records), against no server and changing nothing, so that the cache holds those classes loaded
 * and linked. With {@code --serve}, a server's start and first queries ({@link ServeTraining}).
 * Hidden: not an operator's command.
 */
@Command(name = "aot-training", hidden = true, description = "Record what a command loads; talks to no server.")
final class AotTraining implements Callable<Integer> {
    @Mixin
    AdminOption admin;

    @Option(
            names = "--serve",
            description = "Record what serve loads instead: the embedded configuration served on loopback ports"
                    + " of the system's choosing, from a temporary state folder, asked and stopped.")
    boolean serve;

    @Override
    public Integer call() throws Exception {
        if (serve) {
            new ServeTraining(Gslb.home()).run();
            return 0;
        }
        try {
            admin.client().get("/health/servers"); // the launchers give a closed port
        } catch (IOException expected) {
            // refused: what was to be loaded is loaded
        }
        for (Class<?> answer : List.of(
                WideIpStats.class,
                LdnsStats.class,
                ServerStatus.class,
                LinkStatus.class,
                PeerStatus.class,
                RuntimeStatesView.class,
                PersistenceView.class,
                LdnsView.class,
                Explanation.class,
                AuditEntry.class,
                ErrorBody.class,
                Refusal.class)) {
            try {
                Json.MAPPER.readValue("{}", answer);
            } catch (IOException | RuntimeException refused) {
                // a record that checks its fields refuses an empty one; its classes are loaded
            }
        }
        Json.MAPPER.readValue("[{}]", new TypeReference<List<ServerStatus>>() {});
        return 0;
    }
}
