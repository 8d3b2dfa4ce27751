package dev.gslb.sync;

import java.util.Comparator;

/**
 * Which shared configuration an instance serves: its generation (one more than the one it
 * replaced), the instance where that change was made, and a digest of its content. The newer
 * generation wins; of two changes made at once (the same generation) the one from the instance
 * with the greater name wins, so both sides pick the same without talking.
 */
public record ConfigVersion(long generation, String origin, String digest) implements Comparable<ConfigVersion> {
    private static final Comparator<ConfigVersion> ORDER = Comparator.comparingLong(ConfigVersion::generation)
            .thenComparing(ConfigVersion::origin)
            .thenComparing(ConfigVersion::digest);

    @Override
    public int compareTo(ConfigVersion o) {
        return ORDER.compare(this, o);
    }

    public boolean newerThan(ConfigVersion o) {
        return compareTo(o) > 0;
    }

    /** {@code 7 from gslb-tel (3f9a01c2d4e5)}: how logs and `gslb config status` name it. */
    @Override
    public String toString() {
        return generation + " from " + origin + " (" + digest.substring(0, Math.min(12, digest.length())) + ")";
    }
}
