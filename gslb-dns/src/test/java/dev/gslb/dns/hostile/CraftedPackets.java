package dev.gslb.dns.hostile;

import java.io.ByteArrayOutputStream;

/** Packets an attacker sends: built by hand, because no DNS library would write them. */
public final class CraftedPackets {
    /** The highest offset a compression pointer can reach (14 bits). */
    private static final int POINTER_REACH = 0x3FFF;

    private CraftedPackets() {}

    /**
     * A query of about {@code size} bytes whose questions all lead down one ladder of backward
     * compression pointers. Below 16 KiB (the pointers' reach) each question's name, type and
     * class are pointers to the field before them, three hops per question; every question after
     * that points at the top of the ladder, so reading it costs the whole ladder again. A parser
     * without a cap on hops walks about a hundred million pointers for one 64 KiB datagram.
     */
    public static byte[] pointerChain(int size) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(size);
        b.writeBytes(new byte[] {0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}); // QDCOUNT set below
        b.writeBytes(new byte[] {1, 'a', 0, 0, 1, 0, 1}); // "a." A IN, the ladder's foot
        int top = 12;
        int questions = 1;
        while (b.size() + 6 <= size) {
            int at = b.size();
            if (at + 4 <= POINTER_REACH) { // a rung: name -> previous top, type -> name, class -> type
                pointer(b, top);
                pointer(b, at);
                pointer(b, at + 2);
                top = at + 4;
            } else {
                pointer(b, top);
                b.writeBytes(new byte[] {0, 1, 0, 1});
            }
            questions++;
        }
        byte[] p = b.toByteArray();
        p[4] = (byte) (questions >> 8);
        p[5] = (byte) questions;
        return p;
    }

    private static void pointer(ByteArrayOutputStream b, int to) {
        b.write(0xC0 | (to >> 8));
        b.write(to);
    }
}
