package dev.gslb.cli;

import dev.gslb.server.metrics.BuildInfo;
import picocli.CommandLine.IVersionProvider;

/** What {@code gslb --version} prints: the project version and the git revision it was built from. */
final class GslbVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        BuildInfo build = BuildInfo.read(); // the file src/main/filtered/dev/gslb/cli/version.properties
        return new String[] {
            "gslb " + build.version(),
            "revision " + build.revision() + (build.dirty() ? " (with uncommitted changes)" : ""),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
        };
    }
}
