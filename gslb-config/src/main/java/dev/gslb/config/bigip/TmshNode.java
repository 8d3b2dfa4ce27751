package dev.gslb.config.bigip;

import java.util.ArrayList;
import java.util.List;

/**
 * One statement of a tmsh configuration: its words (quotes taken off) and, when it opens a block,
 * the statements inside; {@code line} is where it starts. {@code gtm pool a /Common/web { ... }} is
 * one node of four words whose children are the pool's properties.
 */
record TmshNode(List<String> words, List<TmshNode> children, int line) {
    TmshNode {
        words = List.copyOf(words);
        children = children == null ? null : List.copyOf(children);
    }

    String word(int i) {
        return i < words.size() ? words.get(i) : null;
    }

    String key() {
        return words.isEmpty() ? "" : words.getFirst();
    }

    /** The words after the key, joined by a space ({@code limit-max-bps 100} gives "100"). */
    String value() {
        return words.size() < 2 ? "" : String.join(" ", words.subList(1, words.size()));
    }

    boolean isBlock() {
        return children != null;
    }

    List<TmshNode> childrenOrEmpty() {
        return children == null ? List.of() : children;
    }

    /**
     * The items of a list block ({@code aliases { a b }}, or one per line, or {@code members { x { ... } }}):
     * every word of every statement inside, in order.
     */
    List<String> items() {
        List<String> out = new ArrayList<>();
        for (TmshNode c : childrenOrEmpty()) {
            out.addAll(c.words());
        }
        return out;
    }
}
