package dev.gslb.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** What {@code gslb --version} prints: the project version and the git revision it was built from. */
final class GslbVersion implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = GslbVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        String revision = known(p.getProperty("revision"));
        String dirty = "true".equals(p.getProperty("dirty")) ? " (with uncommitted changes)" : "";
        return new String[] {
            "gslb " + known(p.getProperty("version")),
            "revision " + revision + dirty,
            "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
        };
    }

    /** A property Maven did not fill (a build outside git) is "unknown". */
    private static String known(String value) {
        return value == null || value.isBlank() || value.startsWith("${") ? "unknown" : value;
    }
}
