package dev.gslb.sync;

/**
 * What the operator allowed when offering a pairing (`gslb peer pair`): the data center the joining
 * instance must be in ({@code null}: any that the configuration names), and whether it may share a
 * data center with this instance or with a paired peer (an active/standby pair, a deliberate choice).
 */
record JoinTerms(String dataCenter, boolean sharedDataCenter) {
    static final JoinTerms ANY = new JoinTerms(null, false);
}
