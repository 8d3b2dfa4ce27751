package dev.gslb.dns.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.transfer.Notifier;
import dev.gslb.dns.transfer.Transfers;
import dev.gslb.dns.tsig.TsigKey;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.zone.TransferSettings;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.topology.Cidr;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.TSIG;

/**
 * The transfer path under arbitrary requests (the TSIG check, the ACL, AXFR and IXFR with any
 * authority section): nothing escapes, every message sent parses and fits a TCP message, and no
 * request gets more messages than the whole zone takes. Seeds: .../TransferFuzzTestInputs.
 */
class TransferFuzzTest {
    static final TsigKeys KEYS = new TsigKeys(List.of(new TsigKey(
            Name.fromConstantString("xfr."),
            TSIG.HMAC_SHA256,
            "a 32-byte secret for the tests!!".getBytes(StandardCharsets.US_ASCII))));
    private static final Transfers TRANSFERS = transfers();

    private static Transfers transfers() {
        try {
            Authority example = ExampleDeployment.authority();
            Transfers t = new Transfers(new Notifier());
            t.update(
                    new Authority(
                            List.of(ZoneFile.load(ExampleDeployment.ZONE, Name.fromString("example.com."))
                                    .withTransfer(new TransferSettings(
                                            List.of(Cidr.parse("127.0.0.0/8")), List.of(), List.of()))),
                            List.copyOf(example.wideIps().values())),
                    KEYS);
            return t;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anyRequestIsAnsweredWithMessagesThatParseOrNone(byte[] request) throws Exception {
        List<byte[]> sent = new ArrayList<>();
        TRANSFERS.answer(request, request.length, InetAddress.getLoopbackAddress(), sent::add);
        if (sent.size() > 4) { // the example zone fits one message; IXFR answers are never longer than AXFR's
            throw new AssertionError(sent.size() + " messages for one request");
        }
        for (byte[] m : sent) {
            if (m.length > 65535) {
                throw new AssertionError("a message of " + m.length + " bytes");
            }
            try {
                new Message(m);
            } catch (IOException e) {
                throw new AssertionError("a message that does not parse: " + e);
            }
        }
    }
}
