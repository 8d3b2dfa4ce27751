package dev.gslb.config.bigip;

import java.net.InetAddress;
import java.util.Map;

/** How F5 writes names, numbers and addresses, read into ours (never a name lookup). */
final class F5Values {
    private F5Values() {}

    /** Names written into our configuration and topology file: F5's characters, nothing that could break either. */
    static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile(
            "(?!.*//)[A-Za-z0-9_.][A-Za-z0-9_.:/@%+*-]{0,254}"); // "//" opens a comment in a topology file

    /** The largest TTL a DNS answer carries (RFC 2181). */
    static final long MAX_TTL = Integer.MAX_VALUE;

    /** {@code text} as a whole number within {@code min..max}, or null (F5 writes plain decimal numbers). */
    static Long number(String text, long min, long max) {
        if (text == null || !text.matches("-?\\d{1,18}")) {
            return null;
        }
        long v = Long.parseLong(text);
        return v < min || v > max ? null : v;
    }

    /** An F5 name as ours: {@code /Common/web} is web, {@code /Tenant/web} Tenant/web. */
    static String name(String f5) {
        if (f5.startsWith("/Common/")) {
            return f5.substring("/Common/".length());
        }
        return f5.startsWith("/") ? f5.substring(1) : f5;
    }

    /** {@code 10.1.1.1:80}, {@code 2001:db8::1.80}, route domain {@code %2} taken off: address and port ("*" if none). */
    static String[] hostPort(String destination) {
        String d = destination.replaceAll("%\\d+", "");
        int colons = d.length() - d.replace(":", "").length();
        int sep = colons > 1 ? d.lastIndexOf('.') : d.lastIndexOf(':');
        if (colons > 1 && sep < d.lastIndexOf(':')) {
            sep = -1; // IPv6 without a port
        }
        return sep < 0 ? new String[] {d, "*"} : new String[] {d.substring(0, sep), d.substring(sep + 1)};
    }

    /** An IP address literal, or null: never a name lookup. */
    static InetAddress address(String text) {
        if (!text.matches("[0-9a-fA-F:.]+") || !(text.contains(".") || text.contains(":"))) {
            return null;
        }
        try {
            return InetAddress.ofLiteral(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A YAML entry of two keys, in this order (Map.of's order changes from run to run). */
    static Map<String, Object> entry(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    /** Service names tmsh prints instead of numbers unless told not to (cli global-settings service number). */
    private static final Map<String, Integer> SERVICES = Map.ofEntries(
            Map.entry("http", 80),
            Map.entry("https", 443),
            Map.entry("domain", 53),
            Map.entry("smtp", 25),
            Map.entry("ftp", 21),
            Map.entry("ssh", 22),
            Map.entry("telnet", 23),
            Map.entry("pop3", 110),
            Map.entry("imap", 143),
            Map.entry("imaps", 993),
            Map.entry("pop3s", 995),
            Map.entry("smtps", 465),
            Map.entry("ldap", 389),
            Map.entry("ldaps", 636),
            Map.entry("snmp", 161),
            Map.entry("http-alt", 8080));

    /** A port as F5 writes it: a number, a service name, or "*" / "any" (0: any); null when none of these. */
    static Integer port(String text) {
        if (text.equals("*") || text.equals("any")) {
            return 0;
        }
        Long n = number(text, 0, 65535);
        return n != null ? Integer.valueOf(n.intValue()) : SERVICES.get(text);
    }
}
