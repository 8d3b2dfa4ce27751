package dev.gslb.site;

import java.util.List;

/**
 * The site model of one configuration: its virtual servers, each at the position of its ordinal,
 * its links, and which servers depend on which ({@link Dependencies}, resolved here once by
 * ordinal). What {@link SitePublisher} publishes a state for.
 */
public final class Site {
    public static final Site EMPTY = new Site(List.of(), List.of());

    private final List<VirtualServer> servers;
    private final List<Link> links;
    private final Dependencies dependencies;

    /** Refuses a server off its ordinal, a dependency on a server not in {@code servers}, and a cycle of them. */
    public Site(List<VirtualServer> servers, List<Link> links) {
        this.servers = List.copyOf(servers);
        this.links = List.copyOf(links);
        for (int i = 0; i < servers.size(); i++) {
            if (servers.get(i).ordinal() != i) {
                throw new IllegalArgumentException(
                        "virtual server " + servers.get(i).name() + " has ordinal "
                                + servers.get(i).ordinal() + " at position " + i);
            }
        }
        this.dependencies = Dependencies.of(this.servers);
    }

    /** A site of servers made outside a configuration (tools, tests): each gets its position as ordinal. */
    public static Site numbered(List<VirtualServer> servers, List<Link> links) {
        List<VirtualServer> numbered = new java.util.ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            numbered.add(servers.get(i).at(i));
        }
        return new Site(numbered, links);
    }

    public List<VirtualServer> servers() {
        return servers;
    }

    public List<Link> links() {
        return links;
    }

    /** Which servers depend on which, by ordinal. */
    public Dependencies dependencies() {
        return dependencies;
    }

    /** The link named {@code name}, or null. */
    public Link link(String name) {
        for (Link l : links) {
            if (l.name().equals(name)) {
                return l;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "Site" + servers.stream().map(VirtualServer::name).toList() + " links "
                + links.stream().map(Link::name).toList();
    }
}
