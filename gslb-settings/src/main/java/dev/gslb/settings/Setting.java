package dev.gslb.settings;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One key of a settings section: its name, the type written in the file, its default, its
 * bounds and one line of documentation. A {@link SettingsTable} of these binds a section; the
 * bounds are checked there, lower and upper in one place, and an error points at the key.
 *
 * @param written  the type read from the file
 * @param convert  from what is read to what the record holds
 * @param shown    the default as the reference (docs/configuration.md) writes it, when not the
 *     default's own text
 * @param relative whether a path default is relative to the file's folder
 * @param range    the bounds as the reference writes them ("" when none)
 * @param secret   whether the value may instead come from a file ({@code KEY-file:}) or the
 *                 environment ({@code ${env:GSLB_NAME}}), see {@link Secrets}
 * @param <T>      the value the record holds
 */
public record Setting<T>(
        String key,
        JavaType written,
        Function<Object, T> convert,
        T defaultValue,
        String shown,
        Consumer<T> rule,
        boolean relative,
        String range,
        String doc,
        boolean secret)
        implements SettingsPart {
    /** A key of type {@code type}, as written. */
    public static <T> Setting<T> of(String key, Class<T> type, T defaultValue, String doc) {
        return plain(key, TypeFactory.defaultInstance().constructType(type), type::cast, defaultValue, doc);
    }

    /** A key read as {@code written}, converted by {@code convert}, with no bounds of its own. */
    private static <T> Setting<T> plain(
            String key, JavaType written, Function<Object, T> convert, T defaultValue, String doc) {
        return new Setting<>(key, written, convert, defaultValue, null, v -> {}, false, "", doc, false);
    }

    /** A whole number from {@code min} to {@code max}. */
    public static Setting<Integer> integer(String key, int defaultValue, int min, int max, String doc) {
        return of(key, Integer.class, defaultValue, doc).check(min + ".." + max, v -> Bounds.within(key, v, min, max));
    }

    /** A duration. */
    public static Setting<Duration> duration(String key, Duration defaultValue, String doc) {
        return of(key, Duration.class, defaultValue, doc);
    }

    /** A path, relative to the file's folder (and so is the default). */
    public static Setting<Path> path(String key, String defaultValue, String doc) {
        return optionalPath(key, defaultValue, null, doc);
    }

    /** A path relative to the file's folder, or null when {@code none} is written. */
    public static Setting<Path> optionalPath(String key, String defaultValue, String none, String doc) {
        return new Setting<>(
                key,
                TypeFactory.defaultInstance().constructType(String.class),
                text -> text.equals(none) ? null : Path.of((String) text),
                Path.of(defaultValue),
                defaultValue,
                v -> {},
                true,
                "",
                doc,
                false);
    }

    /** A path relative to the file's folder, none (null) unless given. */
    public static Setting<Path> optionalPath(String key, String doc) {
        return new Setting<>(
                key,
                TypeFactory.defaultInstance().constructType(String.class),
                text -> Path.of((String) text),
                null,
                null,
                v -> {},
                true,
                "",
                doc,
                false);
    }

    /** A list of {@code element}; a given list replaces the default one. */
    public static <E> Setting<List<E>> list(String key, Class<E> element, List<E> defaultValue, String doc) {
        @SuppressWarnings("unchecked")
        Function<Object, List<E>> cast = v -> List.copyOf((List<E>) v);
        return plain(
                key,
                TypeFactory.defaultInstance().constructCollectionType(List.class, element),
                cast,
                defaultValue,
                doc);
    }

    /** A mapping of names to {@code value}s ({@code labels: {job: web}}); empty by default. */
    public static <V> Setting<java.util.Map<String, V>> mapping(String key, Class<V> value, String doc) {
        @SuppressWarnings("unchecked")
        Function<Object, java.util.Map<String, V>> cast =
                v -> java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>((java.util.Map<String, V>) v));
        return plain(
                key,
                TypeFactory.defaultInstance().constructMapType(java.util.LinkedHashMap.class, String.class, value),
                cast,
                java.util.Map.of(),
                doc);
    }

    /** The same key holding {@code to} of what is written; {@code to} may refuse with an IllegalArgumentException. */
    public <U> Setting<U> map(Function<T, U> to, U defaultValue) {
        return new Setting<>(
                key,
                written,
                v -> to.apply(accept(v)),
                defaultValue,
                show(this.defaultValue),
                u -> {},
                relative,
                range,
                doc,
                secret);
    }

    /**
     * The same key with bounds of its own, {@code range} in the reference's words (an
     * IllegalArgumentException names what is wrong).
     */
    public Setting<T> check(String range, Consumer<T> more) {
        return new Setting<>(
                key, written, convert, defaultValue, shown, rule.andThen(more), relative, range, doc, secret);
    }

    /** The same key with its default shown in the reference as {@code shown}. */
    public Setting<T> shown(String shown) {
        return new Setting<>(key, written, convert, defaultValue, shown, rule, relative, range, doc, secret);
    }

    /**
     * The same key whose default depends on others; {@code shown} says which (the reference's
     * words).
     */
    public Setting<T> derived(String shown) {
        return new Setting<>(key, written, convert, null, shown, rule, relative, range, doc, secret);
    }

    /**
     * The same key holding a secret (a password, a community): besides the value itself, the file
     * may give {@code ${env:GSLB_NAME}} or {@code KEY-file: PATH} ({@link Secrets}), so the
     * configuration, and the copy a sync group keeps and sends, carries the reference only.
     */
    public Setting<T> asSecret() {
        return new Setting<>(key, written, convert, defaultValue, shown, rule, relative, range, doc, true);
    }

    /** The default as the reference writes it. */
    public String shownDefault() {
        return shown != null ? shown : show(defaultValue);
    }

    /** {@code value} (given, or the default), a relative path resolved against {@code folder}. */
    T in(Path folder, T value) {
        return relative && value != null ? cast(folder.resolve((Path) value)) : value;
    }

    /** {@link #in} for a value known only as an Object (what a binder collected). */
    Object resolved(Path folder, Object value) {
        return in(folder, cast(value));
    }

    @SuppressWarnings("unchecked")
    T cast(Object value) {
        return (T) value;
    }

    /** What was written, converted and checked. */
    T accept(Object written) {
        T value = convert.apply(written);
        rule.accept(value);
        return value;
    }

    /** A value (given or built in code) checked against this key's rule. */
    T checked(T value) {
        rule.accept(value);
        return value;
    }

    /**
     * A value as the reference writes it: durations in their largest whole unit, lists in brackets.
     */
    static String show(Object value) {
        return switch (value) {
            case null -> "none";
            case Duration d -> duration(d);
            case ByteSize b -> size(b.bytes());
            case HostPort h ->
                h.port() == HostPort.NO_PORT ? h.host().getHostAddress() : show(h.orPort(0)); // its own port
            case List<?> l ->
                l.stream().map(Setting::show).collect(java.util.stream.Collectors.joining(", ", "[", "]"));
            case java.net.InetSocketAddress a ->
                a.getAddress() instanceof java.net.Inet6Address
                        ? "[" + a.getAddress().getHostAddress() + "]:" + a.getPort()
                        : a.getAddress().getHostAddress() + ":" + a.getPort();
            case java.net.InetAddress a -> a.getHostAddress();
            case Enum<?> e -> e.name().toLowerCase(java.util.Locale.ROOT);
            default -> value.toString();
        };
    }

    private static String size(long bytes) {
        String[] units = {"GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (30 - 10 * i);
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + units[i];
            }
        }
        return Long.toString(bytes);
    }

    private static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0s";
        }
        long[] sizes = {86_400_000, 3_600_000, 60_000, 1000, 1};
        String[] units = {"d", "h", "m", "s", "ms"};
        for (int i = 0; ; i++) {
            if (ms % sizes[i] == 0) {
                return ms / sizes[i] + units[i];
            }
        }
    }
}
