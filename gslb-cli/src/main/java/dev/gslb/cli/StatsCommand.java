package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.dns.wideip.AnswerStatistics;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "stats",
        description = "How the answers split per wide IP (data centers, servers, pools, methods):"
                + " last minute, last hour, since start.")
final class StatsCommand implements Callable<Integer> {
    @Option(names = "--wide-ip", paramLabel = "NAME", description = "Only this wide IP.")
    String wideIp;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Mixin
    AdminOption admin;

    @Override
    public Integer call() throws Exception {
        String path = wideIp == null ? "/stats" : "/stats?wide-ip=" + URLEncoder.encode(wideIp, StandardCharsets.UTF_8);
        return AdminReply.print(
                admin.client().get(path), json, new TypeReference<List<AnswerStatistics.WideIpView>>() {}, r -> {
                    if (r.isEmpty()) {
                        System.out.println("no wide-IP answers counted yet");
                    }
                    for (AnswerStatistics.WideIpView w : r) {
                        System.out.println(w.name());
                        print("last minute", w.lastMinute());
                        print("last hour", w.lastHour());
                        print("since start", w.sinceStart());
                    }
                });
    }

    private static void print(String label, AnswerStatistics.Window w) {
        System.out.printf("  %-12s %8d answers   data centers: %s%n", label, w.answers(), split(w.dataCenters()));
        if (w.answers() > 0) {
            System.out.printf(
                    "  %-12s %8s           servers: %s; pools: %s; methods: %s%n",
                    "", "", split(w.servers()), split(w.pools()), split(w.methods()));
        }
    }

    /** "CNC 62 %, TEL 38 %", as the source's statistics list. */
    private static String split(List<AnswerStatistics.Share> shares) {
        return shares.isEmpty()
                ? "-"
                : shares.stream()
                        .map(s -> s.name() + " " + formatPercent(s.percent()) + " %")
                        .collect(Collectors.joining(", "));
    }

    private static String formatPercent(double p) {
        return p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p);
    }
}
