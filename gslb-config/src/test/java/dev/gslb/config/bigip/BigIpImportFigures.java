package dev.gslb.config.bigip;

import dev.gslb.config.ConfigLoader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Figures of {@code gslb import bigip} on a generated F5 configuration of about N lines (default
 * 50,000): 20 data centers with a link each, servers of four virtual servers, a pool per two
 * servers and a wide IP per pool, topology records by subnet. Prints the parse time, the whole
 * import's time, the time to check what it wrote, the bytes allocated and the heap the parsed file
 * holds; five runs, the first cold. Run by bench/bigip-import-bench.sh (with -Xmx128m).
 *   BigIpImportFigures [LINES] [WRITE-TO]
 */
public final class BigIpImportFigures {
    private BigIpImportFigures() {}

    public static void main(String[] args) throws Exception {
        int lines = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        String text = generate(lines);
        if (args.length > 1) {
            Files.writeString(Path.of(args[1]), text);
        }
        System.out.printf(
                "F5 configuration: %,d lines, %,d characters (%s)%n",
                text.lines().count(), text.length(), args.length > 1 ? args[1] : "in memory");
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        var memory = ManagementFactory.getMemoryMXBean();
        var options = new BigIpImport.Options(Map.of(), List.of(), Set.of());
        System.out.printf(
                "%-4s %10s %10s %10s %14s %14s %8s%n",
                "run", "parse ms", "import ms", "check ms", "allocated MB", "parsed tree MB", "report");
        for (int run = 1; run <= 5; run++) {
            System.gc();
            long before = memory.getHeapMemoryUsage().getUsed();
            long t0 = System.nanoTime();
            List<TmshNode> nodes = TmshParser.parse("big.conf", text);
            long parse = System.nanoTime() - t0;
            System.gc();
            long tree = memory.getHeapMemoryUsage().getUsed() - before;
            long allocated = threads.getCurrentThreadAllocatedBytes();
            t0 = System.nanoTime();
            BigIpImport.Result r = BigIpImport.read("big.conf", text, options);
            long imported = System.nanoTime() - t0;
            allocated = threads.getCurrentThreadAllocatedBytes() - allocated;
            Path dir = Files.createTempDirectory("bigip-figures");
            for (var f : r.madeFiles().entrySet()) {
                Files.createDirectories(dir.resolve(f.getKey()).getParent());
                Files.writeString(dir.resolve(f.getKey()), f.getValue());
            }
            Files.writeString(dir.resolve("bigip.topology"), r.topology());
            t0 = System.nanoTime();
            var cfg = ConfigLoader.parse("gslb.yaml", r.config(), dir);
            long check = System.nanoTime() - t0;
            System.out.printf(
                    "%-4d %10d %10d %10d %14.1f %14.1f %8s%n",
                    run,
                    parse / 1_000_000,
                    imported / 1_000_000,
                    check / 1_000_000,
                    allocated / 1e6,
                    tree / 1e6,
                    r.report().lines().size() + " lines");
            if (run == 5) {
                System.out.printf(
                        "imported: %d data centers, %d virtual servers, %d wide IPs; %d mapped, %d different,"
                                + " %d not supported%n",
                        cfg.dataCenters().size(),
                        cfg.health().size(),
                        cfg.wideIps().size(),
                        r.report().count(ImportReport.Status.MAPPED),
                        r.report().count(ImportReport.Status.DIFFERENT),
                        r.report().count(ImportReport.Status.UNSUPPORTED));
            }
            if (nodes.isEmpty()) {
                throw new AssertionError();
            }
        }
        System.out.printf("max heap: %d MB%n", Runtime.getRuntime().maxMemory() >> 20);
    }

    /** About {@code lines} lines of tmsh: each server (with its pool and wide IP every other one) adds about 60. */
    static String generate(int lines) {
        StringBuilder b = new StringBuilder("#TMSH-VERSION: 15.1.8\n");
        for (int d = 0; d < 20; d++) {
            b.append("gtm datacenter /Common/dc")
                    .append(d)
                    .append(" {\n    location \"site ")
                    .append(d)
                    .append("\"\n}\n");
            b.append("gtm link /Common/link")
                    .append(d)
                    .append(" {\n    datacenter /Common/dc")
                    .append(d)
                    .append("\n    monitor /Common/gateway_icmp\n    router-addresses {\n        127.1.")
                    .append(d)
                    .append(".1 { }\n    }\n}\n");
        }
        b.append("""
                gtm monitor http /Common/web {
                    defaults-from /Common/http
                    destination *:*
                    interval 30
                    recv "200 OK"
                    send "GET /health HTTP/1.1\\r\\nHost: www.example.com\\r\\n\\r\\n"
                    timeout 120
                }
                """);
        int s = 0;
        while (b.chars().filter(c -> c == '\n').count() < lines - 80 && s < 60_000) {
            int d = s % 20;
            b.append("gtm server /Common/srv")
                    .append(s)
                    .append(" {\n    addresses {\n        127.2.")
                    .append(s / 250)
                    .append('.')
                    .append(s % 250)
                    .append(" {\n            device-name srv")
                    .append(s)
                    .append("\n        }\n    }\n    datacenter /Common/dc")
                    .append(d)
                    .append("\n    product generic-host\n    virtual-servers {\n");
            for (int v = 0; v < 4; v++) {
                b.append("        /Common/vs")
                        .append(s)
                        .append('-')
                        .append(v)
                        .append(" {\n            destination 127.3.")
                        .append(s / 60)
                        .append('.')
                        .append((s % 60) * 4 + v)
                        .append(":80\n            monitor /Common/web\n")
                        .append("            depends-on none\n        }\n");
            }
            b.append("    }\n}\n");
            if (s % 2 == 1) {
                int p = s / 2;
                b.append("gtm pool a /Common/pool")
                        .append(p)
                        .append(" {\n    alternate-mode topology\n")
                        .append("    fallback-mode global-availability\n    load-balancing-mode round-trip-time\n")
                        .append("    members {\n");
                for (int k = 0; k < 2; k++) {
                    for (int v = 0; v < 4; v++) {
                        b.append("        /Common/srv")
                                .append(s - 1 + k)
                                .append(":/Common/vs")
                                .append(s - 1 + k)
                                .append('-')
                                .append(v)
                                .append(" {\n            member-order ")
                                .append(k * 4 + v)
                                .append("\n        }\n");
                    }
                }
                b.append("    }\n    ttl 30\n}\n");
                b.append("gtm wideip a /Common/w")
                        .append(p)
                        .append(".example.com {\n    pools {\n        /Common/pool")
                        .append(p)
                        .append(" {\n            order 0\n        }\n    }\n}\n");
                b.append("gtm topology ldns: subnet 198.18.")
                        .append(p % 256)
                        .append('.')
                        .append(0)
                        .append("/24 server: datacenter /Common/dc")
                        .append(d)
                        .append(" {\n    order ")
                        .append(p + 1)
                        .append("\n    score 100\n}\n");
            }
            s++;
        }
        return b.toString();
    }
}
