package dev.gslb.sync;

import dev.gslb.settings.SettingsException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a {@link SyncGroup} needs of the configuration it shares, implemented where the
 * configuration's shape is known (the running server): its shared part, and a candidate built
 * and validated from a shared part over the local configuration.
 *
 * @param <C> the loaded configuration
 */
public interface GroupConfiguration<C> {
    /** This instance's name in {@code config}. */
    String instance(C config);

    /** Whether this instance takes and offers shared configurations ({@code config: sync:}). */
    boolean syncOn(C config);

    /** Where {@code config} was read from, for the log. */
    String label(C config);

    /** The shared part of {@code config}, with the files it names. */
    SharedContent shared(C config) throws SettingsException;

    SharedContent readFrom(Path dir) throws IOException;

    SharedContent unzip(byte[] zipped) throws IOException;

    /**
     * A configuration of {@code content} (its files written to {@code at}) over the local part of
     * {@code local}: loaded and validated as a file would be, or refused.
     */
    C over(SharedContent content, Path at, C local, String label) throws SettingsException;

    /** Why {@code content} was refused, told to the peer: no path of this host travels. */
    String refusal(SharedContent content, Path at, Exception e);

    /** {@code fromFile}'s local part with the shared part of {@code running}. */
    C withShared(C fromFile, C running);
}
