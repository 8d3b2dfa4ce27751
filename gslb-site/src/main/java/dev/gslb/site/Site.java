package dev.gslb.site;

import java.util.List;

/**
 * The site model of one configuration: its virtual servers, each at the position of its ordinal,
 * and its links. What {@link SitePublisher} publishes a state for.
 */
public record Site(List<VirtualServer> servers, List<Link> links) {
    public static final Site EMPTY = new Site(List.of(), List.of());

    public Site {
        servers = List.copyOf(servers);
        links = List.copyOf(links);
        for (int i = 0; i < servers.size(); i++) {
            if (servers.get(i).ordinal() != i) {
                throw new IllegalArgumentException(
                        "virtual server " + servers.get(i).name() + " has ordinal "
                                + servers.get(i).ordinal() + " at position " + i);
            }
        }
    }

    /** A site of servers made outside a configuration (tools, tests): each gets its position as ordinal. */
    public static Site numbered(List<VirtualServer> servers, List<Link> links) {
        List<VirtualServer> numbered = new java.util.ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            numbered.add(servers.get(i).at(i));
        }
        return new Site(numbered, links);
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
}
