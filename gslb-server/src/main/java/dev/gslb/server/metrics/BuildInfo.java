package dev.gslb.server.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version and git revision this server was built from: {@code gslb --version} prints them and
 * {@code gslb_build_info{version, revision} 1} exports them. Read from the version file the CLI's
 * build writes into the jar ({@value #RESOURCE}, which the packaging scripts read too); a build
 * without it (a module's own tests) says "unknown".
 *
 * @param dirty built from a tree with uncommitted changes
 */
public record BuildInfo(String version, String revision, boolean dirty) {
    static final String RESOURCE = "/dev/gslb/cli/version.properties";

    public static BuildInfo read() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new BuildInfo(
                known(p.getProperty("version")),
                known(p.getProperty("revision")),
                "true".equals(p.getProperty("dirty")));
    }

    /** A property Maven did not fill (a build outside git) is "unknown". */
    private static String known(String value) {
        return value == null || value.isBlank() || value.startsWith("${") ? "unknown" : value;
    }

    /**
     * Exports {@code gslb_build_info}. Micrometer has no info meter (a gauge named {@code _info}
     * loses the suffix), so it is the Prometheus client's own info metric, beside Micrometer's.
     */
    void register(PrometheusRegistry registry) {
        InfoSnapshot info = InfoSnapshot.builder()
                .name(MetricPrefix.PREFIX + "build")
                .help("The version and git revision this server was built from (always 1)")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                        .labels(Labels.of("version", version, "revision", revision))
                        .build())
                .build();
        registry.register(() -> info);
    }
}
