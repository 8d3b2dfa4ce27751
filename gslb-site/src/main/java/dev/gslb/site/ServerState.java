package dev.gslb.site;

/**
 * One virtual server as this instance answers by it, decided by {@link SitePublisher} from every
 * monitor, link and peer event. Immutable and precomputed: the query path reads it and builds
 * nothing.
 *
 * @param health      the merged health: this instance's monitors, else a peer's fresh view
 * @param available   may be answered (health allows it and its link is not DOWN)
 * @param spillReason why it gets no new answers although available (its link is over its limit),
 *                    a precomputed text, or null
 * @param headroomBps its link's capacity minus the busier direction's traffic in bit/s, or -1
 *                    when not known
 * @param heldReason  why an operator's rule keeps it unavailable whatever is measured ("down,
 *                    waiting for manual resume", "depends on vs-db, which is down"), a text
 *                    made when the state is published, or null
 * @param admin       the strictest runtime state of the server, its data center and its link
 * @param set         the runtime state that decided {@code admin} (who, when, why), or null when enabled
 * @param load        its load as measured in its data center ({@link ServerLoad#UNKNOWN} when nothing is)
 */
public record ServerState(
        HealthState health,
        boolean available,
        String spillReason,
        long headroomBps,
        String heldReason,
        AdminState admin,
        RuntimeState set,
        ServerLoad load) {
    /** Answerable and nothing measured: what a server outside any configuration gets when unknown health is answered. */
    public static final ServerState UNKNOWN_AVAILABLE = new ServerState(HealthState.UNKNOWN, true, null, -1);

    /** Not answered until a check says UP (unknown-health: unavailable). */
    public static final ServerState UNKNOWN_UNAVAILABLE = new ServerState(HealthState.UNKNOWN, false, null, -1);

    /** Enabled, and no operator's rule holds it: what a state decided from health and links alone is. */
    public ServerState(HealthState health, boolean available, String spillReason, long headroomBps) {
        this(health, available, spillReason, headroomBps, null, AdminState.ENABLED, null, ServerLoad.UNKNOWN);
    }

    /** A monitor (this instance's or a peer's) saw it UP, not merely unknown. */
    public boolean confirmedUp() {
        return health == HealthState.UP;
    }

    /** Available, enabled, and its link takes new answers. */
    public boolean answerable() {
        return available && spillReason == null && admin == AdminState.ENABLED;
    }

    /** What persistence may keep answering: as answerable, or drained (not disabled). */
    public boolean persistable() {
        return available && spillReason == null && admin != AdminState.DISABLED;
    }
}
