package dev.gslb.dns.dnssec;

import java.security.PrivateKey;
import org.xbill.DNS.DNSKEYRecord;

/**
 * One key of a signed zone as the query path uses it: its public half as published, its private
 * half, and what it does now in its roll.
 *
 * @param dnskey     the DNSKEY record (flags 257 for a KSK or CSK, 256 for a ZSK)
 * @param privateKey what signs
 * @param published  in the zone's DNSKEY RRset
 * @param signsZone  signs every RRset but DNSKEY, CDS and CDNSKEY (an active ZSK or CSK)
 * @param signsKeys  signs DNSKEY, CDS and CDNSKEY (an active KSK or CSK)
 * @param cds        published as CDS and CDNSKEY: the keys a parent that scans should trust (RFC 7344)
 */
public record SigningKey(
        DNSKEYRecord dnskey,
        PrivateKey privateKey,
        boolean published,
        boolean signsZone,
        boolean signsKeys,
        boolean cds) {
    /** The key tag (RFC 4034 appendix B). */
    public int tag() {
        return dnskey.getFootprint();
    }
}
