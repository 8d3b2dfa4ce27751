package dev.gslb.dns.dnssec;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Name;
import org.xbill.DNS.RRset;

/**
 * A clock far behind the time the zone's keys were made (a reset clock) makes signatures no
 * validator takes: the signer makes none then, counts the failure, and keeps serving what it made
 * before.
 */
class SignerClockTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");

    @Test
    void aClockFarBeforeTheKeysWereMadeSignsNothingNewAndKeepsWhatWasMade() throws Exception {
        ZoneKeys keys = TestKeys.ring(ZONE).of(ZONE);
        long made = System.currentTimeMillis();
        ZoneKeys dated = new ZoneKeys(ZONE, keys.settings(), keys.keys(), Instant.ofEpochMilli(made));
        long[] now = {made};
        AtomicInteger failed = new AtomicInteger();
        Signer.Counts counts = new Signer.Counts() {
            @Override
            public void made() {}

            @Override
            public void failed() {
                failed.incrementAndGet();
            }

            @Override
            public void overBudget() {}
        };
        Signer signer = new Signer(dated, 3600, () -> now[0], counts, SigningBudget.UNLIMITED);
        RRset www = address("www.example.com.");
        Signer.Signed before = signer.sign(www);
        assertThat(before.signatures()).hasSize(1);

        now[0] = made - Duration.ofMinutes(30).toMillis();
        assertThat(signer.sign(address("near.example.com.")).signatures())
                .as("half an hour behind: within what signatures reach back")
                .hasSize(1);

        now[0] = made - Duration.ofDays(400).toMillis();
        assertThat(signer.sign(www)).as("made before the clock went back: kept").isSameAs(before);
        assertThat(signer.sign(address("new.example.com.")).signatures())
                .as("nothing new is signed with the clock far off")
                .isEmpty();
        assertThat(failed.get()).isEqualTo(1);
    }

    private static RRset address(String name) throws Exception {
        return new RRset(new ARecord(Name.fromString(name), DClass.IN, 300, InetAddress.getByName("192.0.2.1")));
    }
}
