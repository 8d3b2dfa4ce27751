package dev.gslb.dns.bench;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.zone.TransferSettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.topology.Cidr;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;

/**
 * Transfers out of a zone of 1,000,000 records (999,997 A records, SOA, NS, glue), taken by kdig
 * over loopback: the AXFR's time and bytes, and the server's heap at its peak during it above
 * the heap after a GC with the zone loaded; then the IXFR of one changed record (its bytes).
 *
 * <pre>bash bench/run-test-main.sh gslb-dns -Xmx3g -- dev.gslb.dns.bench.TransferFigures</pre>
 */
public final class TransferFigures {
    private static final Name ZONE = Name.fromConstantString("big.example.");

    private TransferFigures() {}

    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : ZoneFile.MAX_RECORDS;
        Authority first = authority(size, 1, "198.18.0.1");
        ExampleDeployment d = new ExampleDeployment(ExampleDeployment.listener(1), AnswerSettings.DEFAULTS, first);
        d.transfers.update(first, TsigKeys.NONE);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        int port = d.address().getPort();
        for (int run = 1; run <= 3; run++) {
            System.gc();
            long baseline = memory.getHeapMemoryUsage().getUsed();
            AtomicLong peak = new AtomicLong(baseline);
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            long start = System.nanoTime();
            String stat = kdig(port, "AXFR");
            double seconds = (System.nanoTime() - start) / 1e9;
            sampler.interrupt();
            sampler.join();
            System.out.printf(
                    "AXFR of %,d records: %.2f s, %s; heap at its peak %,d MB above the %,d MB after a GC%n",
                    size, seconds, stat, (peak.get() - baseline) >> 20, baseline >> 20);
        }
        Authority second = authority(size, 2, "198.18.0.2");
        d.responder.replace(second);
        d.transfers.update(second, TsigKeys.NONE);
        System.out.printf("IXFR of one changed record (serial 1 to 2): %s%n", kdig(port, "IXFR=1"));
        d.close();
    }

    /** kdig's transfer statistics line ("Received N B (M messages, R records)"). */
    private static String kdig(int port, String type) throws Exception {
        Process p = new ProcessBuilder(
                        "kdig", "@127.0.0.1", "-p", String.valueOf(port), "+noall", "+stat", ZONE.toString(), type)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("kdig failed: " + out);
        }
        return out.lines()
                .filter(l -> l.contains("Received"))
                .findFirst()
                .orElse(out)
                .replace(";; ", "")
                .strip();
    }

    /** The zone of {@code size} records at {@code serial}, host-0's address {@code first}. */
    private static Authority authority(int size, long serial, String first) throws Exception {
        Name ns = Name.fromConstantString("ns1.big.example.");
        List<Record> records = new ArrayList<>(size);
        records.add(new SOARecord(
                ZONE,
                DClass.IN,
                3600,
                ns,
                Name.fromConstantString("hostmaster.big.example."),
                serial,
                3600,
                600,
                604800,
                300));
        records.add(new NSRecord(ZONE, DClass.IN, 3600, ns));
        records.add(new ARecord(ns, DClass.IN, 3600, InetAddress.ofLiteral("198.18.0.53")));
        for (int i = 0; records.size() < size; i++) {
            byte[] a = {(byte) 198, (byte) (18 + (i >> 16 & 1)), (byte) (i >> 8), (byte) i};
            InetAddress address = i == 0 ? InetAddress.ofLiteral(first) : InetAddress.getByAddress(a);
            records.add(new ARecord(new Name("host-" + i, ZONE), DClass.IN, 300, address));
        }
        Zone zone = ZoneFile.of("generated", ZONE, records)
                .withTransfer(new TransferSettings(List.of(Cidr.parse("127.0.0.0/8")), List.of(), List.of()));
        return new Authority(List.of(zone), List.of());
    }
}
