package dev.gslb.cli;

import dev.gslb.server.GslbServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** Two real servers of a test, A and B, on loopback, each in its folder under {@link #dir}; stopped after each test. */
abstract class LoopbackPair {
    @TempDir
    Path dir;

    GslbServer a;
    GslbServer b;

    @AfterEach
    void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }
}
