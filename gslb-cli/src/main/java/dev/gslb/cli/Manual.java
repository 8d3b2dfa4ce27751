package dev.gslb.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The sections of the man pages beyond picocli's own (Examples, Exit status, Files, Environment),
 * kept in the commands' footers: ManPageGenerator copies a footer into the AsciiDoc as it is, so a
 * line "== Files" starts a section of the man page; {@code --help} shows it as "Files:". Content
 * lines are indented: a literal block in the man page, kept line by line.
 */
final class Manual {
    private Manual() {}

    /** "== Examples" in the man page; --help shows it as "Examples:" after a blank line. */
    static final String EXAMPLES = "Examples%n";

    static final String EXIT_HEADING = "Exit status%n";

    static final String OK = "0:success";
    static final String FAILED =
            "1:the server refused or failed the request, or cannot be reached (the message says why)";
    static final String USAGE =
            "2:a bad or missing argument or option: one line says which, and `gslb CMD --help` the rest";

    /** Where a command that talks to the server finds it (lines of at most 80 characters: --help does not wrap them). */
    static final String ADMIN = "%n== Files%n"
            + "  /etc/gslb/gslb.yaml        the package's configuration: the commands read its%n"
            + "                             admin.listen and admin.token-file, nothing else%n"
            + "  /var/lib/gslb/admin.token  the server's admin token in the package's state%n"
            + "                             folder (root and the gslb user may read it)%n"
            + "  var/admin.token            the same beside a configuration whose server runs%n"
            + "                             without --state-dir%n"
            + "%n== Environment%n"
            + "  GSLB_CONFIG      the configuration to find the server by (--config beats it)%n"
            + "  GSLB_ADMIN       the admin API's address (--admin beats it; it beats%n"
            + "                   admin.listen)%n"
            + "  GSLB_TOKEN_FILE  the token's file (--token-file and --state-dir beat it)%n"
            + "  GSLB_STATE_DIR   the server's state folder: the token is its admin.token%n"
            + "                   (the package sets /var/lib/gslb)%n"
            + "  GSLB_JAVA_OPTS   more options for the Java runtime%n";

    static final String GSLB_EXAMPLES =
            "  gslb --config /srv/gslb/gslb.yaml stats   find the server by its configuration%n"
                    + "  gslb resolve www.example.com --ldns 198.51.100.53%n"
                    + "  gslb disable vs vs1-cnc --reason 'kernel upgrade' --for 2h%n"
                    + "  gslb persist list --wide-ip www.example.com%n"
                    + "  source <(gslb completion bash)";

    private static final Pattern SECTION = Pattern.compile("(?m)^== (.+)$");

    private static String heading(String text) {
        String t = text.strip();
        return t.isEmpty() ? "" : System.lineSeparator() + t + ":" + System.lineSeparator();
    }

    /**
     * Shows the footer's "== Files" lines as "Files:" in --help, and the headings of the examples
     * and the exit status as "Examples:" after a blank line, on every command of the tree.
     */
    static void renderSections(CommandLine c) {
        c.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_FOOTER, help -> {
            Matcher m = SECTION.matcher(help.footer());
            return m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + ":"));
        });
        c.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_FOOTER_HEADING, help -> heading(help.footerHeading()));
        c.getHelpSectionMap()
                .put(UsageMessageSpec.SECTION_KEY_EXIT_CODE_LIST_HEADING, help -> heading(help.exitCodeListHeading()));
        c.getSubcommands().values().forEach(Manual::renderSections);
    }
}
