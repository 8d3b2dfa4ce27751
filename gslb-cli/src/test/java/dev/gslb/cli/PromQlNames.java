package dev.gslb.cli;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression (or a Grafana variable's {@code label_values(...)}) reads:
 * its identifiers, less functions and aggregations (an identifier before {@code (}), keywords,
 * the label lists of {@code by}/{@code without}/{@code on}/{@code ignoring}/{@code group_*}, and
 * whatever is inside strings, {@code {...}} matchers, {@code [...]} ranges and Grafana variables.
 */
final class PromQlNames {
    private PromQlNames() {}

    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "and",
            "or",
            "unless",
            "offset",
            "inf",
            "nan");
    private static final Set<String> LABEL_LISTS =
            Set.of("by", "without", "on", "ignoring", "group_left", "group_right");
    private static final Pattern LABEL_VALUES =
            Pattern.compile("^\\s*label_values\\((.*),\\s*[a-zA-Z_]\\w*\\s*\\)\\s*$");
    private static final Pattern TOKEN =
            Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)|(\\()|(\\))|(\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)");

    static Set<String> of(String expr) {
        Matcher lv = LABEL_VALUES.matcher(expr);
        if (lv.matches()) {
            expr = lv.group(1); // label_values(METRIC, label): only the metric
        } else if (expr.trim().startsWith("label_values(")) {
            return Set.of(); // label_values(label): no metric
        }
        String text = expr.replaceAll("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|`[^`]*`", " ")
                .replaceAll("\\$\\{[^}]*}|\\$\\w+", " ")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = TOKEN.matcher(text);
        boolean labelList = false; // inside the ( ) after by, without, on ...
        String pending = null; // an identifier whose meaning depends on whether "(" follows
        boolean afterListKeyword = false;
        while (m.find()) {
            if (m.group(1) != null) {
                String id = m.group(1);
                String lower = id.toLowerCase(java.util.Locale.ROOT);
                if (pending != null && !lower.equals("by") && !lower.equals("without")) {
                    names.add(pending); // not "sum by (...)": the identifier was a metric
                }
                pending = null;
                if (labelList) {
                    continue;
                }
                afterListKeyword = LABEL_LISTS.contains(lower);
                if (!afterListKeyword && !KEYWORDS.contains(lower)) {
                    pending = id;
                }
            } else if (m.group(2) != null) {
                if (afterListKeyword) {
                    labelList = true;
                }
                afterListKeyword = false;
                pending = null; // a function or aggregation
            } else if (m.group(3) != null) {
                if (pending != null) {
                    names.add(pending);
                }
                pending = null;
                labelList = false;
                afterListKeyword = false;
            } else {
                if (pending != null) {
                    names.add(pending);
                }
                pending = null;
                afterListKeyword = false;
            }
        }
        if (pending != null) {
            names.add(pending);
        }
        return names;
    }
}
