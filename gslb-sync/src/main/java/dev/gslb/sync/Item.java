package dev.gslb.sync;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.site.HealthState;
import dev.gslb.site.ServerLoad;
import dev.gslb.topology.Address;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** What peers exchange; every item carries when it was measured and how long it is good for. */
sealed interface Item {
    long at();

    long ttlMillis();

    default boolean expired(long now) {
        return at() + ttlMillis() < now;
    }

    Wire.Type type();

    /** A path measured by the sender's data center (the only writer of it). */
    record PathItem(Address ldns, Path path, long ttlMillis) implements Item {
        @Override
        public long at() {
            return path.measuredAt();
        }

        @Override
        public Wire.Type type() {
            return Wire.Type.PATHS;
        }
    }

    /** The sender's view of one virtual server. */
    record HealthItem(String server, HealthState state, long at, long ttlMillis) implements Item {
        @Override
        public Wire.Type type() {
            return Wire.Type.HEALTH;
        }
    }

    /**
     * A link of the sender's data center as the sender measured it; traffic -1 is unknown;
     * {@code reason} is what its gateway check or traffic source last said (at most 255 bytes).
     */
    record LinkItem(
            String link,
            HealthState state,
            long inBps,
            long outBps,
            boolean overLimit,
            String reason,
            long at,
            long ttlMillis)
            implements Item {
        @Override
        public Wire.Type type() {
            return Wire.Type.LINKS;
        }
    }

    /**
     * The load of a virtual server of the sender's data center as the sender measured it (-1
     * unknown). Only whether it is over a limit travels: the receiver words the reason from its own
     * limits, as it does a link's, and stamps the sender's data center.
     */
    record LoadItem(String server, ServerLoad load, long at, long ttlMillis) implements Item {
        @Override
        public Wire.Type type() {
            return Wire.Type.LOADS;
        }
    }

    /** "Measure this LDNS from your side too"; never forwarded by the receiver. */
    record ProbeItem(Address ldns, long at, long ttlMillis) implements Item {
        @Override
        public Wire.Type type() {
            return Wire.Type.PROBE;
        }
    }

    /**
     * All of something at once: one to a frame, only the newest of a batch is sent, and it never
     * expires in a queue (a newer one replaces it at the receiver).
     */
    sealed interface Whole extends Item permits ConfigItem, OfferItem {
        @Override
        default long ttlMillis() {
            return Long.MAX_VALUE / 2;
        }
    }

    /** The sender's shared configuration (its content, or only its state when the bundle is empty). */
    record ConfigItem(ConfigExchange.Offer offer, long at) implements Whole {
        @Override
        public Wire.Type type() {
            return Wire.Type.CONFIG;
        }
    }

    /** All of the sender's runtime states, or all its DNSSEC keys: an offer of one kind (the owner's encoding). */
    record OfferItem(OfferKind kind, OfferExchange.Offer offer) implements Whole {
        @Override
        public long at() {
            return 0; // not a measurement: the generation orders them
        }

        @Override
        public Wire.Type type() {
            return kind.type;
        }
    }

    /** The sender answered a client network of a persistent wide IP with {@code server}, until at + ttl. */
    record PersistItem(String wideIp, long hi, long lo, String server, long at, long ttlMillis) implements Item {
        @Override
        public Wire.Type type() {
            return Wire.Type.PERSIST;
        }
    }

    /** At most {@link #MAX_SERVER_NAME} bytes of UTF-8, cut at a character boundary. */
    static String truncated(String text) {
        return truncated(text, MAX_SERVER_NAME);
    }

    static String truncated(String text, int max) {
        String t = text == null ? "" : text;
        while (t.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > max) {
            t = t.substring(0, t.length() - 1);
        }
        return t;
    }

    static void writeVersion(DataOutputStream out, ConfigVersion v) throws IOException {
        out.writeLong(v.generation());
        Wire.writeName(out, v.origin());
        Wire.writeName(out, v.digest());
    }

    static ConfigVersion readVersion(DataInputStream in) throws IOException {
        long generation = in.readLong();
        if (generation < 0) {
            throw new Wire.ProtocolException("configuration generation " + generation);
        }
        return new ConfigVersion(generation, readName(in), Wire.readName(in, 64));
    }

    private static String readName(DataInputStream in) throws IOException {
        return Wire.readName(in, MAX_SERVER_NAME);
    }

    /** Four bytes for IPv4 (mapped), else sixteen; written from the two longs (a snapshot writes millions). */
    static void writeAddress(DataOutputStream out, Address k) throws IOException {
        if (k.ipv4()) {
            out.writeByte(4);
            out.writeInt((int) k.lo());
        } else {
            out.writeByte(16);
            out.writeLong(k.hi());
            out.writeLong(k.lo());
        }
    }

    static Address readAddress(DataInputStream in) throws IOException {
        return switch (in.readUnsignedByte()) {
            case 4 -> Address.ofIpv4(in.readInt());
            case 16 -> new Address(in.readLong(), in.readLong());
            default -> throw new IOException("bad address length");
        };
    }

    /** No probe waits this long: a longer RTT is not a measurement. */
    int MAX_RTT_MICROS = 60_000_000;

    /** The longest virtual-server or link name an item may carry. */
    int MAX_SERVER_NAME = 255;

    /** The longest persistence-ttl the configuration accepts (7 days). */
    int MAX_PERSIST_SECONDS = 7 * 86_400;

    /** A refusal's text is cut to this many bytes. */
    int MAX_REFUSAL = 2000;

    /** No link carries more (1 Pbit/s): a larger rate is not a measurement. */
    long MAX_BPS = 1_000_000_000_000_000L;

    /** No server holds more connections, sends more packets a second or has more servers behind it. */
    long MAX_COUNT = 1_000_000_000_000L;

    /** A one-minute load average above this is not a measurement. */
    double MAX_LOAD_AVERAGE = 1_000_000;

    /**
     * One frame's body of items of one kind. Paths carry no data center or instance: the receiver
     * takes both from the pairing, so a peer cannot write another data center's paths.
     */
    static byte[] encode(Wire.Type type, java.util.List<? extends Item> items) {
        return Wire.body(out -> {
            out.writeShort(items.size());
            for (Item it : items) {
                switch (it) {
                    case PathItem p -> {
                        writeAddress(out, p.ldns());
                        out.writeInt(p.path().rttMicros());
                        out.writeShort(p.path().completion());
                        out.writeByte(p.path().hops());
                        out.writeByte(p.path().protocol().ordinal());
                        out.writeLong(p.path().measuredAt());
                        out.writeInt((int) (p.ttlMillis() / 1000));
                    }
                    case HealthItem h -> {
                        Wire.writeName(out, h.server());
                        out.writeByte(h.state().ordinal());
                        out.writeLong(h.at());
                        out.writeInt((int) (h.ttlMillis() / 1000));
                    }
                    case LinkItem l -> {
                        Wire.writeName(out, l.link());
                        out.writeByte(l.state().ordinal());
                        out.writeLong(l.inBps());
                        out.writeLong(l.outBps());
                        out.writeBoolean(l.overLimit());
                        Wire.writeName(out, truncated(l.reason()));
                        out.writeLong(l.at());
                        out.writeInt((int) (l.ttlMillis() / 1000));
                    }
                    case LoadItem l -> {
                        Wire.writeName(out, truncated(l.server()));
                        ServerLoad v = l.load();
                        out.writeLong(v.connections());
                        out.writeDouble(v.cpuPercent());
                        out.writeDouble(v.memoryPercent());
                        out.writeDouble(v.loadAverage());
                        out.writeLong(v.bytesPerSecond());
                        out.writeLong(v.packetsPerSecond());
                        out.writeInt(v.serversUp());
                        out.writeBoolean(v.overLimit());
                        out.writeLong(l.at());
                        out.writeInt((int) (l.ttlMillis() / 1000));
                    }
                    case ProbeItem r -> {
                        writeAddress(out, r.ldns());
                        out.writeLong(r.at());
                        out.writeInt((int) (r.ttlMillis() / 1000));
                    }
                    case PersistItem p -> {
                        Wire.writeName(out, truncated(p.wideIp()));
                        out.writeLong(p.hi());
                        out.writeLong(p.lo());
                        Wire.writeName(out, truncated(p.server()));
                        out.writeLong(p.at());
                        out.writeInt((int) (p.ttlMillis() / 1000));
                    }
                    case ConfigItem c -> {
                        ConfigExchange.Offer o = c.offer();
                        writeVersion(out, o.version());
                        out.writeBoolean(o.sync());
                        out.writeBoolean(o.refused() != null);
                        if (o.refused() != null) {
                            writeVersion(out, o.refused());
                        }
                        Wire.writeName(out, truncated(o.refusal(), MAX_REFUSAL));
                        out.writeInt(o.bundle().length);
                        out.write(o.bundle());
                    }
                    case OfferItem o -> {
                        out.writeLong(o.offer().generation());
                        Wire.writeName(out, o.offer().origin());
                        out.writeInt(o.offer().content().length);
                        out.write(o.offer().content());
                    }
                }
            }
        });
    }

    /**
     * The one item of a frame carrying an offer of {@code kind} (RUNTIME, KEYS): a generation of at
     * least 0, an instance name, content of at most {@link OfferKind#maxBytes} bytes, and nothing
     * after it.
     */
    private static OfferItem readOffer(DataInputStream in, OfferKind kind) throws IOException {
        try {
            int count = in.readUnsignedShort();
            if (count != 1) {
                throw new Wire.ProtocolException(count + " " + kind.item + " items in a frame (one only)");
            }
            long generation = in.readLong();
            if (generation < 0) {
                throw new Wire.ProtocolException(kind.what + " generation " + generation);
            }
            String origin = Wire.readName(in, Hello.MAX_NAME);
            int n = in.readInt();
            if (n < 0 || n > kind.maxBytes || n > in.available()) {
                throw new Wire.ProtocolException(kind.what + " of " + n + " bytes (at most " + kind.maxBytes
                        + ", and no more than the frame holds)");
            }
            byte[] content = new byte[n];
            in.readFully(content);
            if (in.available() > 0) {
                throw new Wire.ProtocolException("trailing bytes after the " + kind.what);
            }
            return new OfferItem(kind, new OfferExchange.Offer(generation, origin, content));
        } catch (java.io.EOFException e) {
            throw new Wire.ProtocolException("a truncated " + kind.item + " item");
        }
    }

    /**
     * One server's load from {@code peer}: each value unknown (-1) or in its range, else the frame
     * is refused; stamped with the peer's data center, its reason a placeholder the receiver words.
     */
    private static LoadItem readLoad(DataInputStream in, Peer peer) throws IOException {
        String server = Wire.readName(in, MAX_SERVER_NAME);
        long connections = inRange(in.readLong(), MAX_COUNT, "connections");
        double cpu = inRange(in.readDouble(), 100, "cpu");
        double memory = inRange(in.readDouble(), 100, "memory");
        double loadAverage = inRange(in.readDouble(), MAX_LOAD_AVERAGE, "load average");
        long bytes = inRange(in.readLong(), MAX_BPS / 8, "bytes per second");
        long packets = inRange(in.readLong(), MAX_COUNT, "packets per second");
        int serversUp = (int) inRange(in.readInt(), Integer.MAX_VALUE, "servers up");
        String over = in.readBoolean() ? server + " over limit, as measured by " + peer.name() : null;
        long at = in.readLong();
        ServerLoad load = new ServerLoad(
                connections, cpu, memory, loadAverage, bytes, packets, serversUp, over, at, peer.dataCenter());
        return new LoadItem(server, load, at, in.readInt() * 1000L);
    }

    private static long inRange(long v, long max, String what) throws Wire.ProtocolException {
        if (v < -1 || v > max) {
            throw new Wire.ProtocolException("a server's " + what + " out of range: " + v);
        }
        return v;
    }

    private static double inRange(double v, double max, String what) throws Wire.ProtocolException {
        if (!(v == -1 || (v >= 0 && v <= max))) { // NaN is neither
            throw new Wire.ProtocolException("a server's " + what + " out of range: " + v);
        }
        return v;
    }

    /**
     * A frame of paths, read from a ByteBuffer (big-endian, as DataOutputStream wrote it): a fresh
     * peer's snapshot is millions of them, and a DataInputStream's call per field through a
     * ByteArrayInputStream's lock was a third of the receiving thread's time.
     */
    private static java.util.List<Item> readPaths(byte[] body, Path.Origin origin) throws IOException {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(body);
        ProbeProtocol[] protocols = ProbeProtocol.values(); // a copy per frame, not per path
        try {
            int n = Short.toUnsignedInt(in.getShort());
            java.util.List<Item> items = new java.util.ArrayList<>(Math.min(n, body.length / 25)); // 25: an IPv4 path
            for (int i = 0; i < n; i++) {
                Address k = switch (Byte.toUnsignedInt(in.get())) {
                    case 4 -> Address.ofIpv4(in.getInt());
                    case 16 -> new Address(in.getLong(), in.getLong());
                    default -> throw new Wire.ProtocolException("bad address length");
                };
                int rtt = in.getInt();
                int completion = in.getShort();
                int hops = Byte.toUnsignedInt(in.get());
                ProbeProtocol proto = protocols[Byte.toUnsignedInt(in.get()) % protocols.length];
                long at = in.getLong();
                long ttl = in.getInt() * 1000L;
                if (rtt < 0 || rtt > MAX_RTT_MICROS || completion < 0 || completion > 10_000) {
                    throw new Wire.ProtocolException(
                            "a path out of range (rtt " + rtt + " us, completion " + completion + ")");
                }
                items.add(new PathItem(k, origin.path(rtt, completion, hops, proto, at), ttl));
            }
            return items;
        } catch (java.nio.BufferUnderflowException e) {
            throw new java.io.EOFException("a truncated path item");
        }
    }

    /** The items of a frame from {@code peer}: its paths are stamped with its data center and name. */
    static java.util.List<Item> decode(Wire.Type type, byte[] body, Peer peer) throws IOException {
        if (type == Wire.Type.PATHS) {
            return readPaths(body, new Path.Origin(peer.dataCenter(), peer.name()));
        }
        java.util.List<Item> items = new java.util.ArrayList<>();
        try (DataInputStream in = Wire.reader(body)) {
            OfferKind offered = OfferKind.of(type);
            if (offered != null) {
                return java.util.List.of(readOffer(in, offered));
            }
            int n = in.readUnsignedShort();
            for (int i = 0; i < n; i++) {
                switch (type) {
                    case HEALTH ->
                        items.add(new HealthItem(
                                Wire.readName(in, MAX_SERVER_NAME),
                                HealthState.values()[in.readUnsignedByte() % HealthState.values().length],
                                in.readLong(),
                                in.readInt() * 1000L));
                    case LINKS -> {
                        String link = Wire.readName(in, MAX_SERVER_NAME);
                        HealthState state = HealthState.values()[in.readUnsignedByte() % HealthState.values().length];
                        long inBps = in.readLong();
                        long outBps = in.readLong();
                        if (inBps < -1 || inBps > MAX_BPS || outBps < -1 || outBps > MAX_BPS) {
                            throw new Wire.ProtocolException(
                                    "link traffic out of range (in " + inBps + ", out " + outBps + " bit/s)");
                        }
                        boolean over = in.readBoolean();
                        String reason = Wire.readName(in, MAX_SERVER_NAME);
                        items.add(new LinkItem(
                                link, state, inBps, outBps, over, reason, in.readLong(), in.readInt() * 1000L));
                    }
                    case LOADS -> items.add(readLoad(in, peer));
                    case PROBE -> items.add(new ProbeItem(readAddress(in), in.readLong(), in.readInt() * 1000L));
                    case PERSIST -> {
                        String w = Wire.readName(in, MAX_SERVER_NAME);
                        long hi = in.readLong();
                        long lo = in.readLong();
                        String server = Wire.readName(in, MAX_SERVER_NAME);
                        long at = in.readLong();
                        int ttl = in.readInt();
                        if (ttl < 0 || ttl > MAX_PERSIST_SECONDS) {
                            throw new Wire.ProtocolException("a persistence TTL of " + ttl + " s");
                        }
                        items.add(new PersistItem(w, hi, lo, server, at, ttl * 1000L));
                    }
                    case CONFIG -> {
                        ConfigVersion v = readVersion(in);
                        boolean sync = in.readBoolean();
                        ConfigVersion refused = in.readBoolean() ? readVersion(in) : null;
                        String refusal = Wire.readName(in, MAX_REFUSAL);
                        int n2 = in.readInt();
                        if (n2 < 0 || n2 > in.available()) {
                            throw new Wire.ProtocolException("a configuration of " + n2 + " bytes in a shorter frame");
                        }
                        byte[] bundle = new byte[n2];
                        in.readFully(bundle);
                        items.add(new ConfigItem(new ConfigExchange.Offer(v, sync, refused, refusal, bundle), 0));
                    }
                    default -> throw new Wire.ProtocolException("no items in a " + type + " frame");
                }
            }
        }
        return items;
    }
}
