package dev.gslb.site;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which virtual servers each one depends on ({@code depends-on:}, F5's virtual-server dependency),
 * by ordinal, and an order that puts every server after those it depends on, so that {@link
 * SitePublisher} decides a whole chain in one pass. Made once per configuration, with its {@link
 * Site}; a cycle cannot be decided and is refused.
 */
public final class Dependencies {
    private static final int[] NONE = new int[0];

    private final int[][] on;
    private final int[] order;

    private Dependencies(int[][] on, int[] order) {
        this.on = on;
        this.order = order;
    }

    /** The dependencies of {@code servers} (each at its ordinal): an unknown name or a cycle is refused. */
    static Dependencies of(List<VirtualServer> servers) {
        int[][] on = resolve(servers);
        Walk walk = walk(on);
        if (walk.cycle() != null) {
            throw new IllegalArgumentException("virtual servers depend on each other in a cycle: "
                    + String.join(" -> ", names(servers, walk.cycle())));
        }
        return new Dependencies(on, walk.order());
    }

    /**
     * The first cycle among the servers' {@code depends-on} (names they give that no server has are
     * left out), from one server back to it ({@code [a, b, a]}), or an empty list when there is none.
     */
    public static List<String> cycle(List<VirtualServer> servers) {
        Map<String, Integer> byName = ordinals(servers);
        int[][] on = new int[servers.size()][];
        for (int i = 0; i < on.length; i++) {
            on[i] = servers.get(i).dependsOn().stream()
                    .filter(byName::containsKey)
                    .mapToInt(byName::get)
                    .toArray();
        }
        int[] cycle = walk(on).cycle();
        return cycle == null ? List.of() : names(servers, cycle);
    }

    /** The ordinals the server at {@code ordinal} depends on (not to be changed). */
    int[] of(int ordinal) {
        return on[ordinal];
    }

    /** Every ordinal once, each after those it depends on (not to be changed). */
    int[] order() {
        return order;
    }

    private static int[][] resolve(List<VirtualServer> servers) {
        Map<String, Integer> byName = ordinals(servers);
        int[][] on = new int[servers.size()][];
        for (int i = 0; i < on.length; i++) {
            List<String> names = servers.get(i).dependsOn();
            on[i] = names.isEmpty() ? NONE : new int[names.size()];
            for (int k = 0; k < names.size(); k++) {
                Integer d = byName.get(names.get(k));
                if (d == null) {
                    throw new IllegalArgumentException("virtual server "
                            + servers.get(i).name() + " depends on " + names.get(k) + ", which is not defined");
                }
                on[i][k] = d;
            }
        }
        return on;
    }

    private static Map<String, Integer> ordinals(List<VirtualServer> servers) {
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < servers.size(); i++) {
            byName.put(servers.get(i).name(), i);
        }
        return byName;
    }

    private static List<String> names(List<VirtualServer> servers, int[] ordinals) {
        List<String> names = new ArrayList<>();
        for (int o : ordinals) {
            names.add(servers.get(o).name());
        }
        return names;
    }

    /** A depth-first walk's result: the dependencies-first order, or the cycle it met (then order is null). */
    private record Walk(int[] order, int[] cycle) {}

    /** Depth first without recursion: a long chain in a hostile file must not overflow the stack. */
    private static Walk walk(int[][] on) {
        int n = on.length;
        byte[] mark = new byte[n]; // 0 not seen, 1 on the current path, 2 done
        int[] order = new int[n];
        int done = 0;
        int[] path = new int[n];
        int[] next = new int[n]; // at each depth, the next dependency to visit
        for (int root = 0; root < n; root++) {
            if (mark[root] != 0) {
                continue;
            }
            int depth = 0;
            path[0] = root;
            next[0] = 0;
            mark[root] = 1;
            while (depth >= 0) {
                int s = path[depth];
                if (next[depth] < on[s].length) {
                    int d = on[s][next[depth]++];
                    if (mark[d] == 1) {
                        return new Walk(null, cycleFrom(path, depth, d));
                    }
                    if (mark[d] == 0) {
                        mark[d] = 1;
                        path[++depth] = d;
                        next[depth] = 0;
                    }
                } else {
                    mark[s] = 2;
                    order[done++] = s;
                    depth--;
                }
            }
        }
        return new Walk(order, null);
    }

    /** The path from {@code d}'s place on it to its end, and {@code d} again. */
    private static int[] cycleFrom(int[] path, int depth, int d) {
        int start = depth;
        while (path[start] != d) {
            start--;
        }
        int[] cycle = new int[depth - start + 2];
        System.arraycopy(path, start, cycle, 0, depth - start + 1);
        cycle[cycle.length - 1] = d;
        return cycle;
    }
}
