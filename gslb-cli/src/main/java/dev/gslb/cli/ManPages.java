package dev.gslb.cli;

import java.io.File;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Build time only (picocli-codegen is not in gslb.jar): the AsciiDoc man pages of the whole tree,
 * gslb(1) and one per subcommand, into the folder given. The subcommands are added in code
 * ({@link Gslb#COMMANDS}), so ManPageGenerator's own main, which reads the annotations, would see
 * gslb alone.
 */
final class ManPages {
    private ManPages() {}

    public static void main(String[] args) throws Exception {
        System.exit(ManPageGenerator.generateManPage(
                new File(args[0]),
                null,
                new boolean[0],
                true,
                Gslb.commandLine().getCommandSpec()));
    }
}
