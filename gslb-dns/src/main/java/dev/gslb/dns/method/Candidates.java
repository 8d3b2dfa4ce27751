package dev.gslb.dns.method;

import dev.gslb.site.ServerState;
import dev.gslb.site.VirtualServer;
import java.util.Arrays;

/**
 * The available members of one pool that can answer the asked type, in global-availability
 * order, each with its published state (what a method reads of it besides its paths). A method
 * that picks moves its choice to the front. Reused per thread: no allocation.
 */
public final class Candidates {
    private VirtualServer[] items = new VirtualServer[16];
    private ServerState[] states = new ServerState[16];
    private int size;

    /** Empties the list for the next pool. */
    public void reset() {
        this.size = 0;
    }

    /** A candidate with nothing known of it but that it is available (tests, tables). */
    public void add(VirtualServer vs) {
        add(vs, ServerState.UNKNOWN_AVAILABLE);
    }

    public void add(VirtualServer vs, ServerState state) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
            states = Arrays.copyOf(states, size * 2);
        }
        states[size] = state;
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

    /** Candidate {@code i}'s state as published when the decision began. */
    public ServerState state(int i) {
        return states[i];
    }

    /** Makes candidate {@code i} the answer: it moves to the front, the rest keep their order. */
    public Outcome pick(int i) {
        VirtualServer chosen = items[i];
        ServerState state = states[i];
        System.arraycopy(items, 0, items, 1, i);
        System.arraycopy(states, 0, states, 1, i);
        items[0] = chosen;
        states[0] = state;
        return Outcome.PICKED;
    }
}
