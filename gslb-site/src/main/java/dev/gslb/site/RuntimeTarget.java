package dev.gslb.site;

import java.util.Locale;

/**
 * What a runtime state applies to: a data center, link, virtual server, pool, pool member or wide
 * IP, by its configured name; a pool member is {@code POOL/SERVER}, a wide IP its name with the
 * final dot, lower case.
 */
public record RuntimeTarget(Kind kind, String name) {
    public enum Kind {
        DATACENTER("datacenter"),
        LINK("link"),
        VS("vs"),
        POOL("pool"),
        MEMBER("member"),
        WIDEIP("wideip"),
        /**
         * Not a state: an operator's manual resume of a virtual server, told to the peers
         * (docs/operator-guide.md "Bring a server back after a failure").
         */
        RESUME("resume");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }

        /** A kind as commands write it ({@code dc} and {@code server} are accepted too). */
        public static Kind parse(String text) {
            String t = text.toLowerCase(Locale.ROOT);
            for (Kind k : values()) {
                if (k.word.equals(t)) {
                    return k;
                }
            }
            return switch (t) {
                case "dc", "data-center" -> DATACENTER;
                case "server", "virtual-server" -> VS;
                case "wide-ip" -> WIDEIP;
                default ->
                    throw new IllegalArgumentException(
                            "kind must be one of datacenter, link, vs, pool, member, wideip; not '" + text + "'");
            };
        }
    }

    /** Longer than any configured name (a DNS name is at most 255): an admin request or a peer cannot send more. */
    public static final int MAX_NAME = 255;

    public RuntimeTarget {
        if (kind == null || name == null || name.isBlank()) {
            throw new IllegalArgumentException("a runtime state needs a kind and a name");
        }
        if (name.length() > MAX_NAME) {
            throw new IllegalArgumentException("a name of at most " + MAX_NAME + " characters");
        }
        printable(name, "name");
        if (kind == Kind.WIDEIP) {
            name = name.toLowerCase(Locale.ROOT);
            name = name.endsWith(".") ? name : name + ".";
        }
    }

    /**
     * Refuses control characters in a text that logs, `gslb maintenance` and the audit log show:
     * from an operator or a peer, a newline or a terminal escape would forge lines or redraw a screen.
     */
    static void printable(String text, String what) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                throw new IllegalArgumentException("a " + what + " without control characters");
            }
        }
    }

    /** A pool member's target. */
    public static RuntimeTarget member(String pool, String server) {
        return new RuntimeTarget(Kind.MEMBER, pool + "/" + server);
    }

    /** {@code vs web-cnc}: how messages name it. */
    @Override
    public String toString() {
        return kind.word + " " + name;
    }
}
