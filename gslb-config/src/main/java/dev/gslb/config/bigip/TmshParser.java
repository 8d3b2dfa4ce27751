package dev.gslb.config.bigip;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads tmsh configuration text ({@code bigip_gtm.conf}, {@code tmsh list gtm}) into statements:
 * words separated by blanks, {@code "quoted strings"} (with {@code \"} inside), {@code { ... }}
 * blocks, a new line ending a statement, {@code #} opening a comment where a statement starts.
 * Hostile input is refused with its line, never read without bound: at most {@link #MAX_CHARS}
 * characters, {@link #MAX_DEPTH} nested blocks, {@link #MAX_WORD} characters in a word and
 * {@link #MAX_WORDS} words in a statement. One pass over the text, so time is linear in its size.
 */
final class TmshParser {
    static final int MAX_CHARS = 64 << 20;
    static final int MAX_DEPTH = 32;
    static final int MAX_WORD = 64 << 10;
    static final int MAX_WORDS = 10_000;
    /** Statements in all: a 50,000-line configuration has about 45,000. */
    static final int MAX_STATEMENTS = 1_000_000;

    private final String file;
    private final String text;
    private int pos;
    private int statements;
    private int line = 1;

    private TmshParser(String file, String text) {
        this.file = file;
        this.text = text;
    }

    /** The top-level statements of {@code text}, or the first error with its line. */
    static List<TmshNode> parse(String file, String text) throws TmshException {
        if (text.length() > MAX_CHARS) {
            throw new TmshException(file, 1, "larger than " + (MAX_CHARS >> 20) + " Mi characters; not read");
        }
        TmshParser p = new TmshParser(file, text);
        return p.block(0, 0);
    }

    /** Statements until the closing brace (depth above 0) or the end of the text (depth 0). */
    private List<TmshNode> block(int depth, int openedAt) throws TmshException {
        List<TmshNode> nodes = new ArrayList<>();
        List<String> words = new ArrayList<>();
        int start = line;
        while (true) {
            skipBlanks();
            if (pos >= text.length()) {
                if (depth > 0) {
                    throw new TmshException(file, openedAt, "'{' is never closed (the file ends at line " + line + ")");
                }
                end(nodes, words, null, start);
                return nodes;
            }
            char c = text.charAt(pos);
            if (c == '\n') {
                pos++;
                end(nodes, words, null, start);
                words = new ArrayList<>();
                line++;
                start = line;
            } else if (c == '#' && words.isEmpty()) {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '{') {
                if (depth + 1 > MAX_DEPTH) {
                    throw new TmshException(file, line, "blocks nested deeper than " + MAX_DEPTH);
                }
                int at = line;
                pos++;
                List<TmshNode> inner = block(depth + 1, at);
                add(nodes, new TmshNode(words, inner, words.isEmpty() ? at : start));
                words = new ArrayList<>();
                start = line;
            } else if (c == '}') {
                if (depth == 0) {
                    throw new TmshException(file, line, "'}' closes no block");
                }
                pos++;
                end(nodes, words, null, start);
                return nodes;
            } else {
                if (words.size() >= MAX_WORDS) {
                    throw new TmshException(file, start, "a statement of more than " + MAX_WORDS + " words");
                }
                words.add(c == '"' ? quoted() : word());
            }
        }
    }

    private void end(List<TmshNode> nodes, List<String> words, List<TmshNode> children, int start)
            throws TmshException {
        if (!words.isEmpty()) {
            add(nodes, new TmshNode(words, children, start));
        }
    }

    private void add(List<TmshNode> nodes, TmshNode node) throws TmshException {
        if (++statements > MAX_STATEMENTS) {
            throw new TmshException(file, node.line(), "more than " + MAX_STATEMENTS + " statements; not read");
        }
        nodes.add(node);
    }

    private void skipBlanks() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else if (c == '\\' && pos + 1 < text.length() && text.charAt(pos + 1) == '\n') {
                pos += 2; // a continued line
                line++;
            } else {
                return;
            }
        }
    }

    private String word() throws TmshException {
        int from = pos;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == '}' || c == '"') {
                break;
            }
            if (c < 0x20 || c == 0x7f) {
                throw new TmshException(file, line, "control character 0x" + Integer.toHexString(c) + " in a word");
            }
            pos++;
            if (pos - from > MAX_WORD) {
                throw new TmshException(file, line, "a word longer than " + MAX_WORD + " characters");
            }
        }
        return text.substring(from, pos);
    }

    /** A quoted string: {@code \"} is a quote; other escapes ({@code \r\n} of a monitor's send) are kept as written. */
    private String quoted() throws TmshException {
        int at = line;
        pos++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw new TmshException(file, at, "a quoted string is never closed");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return b.toString();
            }
            if (c == '\\' && pos < text.length() && text.charAt(pos) == '"') {
                c = '"';
                pos++;
            } else if (c == '\n') {
                line++;
            }
            if (b.length() >= MAX_WORD) {
                throw new TmshException(file, at, "a quoted string longer than " + MAX_WORD + " characters");
            }
            b.append(c);
        }
    }
}
