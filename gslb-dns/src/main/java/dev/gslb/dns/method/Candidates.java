package dev.gslb.dns.method;

import dev.gslb.site.VirtualServer;

/**
 * The available members of one pool that can answer the asked type, in global-availability
 * order. A method that picks moves its choice to the front. Reused per thread: no allocation.
 */
public final class Candidates {
    private VirtualServer[] items = new VirtualServer[16];
    private int size;

    /** Empties the list for the next pool. */
    public void reset() {
        this.size = 0;
    }

    public void add(VirtualServer vs) {
        if (size == items.length) {
            items = java.util.Arrays.copyOf(items, size * 2);
        }
        items[size++] = vs;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public VirtualServer get(int i) {
        return items[i];
    }

    /** Makes candidate {@code i} the answer: it moves to the front, the rest keep their order. */
    public Outcome pick(int i) {
        VirtualServer chosen = items[i];
        System.arraycopy(items, 0, items, 1, i);
        items[0] = chosen;
        return Outcome.PICKED;
    }
}
