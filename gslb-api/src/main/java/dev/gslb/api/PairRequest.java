package dev.gslb.api;

import java.util.List;

/**
 * POST /peer/pair: the sync addresses to put in the token (empty: sync.advertise), the data center
 * the joining instance must be in (null: any the configuration names), and whether it may share a
 * data center with this instance or a paired peer (an active/standby pair).
 */
public record PairRequest(List<String> advertise, String dataCenter, boolean allowSharedDataCenter) {}
