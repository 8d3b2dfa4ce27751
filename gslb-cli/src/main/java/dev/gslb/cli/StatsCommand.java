package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.LdnsStats;
import dev.gslb.api.WideIpStats;
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
        description = "How the answers split per wide IP (data centers, servers, pools, methods), and how many LDNS"
                + " were sent to each data center and are in each topology region: last minute, last hour, since"
                + " start.")
final class StatsCommand implements Callable<Integer> {
    @Option(names = "--wide-ip", paramLabel = "NAME", description = "Only this wide IP.")
    String wideIp;

    @Option(
            names = "--ldns",
            description = "Only the LDNS counts: how many LDNS were sent to each data center, and how many are in"
                    + " each topology region.")
    boolean ldns;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Mixin
    AdminOption admin;

    @Override
    public Integer call() throws Exception {
        if (ldns) {
            return printLdns();
        }
        String path = wideIp == null ? "/stats" : "/stats?wide-ip=" + URLEncoder.encode(wideIp, StandardCharsets.UTF_8);
        int exit = AdminReply.print(admin.client().get(path), json, new TypeReference<List<WideIpStats>>() {}, r -> {
            if (r.isEmpty()) {
                System.out.println("no wide-IP answers counted yet");
            }
            for (WideIpStats w : r) {
                System.out.println(w.name());
                print("last minute", w.lastMinute());
                print("last hour", w.lastHour());
                print("since start", w.sinceStart());
            }
        });
        if (exit != 0 || json || wideIp != null) {
            return exit;
        }
        return printLdns();
    }

    private int printLdns() throws Exception {
        return AdminReply.print(admin.client().get("/stats/ldns"), json, LdnsStats.class, v -> {
            System.out.println("LDNS");
            printLdns("last minute", v.lastMinute());
            printLdns("last hour", v.lastHour());
            printLdns("since start", v.sinceStart());
        });
    }

    private static void printLdns(String label, LdnsStats.Split s) {
        System.out.printf("  %-12s %8d LDNS      sent to: %s%n", label, s.ldns(), counts(s.dataCenters()));
        if (s.ldns() > 0) {
            System.out.printf("  %-12s %8s           in regions: %s%n", "", "", counts(s.regions()));
        }
    }

    private static String counts(List<LdnsStats.Count> counts) {
        return counts.isEmpty()
                ? "-"
                : counts.stream()
                        .map(c -> c.name() + " " + c.ldns() + " (" + formatPercent(c.percent()) + " %)")
                        .collect(Collectors.joining(", "));
    }

    private static void print(String label, WideIpStats.Window w) {
        System.out.printf("  %-12s %8d answers   data centers: %s%n", label, w.answers(), split(w.dataCenters()));
        if (w.answers() > 0) {
            System.out.printf(
                    "  %-12s %8s           servers: %s; pools: %s; methods: %s%n",
                    "", "", split(w.servers()), split(w.pools()), split(w.methods()));
        }
    }

    /** "CNC 62 %, TEL 38 %", as the source's statistics list. */
    private static String split(List<WideIpStats.Share> shares) {
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
