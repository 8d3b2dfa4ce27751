package dev.gslb.dns.dnstap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** BIND's {@code dnstap-read} (Debian's bind9-dnsutils), the reader the tests hold the files to. */
public final class DnstapRead {
    private DnstapRead() {}

    /** {@code dnstap-read -y FILE}: every message in YAML; fails when the reader does not take the file. */
    public static String yaml(Path file) throws IOException, InterruptedException {
        return run("dnstap-read", "-y", file.toString());
    }

    /** A reader's output; fails with what it said when it exits other than 0. */
    public static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
