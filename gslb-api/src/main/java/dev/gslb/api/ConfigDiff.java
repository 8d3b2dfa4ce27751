package dev.gslb.api;

import java.util.List;

/**
 * GET /config/diff?peer=NAME: lines only here (-) and only on the peer (+), file by file.
 *
 * @param peerState the peer's {@link ConfigStatus.Peer#state()}: while it is unknown (not
 *     connected) the diff is against what it served when last heard
 */
public record ConfigDiff(String peer, boolean same, List<String> lines, String peerState) {}
