package dev.gslb.sync;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Whatever bytes a peer (or anyone who reaches the sync port) sends, the frame reader and the
 * body decoders either read them or refuse them with an {@link IOException} (a malformed frame
 * ends the connection); nothing else escapes. TLS runs below this: these are the bytes a paired
 * peer could send. Seeds: FrameFuzzTestInputs.
 */
class FrameFuzzTest {
    private static final Peer PEER = new Peer("b", "TEL", java.util.List.of(), "0".repeat(64));

    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anyBytesAreReadOrRefusedWithAnIoException(byte[] data) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
        try {
            for (; ; ) {
                Wire.Frame f = Wire.read(in);
                switch (f.type()) {
                    case HELLO, JOIN -> Hello.decode(f);
                    case PATHS, HEALTH, PROBE, LINKS, RUNTIME, KEYS -> Item.decode(f.type(), f.body(), PEER);
                    case HEARTBEAT -> Wire.reader(f.body()).readLong();
                }
            }
        } catch (EOFException end) {
            // the stream ended, mid-frame or between frames
        } catch (IOException refused) {
            // a malformed frame: the connection would be closed
        }
    }
}
