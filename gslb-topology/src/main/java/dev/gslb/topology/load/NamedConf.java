package dev.gslb.topology.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * named.conf and the files it includes, read as one list of tokens (words, quoted strings, braces,
 * ';' and '!'), each with its file and line. The files come from outside, so the work they can
 * cause is bounded, not only what they add: includes nest at most {@value #MAX_DEPTH} deep and
 * none includes itself; every include counts, an empty file's too, against {@value #MAX_INCLUDES};
 * every character read, a file read again each time it is included, against
 * {@value #MAX_CHARACTERS}; every token against {@value #MAX_TOKENS}. Past a bound, reading stops
 * with one problem naming the file and line where it was crossed.
 */
final class NamedConf {
    /** One token and where it was read. */
    record Token(String text, String file, int line) {}

    static final int MAX_TOKENS = 2_000_000;
    static final int MAX_INCLUDES = 10_000;
    static final long MAX_CHARACTERS = 64L << 20;
    static final int MAX_DEPTH = 9;

    private final Map<String, String> texts;
    private final Problems problems;
    private final List<Token> out = new ArrayList<>();
    /** The files being included, innermost last: one that includes itself, however, is refused. */
    private final List<String> including = new ArrayList<>();

    private int includes;
    private long characters;
    /** A bound was crossed: nothing more is read. */
    private boolean stopped;

    private NamedConf(Map<String, String> texts, Problems problems) {
        this.texts = texts;
        this.problems = problems;
    }

    /** The tokens of {@code main} (a key of {@code texts}, file name -> content) with its includes in place. */
    static List<Token> tokens(Map<String, String> texts, String main, Problems problems) {
        NamedConf c = new NamedConf(texts, problems);
        c.including.add(main);
        c.characters = length(texts.get(main));
        if (c.characters > MAX_CHARACTERS) {
            problems.add(main, 0, "more than " + MAX_CHARACTERS + " characters: too large");
            return c.out;
        }
        c.read(main, 0);
        return c.out;
    }

    /** Reads the file {@code name}, {@code depth} includes below named.conf, into {@link #out}. */
    private void read(String name, int depth) {
        String text = texts.get(name);
        if (text == null) {
            return; // given without content (JSON null): nothing to read
        }
        int line = 1;
        int i = 0;
        int n = text.length();
        while (i < n && !stopped) {
            if (out.size() > MAX_TOKENS) {
                stop(name, line, "more than " + MAX_TOKENS + " words with what it includes: too large");
                return;
            }
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#' || (c == '/' && i + 1 < n && text.charAt(i + 1) == '/')) {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                for (; i < end; i++) {
                    line += text.charAt(i) == '\n' ? 1 : 0;
                }
            } else if (c == '"') {
                int end = text.indexOf('"', i + 1);
                if (end < 0) {
                    problems.add(name, line, "a quoted string is not closed");
                    return;
                }
                out.add(new Token("\"" + text.substring(i + 1, end), name, line));
                i = end + 1;
            } else if (c == '{' || c == '}' || c == ';' || c == '!') {
                out.add(new Token(String.valueOf(c), name, line));
                i++;
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(text.charAt(i)) && "{};\"!#".indexOf(text.charAt(i)) < 0) {
                    i++;
                }
                out.add(new Token(text.substring(start, i), name, line));
            }
            if (out.size() >= 3
                    && out.get(out.size() - 1).text().equals(";")
                    && out.get(out.size() - 3).text().equals("include")) {
                Token path = out.get(out.size() - 2);
                out.subList(out.size() - 3, out.size()).clear();
                include(path, depth);
            }
        }
    }

    private void include(Token path, int depth) {
        String target = unquote(path.text());
        if (++includes > MAX_INCLUDES) {
            stop(
                    path.file(),
                    path.line(),
                    "include \"" + target + "\": more than " + MAX_INCLUDES
                            + " includes in all (each one counts, an empty file's too): too many");
            return;
        }
        String found = texts.keySet().stream()
                .filter(k -> k.equals(target) || k.endsWith("/" + target) || target.endsWith("/" + baseName(k)))
                .findFirst()
                .orElse(null);
        if (found == null || depth + 1 > MAX_DEPTH) {
            problems.add(
                    path.file(), path.line(), "include \"" + target + "\" was not given (or includes nest too deep)");
            return;
        }
        if (including.contains(found)) { // BIND would loop for ever; each pass here multiplied the text
            problems.add(path.file(), path.line(), "include \"" + target + "\" includes itself");
            return;
        }
        characters += length(texts.get(found));
        if (characters > MAX_CHARACTERS) {
            stop(
                    path.file(),
                    path.line(),
                    "include \"" + target + "\": more than " + MAX_CHARACTERS
                            + " characters read in all (a file counts each time it is included): too large");
            return;
        }
        including.add(found);
        read(found, depth + 1);
        including.removeLast();
    }

    private static int length(String text) {
        return text == null ? 0 : text.length();
    }

    private void stop(String file, int line, String message) {
        problems.add(file, line, message);
        stopped = true;
    }

    private static String baseName(String k) {
        int slash = k.lastIndexOf('/');
        return slash < 0 ? k : k.substring(slash + 1);
    }

    static String unquote(String t) {
        return t.startsWith("\"") ? t.substring(1) : t;
    }
}
