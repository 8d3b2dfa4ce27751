package dev.gslb.dns.dnstap;

import dev.gslb.probe.store.StateFile;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A dnstap file: START, the data frames, STOP at close. A Frame Streams file holds one stream, so
 * a start writes a new file; the one a previous run left is kept beside it as {@code FILE.1}.
 */
final class FrameFile extends FrameStream {
    private final OutputStream out;

    private FrameFile(OutputStream out) {
        this.out = out;
    }

    /**
     * Opens {@code path} and writes START.
     *
     * @throws IOException naming the file when it cannot be written
     */
    static FrameFile open(Path path) throws IOException {
        try {
            if (Files.isRegularFile(path) && Files.size(path) > 0) {
                Files.move(path, path.resolveSibling(path.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
            }
            StateFile.createEmpty(path); // a query log holds client addresses: owner-only from creation
            FrameFile f = new FrameFile(new BufferedOutputStream(Files.newOutputStream(path), 64 << 10));
            f.writeControl(START, true);
            return f;
        } catch (IOException e) {
            throw new IOException("dnstap: cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    private void writeControl(int type, boolean typed) throws IOException {
        ByteBuffer b = control(type, typed);
        out.write(b.array(), 0, b.limit());
    }

    @Override
    void write(byte[] frame, int offset, int length) throws IOException {
        out.write(length >>> 24);
        out.write(length >>> 16);
        out.write(length >>> 8);
        out.write(length);
        out.write(frame, offset, length);
    }

    @Override
    void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        try (out) {
            writeControl(STOP, false);
        }
    }
}
