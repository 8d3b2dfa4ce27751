package dev.gslb.dns.answer;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finished answers to static questions, keyed by everything in the query that shapes the answer
 * (flags, lower-cased question, OPT record, transport). A hit only needs the ID and the
 * question's letter case copied in. Bounded: when full it starts over, so a flood of distinct
 * names cannot grow it. Belongs to one {@link Authority}; a reload starts an empty one.
 */
final class ResponseCache {
    private final ConcurrentHashMap<Key, byte[]> answers = new ConcurrentHashMap<>();
    private final int capacity;

    ResponseCache(int capacity) {
        this.capacity = capacity;
    }

    static Key key(byte[] query, int length, int qnameEnd, Transport transport) {
        byte[] k = Arrays.copyOfRange(query, 1, length);
        k[0] = (byte) transport.ordinal(); // the second ID byte is not part of the key
        WireName.lowerCase(k, QueryView.HEADER - 1, qnameEnd - 1);
        return new Key(k, Arrays.hashCode(k));
    }

    byte[] get(Key key) {
        return answers.get(key);
    }

    void put(Key key, byte[] response) {
        if (answers.size() >= capacity) {
            answers.clear();
        }
        answers.put(key, response);
    }

    record Key(byte[] bytes, int hash) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
