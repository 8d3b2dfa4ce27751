package dev.gslb.probe.health;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * A DNS server answers (dnsjava): a query for {@code name}/{@code type} gets {@code expectRcode}
 * and, when {@code expectAnswer} is given, an answer record whose data is that text (an address,
 * a name...).
 */
public record DnsCheck(int port, Name name, int type, int expectRcode, String expectAnswer) implements Check {
    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        String what = "dns " + name + " " + Type.string(type);
        try {
            SimpleResolver r = new SimpleResolver(new InetSocketAddress(address, port));
            r.setTimeout(timeout);
            Message answer = r.send(Message.newQuery(Record.newRecord(name, type, org.xbill.DNS.DClass.IN)));
            int rcode = answer.getRcode();
            if (rcode != expectRcode) {
                return CheckResult.fail(what + ": " + Rcode.string(rcode) + ", expected " + Rcode.string(expectRcode));
            }
            if (expectAnswer == null) {
                return CheckResult.ok(what + ": " + Rcode.string(rcode));
            }
            for (Record rr : answer.getSection(Section.ANSWER)) {
                if (rr.rdataToString().equals(expectAnswer)) {
                    return CheckResult.ok(what + ": " + expectAnswer);
                }
            }
            return CheckResult.fail(what + ": no answer " + expectAnswer + " (got "
                    + answer.getSection(Section.ANSWER).stream()
                            .map(Record::rdataToString)
                            .toList() + ")");
        } catch (IOException e) {
            return CheckResult.fail(what + ": " + e.getMessage());
        }
    }
}
