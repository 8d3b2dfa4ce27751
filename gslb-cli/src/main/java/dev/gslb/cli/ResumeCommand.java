package dev.gslb.cli;

import dev.gslb.api.ServerStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "resume",
        description = "Resume what a manual-resume monitor took down"
                + " (docs/operator-guide.md \"Bring a server back after a failure\").",
        subcommands = ResumeCommand.VirtualServer.class)
final class ResumeCommand {
    @Command(
            name = "vs",
            description = "Resume a virtual server waiting for resume: up at once when its monitors pass again,"
                    + " else as soon as they do.")
    static final class VirtualServer implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "The virtual server, as `gslb health` names it.")
        String name;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            String path = "/vs/resume?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8);
            return AdminReply.print(admin.client().post(path, ""), json, ServerStatus.class, s -> {
                String state = s.state().name().toLowerCase(Locale.ROOT);
                System.out.println(
                        s.state() == ServerStatus.State.UP
                                ? "resumed " + s.name() + ": up"
                                : "resumed " + s.name() + ": " + state + " until its monitors pass (" + s.reason()
                                        + ")");
            });
        }
    }
}
