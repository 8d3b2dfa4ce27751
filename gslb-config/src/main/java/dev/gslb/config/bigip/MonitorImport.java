package dev.gslb.config.bigip;

import static dev.gslb.config.bigip.F5Values.name;

import dev.gslb.probe.health.ProgramAllowList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An F5 {@code gtm monitor KIND NAME} as one of our {@code monitors:}. F5 checks every
 * {@code interval} and marks a target down when nothing succeeded for {@code timeout}; here a
 * target goes down after {@code down} failed checks in a row, so the timeout becomes
 * {@code down = timeout / interval} (120 s / 30 s: 4), and one success brings it up, as on F5.
 */
final class MonitorImport {
    /** F5 monitor kinds and ours. */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("http", "http"),
            Map.entry("https", "https"),
            Map.entry("tcp", "tcp"),
            Map.entry("tcp-half-open", "tcp"),
            Map.entry("gateway-icmp", "icmp"),
            Map.entry("smtp", "smtp"),
            Map.entry("ftp", "ftp"),
            Map.entry("pop3", "pop3"),
            Map.entry("imap", "imap"),
            Map.entry("dns", "dns"),
            Map.entry("external", "external"),
            Map.entry("bigip", "tcp"));

    /** F5's built-in monitors, usable without a definition: name -> kind (and port, when the name says). */
    private static final Map<String, String> BUILT_IN = Map.ofEntries(
            Map.entry("http", "http"),
            Map.entry("https", "https"),
            Map.entry("https_443", "https"),
            Map.entry("tcp", "tcp"),
            Map.entry("tcp_half_open", "tcp-half-open"),
            Map.entry("gateway_icmp", "gateway-icmp"),
            Map.entry("smtp", "smtp"),
            Map.entry("ftp", "ftp"),
            Map.entry("pop3", "pop3"),
            Map.entry("imap", "imap"),
            Map.entry("bigip", "bigip"));

    private static final Pattern STATUS =
            Pattern.compile("\\^?\\s*(?:HTTP/1\\\\?\\.[01x\\[\\]\\\\.]*\\s+)?(\\d{3})(?:\\s+.*)?\\$?");

    private final ImportReport report;
    private final ImportedConfig config;

    MonitorImport(ImportReport report, ImportedConfig config) {
        this.report = report;
        this.config = config;
    }

    void monitor(TmshNode n) {
        F5Object o = new F5Object(n, "monitor", name(n.word(3)), report);
        if (config.monitors.containsKey(o.name)) {
            o.unsupported("a monitor of this name is defined already (of another kind): the first is kept");
            return;
        }
        Map<String, Object> m = of(o, n.word(2));
        o.rest();
        if (m != null) {
            config.monitors.put(o.name, m);
            config.monitorLines.put(o.name, n.line());
            if (m.get("command") instanceof List<?> command) {
                config.madeFiles.putIfAbsent(
                        "monitor-programs/" + command.getFirst(),
                        "#!/bin/sh\n# A stand-in made by gslb import bigip: copy F5's " + command.getFirst()
                                + " over this file.\n# Until then the monitor fails, so its servers are down.\n"
                                + "echo \"" + command.getFirst()
                                + ": the F5 program was not copied here yet\" >&2\nexit 1\n");
            }
        }
    }

    /** Our monitors for an F5 monitor rule ({@code /Common/http and /Common/tcp}), reported on {@code o}. */
    List<String> rule(F5Object o, TmshNode rule) {
        List<String> out = new ArrayList<>();
        List<String> words =
                new ArrayList<>(rule.words().subList(1, rule.words().size()));
        words.addAll(rule.items());
        if (words.contains("min") || words.contains("require")) {
            o.different(
                    rule,
                    "monitor '" + String.join(" ", words) + "': ours needs every monitor to pass (F5: at least N)");
        }
        for (String w : words) {
            if (Set.of("and", "min", "of", "require", "from", "none").contains(w) || w.matches("\\d+")) {
                continue;
            }
            String m = name(w);
            if (!config.monitors.containsKey(m) && builtIn(m)) {
                config.monitors.put(m, builtIn(m, rule.line(), report));
            }
            if (config.monitors.containsKey(m)) {
                out.add(m);
            } else {
                o.unsupported(
                        rule,
                        "monitor " + m + " is not imported (see its own line, or F5's built-in " + m
                                + " has no counterpart here); not checked by it");
            }
        }
        if (!out.isEmpty()) {
            o.mapped(rule, "monitors " + out);
        }
        return out;
    }

    /** Whether {@code name} (partition taken off) is one of F5's built-in monitors we can write. */
    private static boolean builtIn(String name) {
        return BUILT_IN.containsKey(name);
    }

    /** A built-in F5 monitor with F5's defaults (interval 30 s, timeout 120 s). */
    private static Map<String, Object> builtIn(String name, int line, ImportReport report) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        String kind = BUILT_IN.get(name);
        m.put("type", TYPES.get(kind));
        timing(m, 30, 120, 5);
        if (name.equals("https_443")) {
            m.put("port", 443);
        }
        report.different(
                "monitor",
                name,
                line,
                "F5's built-in " + name + ", written as type " + TYPES.get(kind)
                        + " with F5's timing: every 30s, down after 4 failed checks (F5: 120 s without a success)"
                        + (kind.equals("tcp-half-open") ? "; a full TCP connect (F5: SYN only)" : "")
                        + (kind.equals("bigip")
                                ? "; F5's bigip monitor asks the BIG-IP (LTM) for the virtual server's state, here a TCP connect to the virtual server's port checks it"
                                : ""));
        return m;
    }

    /** The monitor, or null when its kind has no counterpart (reported). */
    private static Map<String, Object> of(F5Object o, String f5Kind) {
        String type = TYPES.get(f5Kind);
        if (type == null) {
            o.unsupported("monitor kind " + f5Kind + " has no counterpart here (ours: http, https, tcp, icmp,"
                    + " smtp, ftp, pop3, imap, dns, external); the servers using it are checked by their other"
                    + " monitors, or not at all");
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", o.name);
        m.put("type", type);
        TmshNode from = o.get("defaults-from");
        if (from != null) {
            o.mapped(from, "defaults-from " + from.value() + ": its kind is " + f5Kind + " (type " + type + ")");
        }
        int interval = seconds(o, "interval", f5Kind.equals("dns") ? 5 : 30); // dns: LTM's dns monitor's defaults
        int timeout = seconds(o, "timeout", f5Kind.equals("dns") ? 16 : 120);
        int probeTimeout = seconds(o, "probe-timeout", 5);
        timing(m, interval, timeout, probeTimeout);
        o.different("every " + interval + "s, down after " + m.get("down") + " failed checks, each given "
                + m.get("timeout") + " (F5: down after " + timeout + " s without a success); up after one success");
        if (f5Kind.equals("bigip")) {
            o.different("kind bigip: F5 asks the BIG-IP (LTM) for the virtual server's state; here a TCP connect to"
                    + " the virtual server's port checks it");
        }
        if (f5Kind.equals("tcp-half-open")) {
            o.different("a full TCP connect, closed at once (F5 sends a SYN only)");
        }
        TmshNode manual = o.get("manual-resume");
        if (manual != null) {
            boolean on = manual.value().equals("enabled");
            if (on) {
                m.put("manual-resume", true);
            }
            o.mapped(manual, "manual-resume " + manual.value());
        }
        destination(o, m);
        switch (f5Kind) {
            case "http", "https" -> http(o, m);
            case "tcp" -> {
                escaped(o, m, "send", "send");
                escaped(o, m, "recv", "expect");
            }
            case "smtp" -> login(o, m, "domain", false);
            case "ftp" -> login(o, m, "username", true);
            case "pop3", "imap" -> login(o, m, "username", true);
            case "dns" -> dns(o, m);
            case "external" -> external(o, m);
            default -> {}
        }
        if (type.equals("dns") && !m.containsKey("query-name")) {
            o.unsupported("a dns monitor without qname: ours needs the name to ask; not written");
            return null;
        }
        if (type.equals("external") && !m.containsKey("command")) {
            o.unsupported("an external monitor without run: not written");
            return null;
        }
        o.mapped("monitor " + o.name + " (type " + type + ")");
        return m;
    }

    private static void timing(Map<String, Object> m, int interval, int timeout, int probeTimeout) {
        m.put("interval", interval + "s");
        m.put("timeout", Math.max(1, Math.min(probeTimeout, interval)) + "s");
        m.put("up", 1);
        m.put("down", Math.max(1, Math.min(1000, timeout / Math.max(1, interval))));
    }

    private static int seconds(F5Object o, String key, int otherwise) {
        TmshNode n = o.get(key);
        if (n == null) {
            return otherwise;
        }
        try {
            int v = Integer.parseInt(n.value());
            if (v >= 1 && v <= 86_400) {
                o.mapped(n, key + " " + v);
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        o.different(n, key + " '" + n.value() + "' is not 1..86400 seconds; F5's default " + otherwise + " is used");
        return otherwise;
    }

    /** {@code destination *:*} (the server's port), {@code *:80}, or an alias address (not kept). */
    private static void destination(F5Object o, Map<String, Object> m) {
        TmshNode d = o.get("destination");
        if (d == null) {
            return;
        }
        String v = d.value();
        int sep = Math.max(v.lastIndexOf(':'), v.indexOf(':') < 0 ? v.lastIndexOf('.') : -1);
        String address = sep < 0 ? v : v.substring(0, sep);
        String port = sep < 0 ? "*" : v.substring(sep + 1);
        if (!port.equals("*") && Set.of("icmp", "external").contains(m.get("type"))) {
            o.different(d, "destination " + v + ": an " + m.get("type") + " monitor here takes no port");
            return;
        }
        if (!port.equals("*")) {
            try {
                int p = Integer.parseInt(port);
                if (p < 1 || p > 65535) {
                    throw new NumberFormatException();
                }
                m.put("port", p);
            } catch (NumberFormatException e) {
                o.unsupported(d, "destination " + v + ": not a port");
                return;
            }
        }
        if (address.equals("*") || address.isEmpty()) {
            o.mapped(d, "destination " + v + (port.equals("*") ? ": the server's own port" : ": port " + port));
        } else {
            o.different(
                    d,
                    "destination " + v + ": the alias address " + address + " is not kept (ours checks each server's"
                            + " address, or its translation:)");
        }
    }

    private static void http(F5Object o, Map<String, Object> m) {
        TmshNode send = o.get("send");
        if (send != null) {
            String[] lines = send.value().replace("\\r", "").split("\\\\n");
            String[] first = lines[0].trim().split("\\s+");
            if (first.length >= 2 && first[1].startsWith("/")) {
                m.put("path", first[1]);
            }
            for (String l : lines) {
                int colon = l.indexOf(':');
                if (colon > 0 && l.substring(0, colon).trim().equalsIgnoreCase("host")) {
                    m.put("host", l.substring(colon + 1).trim());
                }
            }
            if (first[0].equals("GET")) {
                o.mapped(
                        send,
                        "send: GET " + m.getOrDefault("path", "/")
                                + (m.containsKey("host") ? ", Host " + m.get("host") : ""));
            } else {
                o.different(
                        send,
                        "send '" + first[0] + " ...': ours sends GET " + m.getOrDefault("path", "/")
                                + (m.containsKey("host") ? " with Host " + m.get("host") : "")
                                + ", other headers not sent");
            }
        }
        TmshNode recv = o.get("recv");
        if (recv != null && !recv.value().isEmpty() && !recv.value().equals("none")) {
            Matcher s = STATUS.matcher(recv.value());
            if (s.matches() && Integer.parseInt(s.group(1)) >= 100 && Integer.parseInt(s.group(1)) <= 599) {
                m.put("expect-status", Integer.parseInt(s.group(1)));
                o.mapped(recv, "recv '" + recv.value() + "': expect-status " + s.group(1));
            } else {
                String text = recv.value();
                if (text.matches(".*[\\^$.*+?()\\[\\]{}|\\\\].*")) {
                    o.different(
                            recv,
                            "recv '" + text + "' is a regular expression on F5; ours, expect-body, is text the body"
                                    + " must contain, so it is not checked (as text it would seldom match): only the"
                                    + " status is; give expect-body: the text to look for");
                } else {
                    m.put("expect-body", text);
                    o.mapped(recv, "recv '" + text + "': expect-body");
                }
                o.different(recv, "the status must also be 200 (expect-status); F5 only matched recv");
            }
        }
    }

    /** tmsh's {@code \r\n} escapes are ours too: kept as written. */
    private static void escaped(F5Object o, Map<String, Object> m, String key, String ours) {
        TmshNode n = o.get(key);
        if (n != null && ours.equals("expect") && !regex(n.value())) {
            o.unsupported(n, key + " '" + n.value() + "' is not a regular expression Java reads; not checked");
        } else if (n != null && !n.value().isEmpty() && !n.value().equals("none")) {
            m.put(ours, n.value());
            o.mapped(n, key + " -> " + ours);
        }
    }

    /**
     * SMTP's HELO name is written; an FTP, POP3 or IMAP login needs its password, which F5 keeps
     * encrypted, so those monitors are written without a login (ours then checks the greeting).
     */
    private static boolean regex(String text) {
        try {
            Pattern.compile(text);
            return true;
        } catch (java.util.regex.PatternSyntaxException e) {
            return false;
        }
    }

    private static void login(F5Object o, Map<String, Object> m, String userKey, boolean password) {
        TmshNode user = o.get(userKey);
        TmshNode pass = o.get("password");
        if (user != null && !password) {
            m.put("user", user.value());
            o.mapped(user, userKey + " -> user");
        } else if (user != null) {
            o.different(
                    pass != null ? pass : user,
                    userKey + " " + user.value() + " and its password not written: F5 keeps the password encrypted;"
                            + " without them ours checks the server's greeting; add user: and password-file: (mode 600)"
                            + " or password: ${env:GSLB_...} to log in");
        }
    }

    private static void dns(F5Object o, Map<String, Object> m) {
        TmshNode q = o.get("qname");
        if (q != null) {
            try {
                org.xbill.DNS.Name.fromString(q.value(), org.xbill.DNS.Name.root);
                m.put("query-name", q.value());
                o.mapped(q, "qname -> query-name");
            } catch (org.xbill.DNS.TextParseException e) {
                o.unsupported(q, "qname " + q.value() + " is not a domain name");
            }
        }
        TmshNode t = o.get("qtype");
        if (t != null && org.xbill.DNS.Type.value(t.value()) > 0) {
            m.put("query-type", org.xbill.DNS.Type.string(org.xbill.DNS.Type.value(t.value())));
            o.mapped(t, "qtype -> query-type");
        } else if (t != null) {
            o.unsupported(t, "qtype " + t.value() + " is not a DNS type: A");
        }
        TmshNode r = o.get("recv");
        if (r != null && !r.value().isEmpty() && !r.value().equals("none")) {
            m.put("expect-answer", r.value());
            o.mapped(r, "recv -> expect-answer");
        }
        TmshNode rc = o.get("accept-rcode");
        if (rc != null) {
            if (rc.value().equals("no-error")) {
                m.put("expect-rcode", "NOERROR");
                o.mapped(rc, "accept-rcode no-error");
            } else {
                o.unsupported(rc, "accept-rcode " + rc.value() + ": ours expects one rcode; NOERROR is kept");
            }
        }
    }

    private static void external(F5Object o, Map<String, Object> m) {
        TmshNode run = o.get("run");
        if (run == null) {
            return;
        }
        String program = run.value();
        program = program.substring(program.lastIndexOf('/') + 1);
        if (!ProgramAllowList.isProgramName(program)) {
            o.unsupported(
                    run,
                    "run " + run.value() + ": '" + program + "' cannot name a program here (letters, digits,"
                            + " . _ + -)");
            return;
        }
        List<String> command = new ArrayList<>(List.of(program));
        TmshNode args = o.get("args");
        if (args != null && !args.value().isBlank()) {
            command.addAll(List.of(args.value().trim().split("\\s+")));
        }
        m.put("command", command);
        o.different(
                run,
                "run " + run.value() + ": copy the program over the stand-in monitor-programs/" + program
                        + " (it fails until then)"
                        + " (F5 passes the address and port as arguments; ours gives {address} and GSLB_ADDRESS)");
        for (TmshNode vars : o.all("user-defined")) {
            o.unsupported(vars, "user-defined " + vars.value() + ": ours sets no such variables; pass it in command:");
        }
    }
}
