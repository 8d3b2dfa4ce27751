package dev.gslb.topology;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * 3DNS topology sources that name an ISP, a country or a continent ({@code isp."China Telecom"},
 * {@code country."CN"}) mapped onto the regions that are loaded: a region of that name (any case),
 * else the china-operator-ip list that ISP or country is (chinanet for China Telecom, china for
 * CN). A name that maps to no loaded region is an error naming the list to load.
 */
public final class RegionNames {
    /** ISP names (lower case, letters and digits only) -> the china-operator-ip list of that ISP. */
    private static final Map<String, String> ISPS = Map.ofEntries(
            Map.entry("chinatelecom", "chinanet"),
            Map.entry("telecom", "chinanet"),
            Map.entry("chinanet", "chinanet"),
            Map.entry("chinaunicom", "unicom"),
            Map.entry("unicom", "unicom"),
            Map.entry("chinanetcom", "unicom"),
            Map.entry("cnc", "unicom"),
            Map.entry("chinamobile", "cmcc"),
            Map.entry("mobile", "cmcc"),
            Map.entry("cmcc", "cmcc"),
            Map.entry("cernet", "cernet"),
            Map.entry("chinaeducationandresearchnetwork", "cernet"),
            Map.entry("cstnet", "cstnet"),
            Map.entry("drpeng", "drpeng"),
            // F5's ISP names (isp /Common/ChinaMobilNetwork); its city lists match the whole ISP's
            Map.entry("chinamobilnetwork", "cmcc"),
            Map.entry("chinaeducationnetwork", "cernet"),
            Map.entry("beijingcnc", "unicom"),
            Map.entry("shanghaicnc", "unicom"),
            Map.entry("shanghaitelecom", "chinanet"));

    private static final Map<String, List<String>> COUNTRIES = Map.of("cn", List.of("CN", "china"));

    private RegionNames() {}

    /** The loaded region a record's source means, or null when it maps to none. */
    public static String resolve(String source, Set<String> loaded) {
        int colon = source.indexOf(':');
        String kind = colon > 0 ? source.substring(0, colon) : "";
        if (!kind.equals("isp") && !kind.equals("country") && !kind.equals("continent")) {
            return source; // a region name or a CIDR: checked where regions are
        }
        String name = source.substring(colon + 1);
        String same = named(name, loaded);
        if (same != null) {
            return same;
        }
        if (kind.equals("isp")) {
            String list = ISPS.get(name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", ""));
            return list == null ? null : named(list, loaded);
        }
        if (kind.equals("country")) {
            for (String candidate : COUNTRIES.getOrDefault(name.toLowerCase(Locale.ROOT), List.of())) {
                String r = named(candidate, loaded);
                if (r != null) {
                    return r;
                }
            }
        }
        return null;
    }

    private static String named(String name, Set<String> loaded) {
        for (String r : loaded) {
            if (r.equalsIgnoreCase(name)) {
                return r;
            }
        }
        return null;
    }

    /** Why a source maps to no loaded region, and what to load. */
    public static String unmapped(String source) {
        int colon = source.indexOf(':');
        String kind = colon > 0 ? source.substring(0, colon) : "";
        String name = source.substring(colon + 1);
        return switch (kind) {
            case "isp" -> {
                String list = ISPS.get(name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", ""));
                yield "isp.\"" + name + "\" maps to no loaded region ("
                        + (list == null ? "load a list named after it" : "load " + list + ".txt of china-operator-ip")
                        + ")";
            }
            case "country" ->
                "country.\"" + name + "\" maps to no loaded region (load APNIC stats, whose regions are"
                        + " country codes, or a list named " + name + ")";
            case "continent" -> "continent.\"" + name + "\" maps to no loaded region (load a list named " + name + ")";
            default -> "no region named '" + source + "' is loaded";
        };
    }
}
