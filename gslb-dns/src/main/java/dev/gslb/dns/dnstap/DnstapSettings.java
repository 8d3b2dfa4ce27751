package dev.gslb.dns.dnstap;

import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code dnstap:} section: query logging in dnstap (docs "DNS query logging"), off unless a
 * socket or a file is given.
 *
 * @param socket   a Unix socket a dnstap reader listens on (Frame Streams, bidirectional), or null
 * @param file     a file to write (Frame Streams, unidirectional), or null
 * @param sample   the fraction of queries logged, 0 to 1
 * @param every    one query in this many is logged (1: all); an alternative to {@code sample}
 * @param queue    queries waiting for the writer; past this they are dropped and counted
 * @param identity the {@code identity} field of every message (null: the instance's name)
 * @param version  the {@code version} field (null: "gslb" and the version)
 * @param messages which messages are written: auth-query, auth-response
 */
public record DnstapSettings(
        Path socket,
        Path file,
        double sample,
        int every,
        int queue,
        String identity,
        String version,
        List<String> messages) {
    public static final String AUTH_QUERY = "auth-query";
    public static final String AUTH_RESPONSE = "auth-response";

    public static final Setting<Path> SOCKET =
            Setting.optionalPath("socket", "a Unix socket a dnstap reader listens on");
    public static final Setting<Path> FILE =
            Setting.optionalPath("file", "a file to write dnstap to (replaced at start)");
    public static final Setting<Double> SAMPLE = Setting.of(
                    "sample", Double.class, 1.0, "the fraction of queries logged")
            .check("0..1", f -> {
                if (!(f >= 0 && f <= 1)) {
                    throw new IllegalArgumentException("dnstap sample must be a fraction from 0 to 1, not " + f);
                }
            });
    public static final Setting<Integer> EVERY =
            Setting.integer("every", 1, 1, 1_000_000, "log one query in this many (instead of sample)");
    public static final Setting<Integer> QUEUE = Setting.integer(
            "queue", 65536, 16, 1 << 22, "queries waiting for the writer; more are dropped and counted");
    public static final Setting<String> IDENTITY =
            Setting.of("identity", String.class, null, "the identity field").shown("the instance name");
    public static final Setting<String> VERSION =
            Setting.of("version", String.class, null, "the version field").shown("this build's name and version");
    public static final Setting<List<String>> MESSAGES = Setting.list(
                    "messages",
                    String.class,
                    List.of(AUTH_QUERY, AUTH_RESPONSE),
                    "which messages: auth-query, auth-response")
            .check("auth-query, auth-response", list -> {
                if (list.isEmpty()) {
                    throw new IllegalArgumentException("dnstap messages must name auth-query, auth-response or both");
                }
                for (String m : list) {
                    if (!m.equals(AUTH_QUERY) && !m.equals(AUTH_RESPONSE)) {
                        throw new IllegalArgumentException(
                                "dnstap message '" + m + "' is not one of auth-query, auth-response");
                    }
                }
            });

    public static final SettingsTable<DnstapSettings> SETTINGS =
            SettingsTable.of(DnstapSettings.class, SOCKET, FILE, SAMPLE, EVERY, QUEUE, IDENTITY, VERSION, MESSAGES);

    public static final DnstapSettings DEFAULTS = SETTINGS.defaults();

    public static final Section<DnstapSettings> SECTION = Section.of("dnstap", SETTINGS);

    public DnstapSettings {
        messages = List.copyOf(messages);
        if (socket != null && file != null) {
            throw new IllegalArgumentException("dnstap writes to a socket or to a file, not both: give one");
        }
        if (sample < 1 && every > 1) {
            throw new IllegalArgumentException("dnstap samples by sample or by every, not both: give one");
        }
        if (identity != null && identity.length() > 255 || version != null && version.length() > 255) {
            throw new IllegalArgumentException("dnstap identity and version are at most 255 characters");
        }
    }

    /** Whether queries are logged at all. */
    public boolean enabled() {
        return (socket != null || file != null) && sample > 0;
    }

    /** The same settings writing to {@code file} (tests). */
    public DnstapSettings toFile(Path file) {
        return SETTINGS.change(this).set(FILE, file).set(SOCKET, null).build();
    }

    /** The same settings writing to the reader on {@code socket} (tests). */
    public DnstapSettings toSocket(Path socket) {
        return SETTINGS.change(this).set(SOCKET, socket).set(FILE, null).build();
    }

    /** Which queries are taken: {@code sample} or {@code every}, as a whole-number fraction. */
    Sampling sampling() {
        return every > 1 ? new Sampling(1, every) : Sampling.of(sample);
    }
}
