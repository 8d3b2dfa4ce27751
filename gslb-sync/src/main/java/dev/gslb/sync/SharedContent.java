package dev.gslb.sync;

import dev.gslb.topology.load.RuntimeLoad;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The part of the configuration a sync group shares (its shared sections and the files they
 * name, with what was loaded at run time), as the {@link SyncGroup} handles it: compared by
 * digest, sent zipped, kept in a folder.
 */
public interface SharedContent {
    /** Of the whole content: equal digests, equal configurations. */
    String digest();

    byte[] zip();

    /** What `gslb topology load` (or an import) added at run time, in order. */
    List<RuntimeLoad> loads();

    /** Each file of the content by name, the YAML first. */
    Map<String, byte[]> entries();

    void writeTo(Path dir) throws IOException;

    /** This content with {@code loads} as its run-time loads (a load, an unload, a revert). */
    SharedContent withLoads(List<RuntimeLoad> loads);

    /** This content with the run-time loads of {@code other}. */
    SharedContent withLoadsOf(SharedContent other);
}
