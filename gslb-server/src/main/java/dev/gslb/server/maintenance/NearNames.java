package dev.gslb.server.maintenance;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The names an operator may have meant by one that is not there, for "did you mean" in an error:
 * those within a few edits of it (a typo, a missing, doubled or swapped letter) and those it begins or
 * that begin it, the nearest first.
 */
public final class NearNames {
    /** At most this many are named: a hint, not a listing. */
    static final int MOST = 5;

    private NearNames() {}

    /** A name longer than this is near none: the comparison's work grows with the product of the lengths. */
    static final int LONGEST = 255;

    public static List<String> of(String given, Collection<String> known) {
        if (given.length() > LONGEST) {
            return List.of();
        }
        String g = given.toLowerCase(Locale.ROOT);
        int allowed = Math.max(1, g.length() / 3);
        return known.stream()
                .filter(k -> {
                    String n = k.toLowerCase(Locale.ROOT);
                    return distance(g, n) <= allowed || !g.isEmpty() && (n.startsWith(g) || g.startsWith(n));
                })
                .sorted(Comparator.comparingInt((String k) -> distance(g, k.toLowerCase(Locale.ROOT)))
                        .thenComparing(Comparator.naturalOrder()))
                .limit(MOST)
                .toList();
    }

    /**
     * The fewest insertions, deletions, substitutions and swaps of two neighbours from {@code a}
     * to {@code b} (optimal string alignment): "wbe1" is one typo from "web1".
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                if (i == 0 || j == 0) {
                    d[i][j] = i + j;
                    continue;
                }
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j], d[i][j - 1]) + 1);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
