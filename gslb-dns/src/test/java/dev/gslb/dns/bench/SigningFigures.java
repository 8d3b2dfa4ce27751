package dev.gslb.dns.bench;

import dev.gslb.dns.dnssec.Signer;
import dev.gslb.dns.dnssec.SigningBudget;
import dev.gslb.dns.dnssec.SigningKey;
import dev.gslb.dns.dnssec.ZoneKeys;
import dev.gslb.dns.zone.DnssecSettings;
import java.net.InetAddress;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSKEYRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.RRset;

/**
 * What one fresh signature costs, per algorithm: a wide IP's answer of two A records signed by the
 * zone's {@link Signer} with its cache missed every time (each RRset a new TTL), on this thread,
 * after a warm-up. This is the cost of a new answer set, of a name that does not exist (its NSEC)
 * and of a signature's refresh; cached signatures cost nothing of it.
 *
 * <pre>bash bench/run-test-main.sh gslb-dns -- dev.gslb.dns.bench.SigningFigures</pre>
 */
public final class SigningFigures {
    private SigningFigures() {}

    public static void main(String[] args) throws Exception {
        Name zone = Name.fromString("example.com.");
        Name www = Name.fromString("www.example.com.");
        for (String algorithm : List.of(DnssecSettings.ECDSAP256SHA256, DnssecSettings.ED25519)) {
            KeyPairGenerator g =
                    KeyPairGenerator.getInstance(algorithm.equals(DnssecSettings.ED25519) ? "Ed25519" : "EC");
            if (!algorithm.equals(DnssecSettings.ED25519)) {
                g.initialize(new ECGenParameterSpec("secp256r1"));
            }
            int number = algorithm.equals(DnssecSettings.ED25519) ? 15 : 13;
            KeyPair zsk = g.generateKeyPair();
            KeyPair ksk = g.generateKeyPair();
            DnssecSettings settings =
                    DnssecSettings.SETTINGS.with(DnssecSettings.DEFAULTS, DnssecSettings.ALGORITHM, algorithm);
            ZoneKeys keys = new ZoneKeys(
                    zone,
                    settings,
                    List.of(
                            new SigningKey(
                                    new DNSKEYRecord(zone, DClass.IN, 3600, 257, 3, number, ksk.getPublic()),
                                    ksk.getPrivate(),
                                    true,
                                    false,
                                    true,
                                    true),
                            new SigningKey(
                                    new DNSKEYRecord(zone, DClass.IN, 3600, 256, 3, number, zsk.getPublic()),
                                    zsk.getPrivate(),
                                    true,
                                    true,
                                    false,
                                    false)));
            Signer signer =
                    new Signer(keys, 3600, System::currentTimeMillis, Signer.Counts.NONE, SigningBudget.UNLIMITED);
            InetAddress a = InetAddress.ofLiteral("202.106.83.177");
            InetAddress b = InetAddress.ofLiteral("219.17.66.100");
            int ttl = 1;
            for (int round = 0; round < 3; round++) {
                int n = round == 0 ? 5_000 : 20_000;
                long start = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    RRset set = new RRset();
                    set.addRR(new ARecord(www, DClass.IN, ttl, a));
                    set.addRR(new ARecord(www, DClass.IN, ttl++, b));
                    if (signer.sign(set).signatures().isEmpty()) {
                        throw new IllegalStateException("signing failed");
                    }
                }
                long micros = (System.nanoTime() - start) / 1000;
                if (round > 0) {
                    System.out.printf(
                            "fresh signature, %-16s %7.1f us each (%,d signatures/s on one core)%n",
                            algorithm, micros / (double) n, (long) (n * 1e6 / micros));
                }
            }
        }
    }
}
