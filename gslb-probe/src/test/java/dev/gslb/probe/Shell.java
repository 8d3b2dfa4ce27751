package dev.gslb.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs a system command for test set-up (ip netns, nft); fails loudly with its output. */
public final class Shell {
    private Shell() {}

    public static String run(String... command) {
        try {
            Process p = new ProcessBuilder(List.of(command))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Like {@link #run} but ignores failure (clean-up of what may not exist). */
    public static void quietly(String... command) {
        try {
            run(command);
        } catch (IllegalStateException e) {
            // nothing to clean
        }
    }
}
