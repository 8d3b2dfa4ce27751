package dev.gslb.server;

import dev.gslb.config.GslbConfig;
import dev.gslb.config.PeerBundle;
import dev.gslb.config.SharedConfig;
import dev.gslb.settings.SettingsException;
import dev.gslb.sync.GroupConfiguration;
import dev.gslb.sync.SharedContent;
import dev.gslb.sync.SyncGroup;
import dev.gslb.topology.load.RuntimeLoad;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The configuration as the sync group (gslb-sync) shares it: its shared part is {@link
 * SharedConfig}, and a peer's is loaded over the local part through {@link PeerBundle}.
 */
final class SyncedConfiguration implements GroupConfiguration<GslbConfig> {

    /**
     * A {@link SharedConfig} as the sync group handles it, with its digest taken once (the group
     * asks for it several times at start, over the whole topology data).
     */
    record Content(SharedConfig config, String digest) implements SharedContent {
        Content(SharedConfig config) {
            this(config, config.digest());
        }

        @Override
        public byte[] zip() {
            return config.zip();
        }

        @Override
        public List<RuntimeLoad> loads() {
            return config.loads();
        }

        @Override
        public Map<String, byte[]> entries() {
            return config.entries();
        }

        @Override
        public void writeTo(Path dir) throws IOException {
            config.writeTo(dir);
        }

        @Override
        public SharedContent withLoads(List<RuntimeLoad> loads) {
            return new Content(config.withLoads(loads));
        }

        @Override
        public SharedContent withLoadsOf(SharedContent other) {
            return new Content(config.withLoadsOf(of(other)));
        }
    }

    /**
     * The text {@code served} runs as: its own part with the shared part in service, whose files
     * are named where this instance keeps them. A copy it cannot name so (not kept) is shown by its
     * own file instead.
     */
    static String text(SyncGroup.Served<GslbConfig> served) {
        try {
            return new PeerBundle(of(served.content()), served.files())
                    .mergedInto(served.running().source());
        } catch (SettingsException e) {
            return served.running().source().text();
        }
    }

    private static SharedConfig of(SharedContent content) {
        return ((Content) content).config();
    }

    @Override
    public String instance(GslbConfig config) {
        return config.instance().name();
    }

    @Override
    public boolean syncOn(GslbConfig config) {
        return config.configSync();
    }

    @Override
    public String label(GslbConfig config) {
        return config.source().label();
    }

    @Override
    public SharedContent shared(GslbConfig config) throws SettingsException {
        return new Content(SharedConfig.of(config.source()));
    }

    @Override
    public SharedContent readFrom(Path dir) throws IOException {
        return new Content(SharedConfig.readFrom(dir));
    }

    @Override
    public SharedContent unzip(byte[] zipped) throws IOException {
        return new Content(SharedConfig.unzip(zipped));
    }

    @Override
    public GslbConfig over(SharedContent content, Path at, GslbConfig local, String label) throws SettingsException {
        return new PeerBundle(of(content), at).over(local, label);
    }

    @Override
    public String refusal(SharedContent content, Path at, Exception e) {
        return new PeerBundle(of(content), at).refusal(e);
    }

    @Override
    public GslbConfig withShared(GslbConfig fromFile, GslbConfig running) {
        return fromFile.withShared(running);
    }
}
