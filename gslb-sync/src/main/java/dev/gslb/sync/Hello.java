package dev.gslb.sync;

import dev.gslb.topology.Address;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The first frame each side sends once TLS is up: protocol version, who it is, where it listens.
 * A JOIN is a hello that also carries the one-time secret of a join token.
 */
record Hello(int version, String instance, String dataCenter, List<InetSocketAddress> addresses, byte[] secret) {
    static final int MAX_NAME = 64;
    static final int MAX_ADDRESSES = 8;
    /** The largest encoded hello: version, name, data center, the addresses, a join secret. */
    static final int MAX_BYTES = 2 + 2 * (2 + MAX_NAME) + 1 + MAX_ADDRESSES * (2 + MAX_NAME) + JoinToken.SECRET_BYTES;

    /** This instance's identity. */
    record Factory(String instance, String dataCenter, List<InetSocketAddress> addresses) {
        Hello hello() {
            return new Hello(Wire.PROTOCOL_VERSION, instance, dataCenter, addresses, null);
        }

        Hello join(byte[] secret) {
            return new Hello(Wire.PROTOCOL_VERSION, instance, dataCenter, addresses, secret);
        }
    }

    Wire.Type type() {
        return secret == null ? Wire.Type.HELLO : Wire.Type.JOIN;
    }

    byte[] encode() {
        return Wire.body(out -> {
            out.writeShort(version);
            Wire.writeName(out, instance);
            Wire.writeName(out, dataCenter);
            out.writeByte(addresses.size());
            for (InetSocketAddress a : addresses) {
                Wire.writeName(out, Address.hostPort(a));
            }
            if (secret != null) {
                out.write(secret);
            }
        });
    }

    static Hello decode(Wire.Frame f) throws Wire.ProtocolException {
        if (f.type() != Wire.Type.HELLO && f.type() != Wire.Type.JOIN) {
            throw new Wire.ProtocolException("expected HELLO, got " + f.type());
        }
        try (DataInputStream in = Wire.reader(f.body())) {
            int version = in.readUnsignedShort();
            if (version != Wire.PROTOCOL_VERSION) {
                throw new Wire.ProtocolException("it speaks sync protocol v" + version + ", this instance v"
                        + Wire.PROTOCOL_VERSION + "; upgrade one side");
            }
            String instance = Wire.readName(in, MAX_NAME);
            String dc = Wire.readName(in, MAX_NAME);
            int n = in.readUnsignedByte();
            if (n > MAX_ADDRESSES) {
                throw new Wire.ProtocolException(n + " addresses (at most " + MAX_ADDRESSES + ")");
            }
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                addresses.add(PeersFile.parse(Wire.readName(in, MAX_NAME)));
            }
            byte[] secret = null;
            if (f.type() == Wire.Type.JOIN) {
                secret = new byte[JoinToken.SECRET_BYTES];
                in.readFully(secret);
            }
            if (in.available() > 0) {
                throw new Wire.ProtocolException("trailing bytes in hello");
            }
            return new Hello(version, instance, dc, addresses, secret);
        } catch (Wire.ProtocolException e) {
            throw e;
        } catch (IOException | IllegalArgumentException e) {
            throw new Wire.ProtocolException("malformed hello: " + e.getMessage());
        }
    }
}
