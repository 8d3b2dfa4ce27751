package dev.gslb.sync;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which data center a joining instance may be in. A data center's paths have one writer, so the
 * claim in a JOIN is checked, not taken: it must be a data center the running configuration names,
 * the one the pairing was offered for (if any), and neither this instance's own nor one that
 * already has a paired peer unless the operator allowed that at `peer pair`
 * (--allow-shared-datacenter). The same rules refuse an offer that could never be used.
 */
final class JoinRules {
    private JoinRules() {}

    /** Refuses an offer the rules would refuse every join of, before a token is printed. */
    static void checkOffer(JoinTerms terms, String ourDataCenter, Set<String> configured) {
        String dc = terms.dataCenter();
        if (dc == null) {
            return;
        }
        if (!configured.contains(dc)) {
            throw new IllegalArgumentException(
                    "data center " + dc + " is not in this configuration's datacenters " + new TreeSet<>(configured));
        }
        if (dc.equals(ourDataCenter) && !terms.sharedDataCenter()) {
            throw new IllegalArgumentException(dc + " is this instance's own data center: for an active/standby pair"
                    + " there, add --allow-shared-datacenter");
        }
    }

    /** The joining side's early refusal of a token made for an instance elsewhere, saying what to do. */
    static void checkToken(JoinToken token, String ourDataCenter) {
        Peer offerer = token.offerer();
        JoinTerms terms = token.terms();
        if (terms.dataCenter() != null && !terms.dataCenter().equals(ourDataCenter)) {
            throw new IllegalArgumentException("this join token is for an instance in data center " + terms.dataCenter()
                    + ", and this one is in " + ourDataCenter + ": run `gslb peer pair --datacenter "
                    + ourDataCenter + "` on " + offerer.name());
        }
        if (offerer.dataCenter().equals(ourDataCenter) && !terms.sharedDataCenter()) {
            throw new IllegalArgumentException(offerer.name() + " is in " + ourDataCenter
                    + ", this instance's own data center: for an active/standby pair, run `gslb peer pair"
                    + " --allow-shared-datacenter` on " + offerer.name());
        }
    }

    /** Refuses a join whose claims the terms of its pairing and this deployment do not allow, saying why. */
    static void checkJoin(
            Hello join,
            JoinTerms terms,
            String ourName,
            String ourDataCenter,
            Set<String> configured,
            Collection<Peer> peers)
            throws Wire.ProtocolException {
        String dc = join.dataCenter();
        if (join.instance().equals(ourName)
                || peers.stream().anyMatch(p -> p.name().equals(join.instance()))) {
            throw new Wire.ProtocolException("an instance named " + join.instance() + " is already this one or a peer");
        }
        if (terms.dataCenter() != null && !terms.dataCenter().equals(dc)) {
            throw new Wire.ProtocolException(
                    "its join token is for data center " + terms.dataCenter() + ", but it says it is in " + dc);
        }
        if (!configured.contains(dc)) {
            throw new Wire.ProtocolException("it says it is in data center " + dc
                    + ", which is not in this configuration's datacenters " + new TreeSet<>(configured));
        }
        if (terms.sharedDataCenter()) {
            return;
        }
        if (dc.equals(ourDataCenter)) {
            throw new Wire.ProtocolException("it says it is in " + dc + ", this instance's own data center"
                    + " (an active/standby pair is made with `gslb peer pair --allow-shared-datacenter`)");
        }
        for (Peer p : peers) {
            if (p.dataCenter().equals(dc)) {
                throw new Wire.ProtocolException("it says it is in " + dc + ", which has a paired peer already ("
                        + p.name() + "; a second instance there is paired with --allow-shared-datacenter)");
            }
        }
    }
}
