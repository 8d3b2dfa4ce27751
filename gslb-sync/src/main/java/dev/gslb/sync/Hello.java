package dev.gslb.sync;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** The first frame each side sends: protocol version, who it is, where it listens, a fresh nonce. */
record Hello(int version, String instance, String dataCenter, List<InetSocketAddress> addresses, byte[] nonce) {
    /** This instance's identity, stamped with a fresh nonce per connection. */
    record Factory(String instance, String dataCenter, List<InetSocketAddress> addresses) {
        Hello hello(byte[] nonce) {
            return new Hello(Wire.PROTOCOL_VERSION, instance, dataCenter, addresses, nonce);
        }
    }

    byte[] encode() {
        return Wire.body(out -> {
            out.writeShort(version);
            out.writeUTF(instance);
            out.writeUTF(dataCenter);
            out.writeByte(addresses.size());
            for (InetSocketAddress a : addresses) {
                out.writeUTF(PeersFile.format(a));
            }
            out.write(nonce);
        });
    }

    static Hello decode(byte[] body) throws Wire.AuthException {
        try (DataInputStream in = Wire.reader(body)) {
            int version = in.readUnsignedShort();
            String instance = in.readUTF();
            String dc = in.readUTF();
            int n = in.readUnsignedByte();
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                addresses.add(PeersFile.parse(in.readUTF()));
            }
            byte[] nonce = new byte[16];
            in.readFully(nonce);
            return new Hello(version, instance, dc, addresses, nonce);
        } catch (IOException | IllegalArgumentException e) {
            throw new Wire.AuthException("malformed hello: " + e.getMessage());
        }
    }
}
