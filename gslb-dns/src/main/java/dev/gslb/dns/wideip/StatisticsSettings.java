package dev.gslb.dns.wideip;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.settings.Bounds;

/**
 * The {@code statistics:} section (README "Statistics").
 *
 * @param maxWideIps wide IPs counted on their own; the rest are counted together as "other"
 */
public record StatisticsSettings(int maxWideIps) {
    public static final StatisticsSettings DEFAULTS = new StatisticsSettings(100);

    @JsonCreator
    public static StatisticsSettings bind(@JsonProperty("max-wide-ips") Integer maxWideIps) {
        return new StatisticsSettings(
                Bounds.within("max-wide-ips", requireNonNullElse(maxWideIps, DEFAULTS.maxWideIps()), 1, 100_000));
    }
}
