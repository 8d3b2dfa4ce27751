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
 * body decoders either read them or refuse them with an {@link IOException} (a malformed or
 * unauthenticated frame ends the connection); nothing else escapes. Seeds: FrameFuzzTestInputs.
 */
class FrameFuzzTest {
    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anyBytesAreReadOrRefusedWithAnIoException(byte[] data) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
        try {
            for (; ; ) {
                Wire.Frame f = Wire.read(in);
                switch (f.type()) {
                    case HELLO, HELLO_ACK -> Hello.decode(f.body());
                    case PATHS, HEALTH, PROBE -> Item.decode(f.type(), f.body());
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
