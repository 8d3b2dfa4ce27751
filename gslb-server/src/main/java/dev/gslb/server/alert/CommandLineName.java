package dev.gslb.server.alert;

/**
 * A name as an alert program's arguments get it ({@code {event}}, {@code {subject}}): letters,
 * digits and {@code . _ : @ -} as they are, any other character (and a leading {@code -}) as
 * {@code _}. A subject can be a name a peer chose (a virtual server or link of the shared
 * configuration, the peer's own name) and an operator's program may well be {@code sh -c "...
 * {subject}"}: no text of a peer becomes shell code or an option there. The exact name is in
 * {@code GSLB_SUBJECT} and in the JSON on standard input.
 */
final class CommandLineName {
    private CommandLineName() {}

    static String of(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean plain = c < 128 && (Character.isLetterOrDigit(c) || ".:_@-".indexOf(c) >= 0);
            b.append(plain && !(i == 0 && c == '-') ? c : '_');
        }
        return b.isEmpty() ? "_" : b.toString();
    }
}
