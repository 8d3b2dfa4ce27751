package dev.gslb.probe.health;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
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
    static final Setting<Integer> PORT = Setting.integer("port", 53, 1, 65535, "the port asked");
    static final Setting<Name> QUERY_NAME = Setting.of("query-name", String.class, null, "the name asked for")
            .map(DnsCheck::parseName, null)
            .derived("required");
    static final Setting<Integer> QUERY_TYPE =
            Setting.of("query-type", String.class, "A", "the type asked for").map(DnsCheck::parseType, Type.A);
    static final Setting<Integer> EXPECT_RCODE = Setting.of(
                    "expect-rcode", String.class, "NOERROR", "the rcode the answer must have")
            .map(DnsCheck::parseRcode, Rcode.NOERROR);
    static final Setting<String> EXPECT_ANSWER =
            Setting.of("expect-answer", String.class, null, "the data an answer record must have");

    /** The keys of a {@code dns} monitor. */
    public static final SettingsTable<DnsCheck> SETTINGS =
            SettingsTable.of(DnsCheck.class, PORT, QUERY_NAME, QUERY_TYPE, EXPECT_RCODE, EXPECT_ANSWER);

    public DnsCheck {
        if (name == null) {
            throw new IllegalArgumentException("a dns monitor needs 'query-name:'");
        }
    }

    private static Name parseName(String text) {
        try {
            return Name.fromString(text, Name.root);
        } catch (org.xbill.DNS.TextParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a domain name: " + e.getMessage());
        }
    }

    private static int parseType(String text) {
        int type = Type.value(text);
        if (type < 0) {
            throw new IllegalArgumentException("'" + text + "' is not a DNS type");
        }
        return type;
    }

    private static int parseRcode(String text) {
        int rcode = Rcode.value(text);
        if (rcode < 0) {
            throw new IllegalArgumentException("'" + text + "' is not an rcode (NOERROR, NXDOMAIN, ...)");
        }
        return rcode;
    }

    @Override
    public DnsCheck atPort(int other) {
        return new DnsCheck(other, name, type, expectRcode, expectAnswer);
    }

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
