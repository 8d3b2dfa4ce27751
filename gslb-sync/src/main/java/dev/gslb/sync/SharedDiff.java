package dev.gslb.sync;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** How two shared configurations differ, file by file (GET /config/diff, `gslb config diff`). */
final class SharedDiff {
    private SharedDiff() {}

    /**
     * Lines only {@code here} ({@code -}) and only {@code there} ({@code +}), at most {@code
     * maxLines} per file.
     */
    static List<String> lines(
            Map<String, byte[]> here,
            Map<String, byte[]> there,
            ConfigVersion ours,
            String peer,
            ConfigVersion theirs,
            int maxLines) {
        Set<String> names = new LinkedHashSet<>(here.keySet()); // the YAML first, then the files by name
        names.addAll(new java.util.TreeSet<>(there.keySet()));
        List<String> out = new ArrayList<>();
        for (String name : names) {
            String a = text(here.get(name));
            String b = text(there.get(name));
            if (a.equals(b)) {
                continue;
            }
            out.add("--- " + name + " here (generation " + ours + ")");
            out.add("+++ " + name + " on " + peer + " (generation " + theirs + ")");
            List<String> linesHere = a.lines().toList();
            List<String> linesThere = b.lines().toList();
            Set<String> inThere = new java.util.HashSet<>(linesThere);
            Set<String> inHere = new java.util.HashSet<>(linesHere);
            int n = 0;
            for (String l : linesHere) {
                if (!inThere.contains(l) && n++ < maxLines) {
                    out.add("-" + l);
                }
            }
            for (String l : linesThere) {
                if (!inHere.contains(l) && n++ < maxLines) {
                    out.add("+" + l);
                }
            }
            if (n > maxLines) {
                out.add("... " + (n - maxLines) + " more line(s)");
            }
        }
        return out;
    }

    private static String text(byte[] b) {
        return b == null ? "" : new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }
}
