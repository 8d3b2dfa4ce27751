package dev.gslb.dns.dnssec;

/** What a key is for in its zone: flags 257 make a KSK (a CSK when the zone has {@code keys: csk}), 256 a ZSK. */
public enum KeyRole {
    KSK,
    ZSK,
    CSK;

    public static KeyRole of(KeyFile key, boolean cskZone) {
        return key.secureEntryPoint() ? (cskZone ? CSK : KSK) : ZSK;
    }

    /** Signs every RRset but DNSKEY, CDS and CDNSKEY while active. */
    public boolean signsZone() {
        return this != KSK;
    }

    /** Signs DNSKEY, CDS and CDNSKEY while active, and is what the parent's DS names. */
    public boolean signsKeys() {
        return this != ZSK;
    }

    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
