package dev.gslb.cli;

import dev.gslb.config.GslbConfig;
import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.alert.AlertSpec;
import dev.gslb.dns.method.QualityOfService;
import dev.gslb.dns.rrl.RateLimitSettings;
import dev.gslb.dns.server.DnsSettings;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.StatisticsSettings;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.health.MonitorTypes;
import dev.gslb.probe.link.SnmpCounters;
import dev.gslb.probe.link.TrafficSpec;
import dev.gslb.probe.schedule.Probing;
import dev.gslb.settings.Setting;
import dev.gslb.sync.SyncSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The README's "Every key and its default" has one table per section, and each is the settings
 * table of the code: the same keys, the same defaults, the same ranges. A key added to a record's
 * table and not to the README, or a default changed on one side only, fails here.
 */
class ReadmeReferenceTest {
    /** Each heading of the reference and the keys of the table that binds it. */
    static final Map<String, List<Setting<?>>> SECTIONS = new LinkedHashMap<>();

    static {
        SECTIONS.put("dns:", DnsSettings.SETTINGS.settings());
        SECTIONS.put("dns.rate-limit:", RateLimitSettings.SETTINGS.settings());
        SECTIONS.put("admin:", AdminSettings.SETTINGS.settings());
        SECTIONS.put("probe:", Probing.SETTINGS.settings());
        SECTIONS.put("sync:", SyncSettings.SETTINGS.settings());
        SECTIONS.put("statistics:", StatisticsSettings.SETTINGS.settings());
        SECTIONS.put("links: traffic:", TrafficSpec.SETTINGS.settings());
        SECTIONS.put("links: traffic: snmp:", SnmpCounters.Spec.SETTINGS.settings());
        SECTIONS.put("monitors:", MonitorSpec.COMMON);
        MonitorTypes.checks().forEach((type, table) -> {
            if (!table.settings().isEmpty()) {
                SECTIONS.put("monitors: {type: " + type + "}", table.settings());
            }
        });
        SECTIONS.put("wide-ips: failure:", Failure.SETTINGS.settings());
        SECTIONS.put("load-balancing:", GslbConfig.LoadBalancing.SETTINGS.settings());
        SECTIONS.put("load-balancing.qos:", QualityOfService.Settings.SETTINGS.settings());
        SECTIONS.put("alerts:", AlertSpec.SETTINGS.settings());
    }

    @Test
    void everySectionTableIsTheCodes() throws Exception {
        String readme = Files.readString(Path.of("../README.md"));
        SoftAssertions softly = new SoftAssertions();
        for (var section : SECTIONS.entrySet()) {
            Map<String, String> expected = new LinkedHashMap<>();
            for (Setting<?> s : section.getValue()) {
                expected.put(s.key(), s.shownDefault() + " | " + s.range());
            }
            softly.assertThat(rows(readme, section.getKey()))
                    .as("README table `%s`; the code's rows are%n%s", section.getKey(), markdown(section.getValue()))
                    .containsExactlyEntriesOf(expected);
        }
        softly.assertAll();
    }

    /** The rows under the heading {@code #### `section`}: key to "default | range". */
    static Map<String, String> rows(String readme, String section) {
        Map<String, String> rows = new LinkedHashMap<>();
        int at = readme.indexOf("#### `" + section + "`\n");
        if (at < 0) {
            return rows;
        }
        for (String line : readme.substring(at).lines().skip(1).toList()) {
            if (line.startsWith("#")) {
                break;
            }
            if (line.startsWith("| `")) {
                String[] cells = line.split("\\|", -1);
                rows.put(bare(cells[1]), bare(cells[2]) + " | " + bare(cells[3]));
            }
        }
        return rows;
    }

    private static String bare(String cell) {
        return cell.strip().replace("`", "");
    }

    static String markdown(List<Setting<?>> settings) {
        return settings.stream()
                .map(s -> "| `" + s.key() + "` | `" + s.shownDefault() + "` | " + s.range() + " | " + s.doc() + " |")
                .collect(Collectors.joining("\n"));
    }
}
