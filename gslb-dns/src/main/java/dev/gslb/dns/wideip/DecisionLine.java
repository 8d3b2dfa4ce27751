package dev.gslb.dns.wideip;

import dev.gslb.dns.method.Trace;

/** The decision log's line for one decision (a wide IP with {@code decision-log: true}). */
final class DecisionLine {
    private DecisionLine() {}

    static String of(WideIpResolver.Result r, Trace trace) {
        StringBuilder sb = new StringBuilder();
        if (r.outcome() == null) {
            sb.append("no pool decided; failure behaviour ").append(r.failure().kind());
        } else {
            sb.append("pool ")
                    .append(r.pool().name())
                    .append(' ')
                    .append(r.tierName())
                    .append(' ')
                    .append(r.method().name())
                    .append(" -> ")
                    .append(r.outcome().name().toLowerCase(java.util.Locale.ROOT));
            for (int i = 0; i < r.count(); i++) {
                sb.append(' ')
                        .append(r.answer(i).name())
                        .append('=')
                        .append(r.answer(i).address().getHostAddress());
            }
            if (r.fallback() != null) {
                sb.append(' ').append(r.fallback().getHostAddress());
            }
            if (r.cname() != null) {
                sb.append(" CNAME ").append(r.cname().name());
            }
        }
        if (trace != null) {
            trace.steps().stream()
                    .filter(st ->
                            !st.topic().equals("candidates") && !st.topic().equals("tier"))
                    .forEach(st ->
                            sb.append("; ").append(st.topic()).append(": ").append(st.detail()));
        }
        return sb.toString();
    }
}
