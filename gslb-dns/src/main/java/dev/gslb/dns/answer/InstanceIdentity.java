package dev.gslb.dns.answer;

import java.nio.charset.StandardCharsets;

/** Who answered: the name returned for CHAOS id.server / hostname.bind and in the NSID option. */
public record InstanceIdentity(String name, String dataCenter) {
    byte[] nameBytes() {
        return name.getBytes(StandardCharsets.US_ASCII);
    }
}
