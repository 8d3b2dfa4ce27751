package dev.gslb.dns.dnssec;

import dev.gslb.dns.zone.DnssecSettings;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.Map;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSKEYRecord;
import org.xbill.DNS.Name;

/** Keys made for a test: a KSK and a ZSK (ECDSA P-256) for one zone, and the ring holding them. */
public final class TestKeys {
    private TestKeys() {}

    /** A ring with a new KSK (named for CDS) and ZSK for {@code zone}, signed with the default settings. */
    public static KeyRing ring(Name zone) throws Exception {
        KeyPair k = ecKey();
        KeyPair z = ecKey();
        DNSKEYRecord ksk = new DNSKEYRecord(zone, DClass.IN, 3600, 257, 3, 13, k.getPublic());
        DNSKEYRecord zsk = new DNSKEYRecord(zone, DClass.IN, 3600, 256, 3, 13, z.getPublic());
        return new KeyRing(Map.of(
                zone,
                new ZoneKeys(
                        zone,
                        DnssecSettings.DEFAULTS,
                        List.of(
                                new SigningKey(ksk, k.getPrivate(), true, false, true, true),
                                new SigningKey(zsk, z.getPrivate(), true, true, false, false)))));
    }

    /** The KSK of {@code zone} in {@code ring}. */
    public static DNSKEYRecord ksk(KeyRing ring, Name zone) {
        return ring.of(zone).keySigning().getFirst().dnskey();
    }

    public static KeyPair ecKey() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }
}
