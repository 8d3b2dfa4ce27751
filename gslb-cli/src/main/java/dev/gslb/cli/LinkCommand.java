package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.LinkStatus;
import dev.gslb.probe.link.Bandwidth;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "link", description = "ISP links: state, traffic, limits.", subcommands = LinkCommand.ListLinks.class)
final class LinkCommand {
    @Command(
            name = "list",
            description = "Every link: state, traffic in/out against its limits, source, last poll, who measured it,"
                    + " worst-case switch-over time.")
    static final class ListLinks implements Callable<Integer> {
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().get("/links"), json, new TypeReference<List<LinkStatus>>() {}, r -> {
                String row = "%-10s %-6s %-8s %-26s %-26s %-11s %-10s %-25s %s%n";
                System.out.printf(
                        row,
                        "LINK",
                        "DC",
                        "STATE",
                        "IN / LIMIT",
                        "OUT / LIMIT",
                        "SWITCH-OVER",
                        "BY",
                        "LAST POLL",
                        "SOURCE / REASON");
                for (LinkStatus l : r) {
                    System.out.printf(
                            row,
                            l.name(),
                            l.dataCenter(),
                            l.state() + (l.overLimit() ? "*" : ""),
                            rate(l.inBps()) + " / " + rate(l.limitInBps()),
                            rate(l.outBps()) + " / " + rate(l.limitOutBps()),
                            "<= " + l.switchOverSeconds() + " s",
                            l.measuredBy() == null ? "-" : l.measuredBy(),
                            l.lastPoll() == null ? "-" : l.lastPoll(),
                            l.source() + "; " + (l.overLimit() ? l.overLimitReason() : l.reason()));
                }
                if (r.stream().anyMatch(LinkStatus::overLimit)) {
                    System.out.println(
                            "* over its limit: its servers get no new answers until traffic is under resume");
                }
            });
        }

        private static String rate(Long bps) {
            return bps == null ? "-" : Bandwidth.format(bps);
        }
    }
}
