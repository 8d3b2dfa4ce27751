package dev.gslb.probe.health;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs an operator's program: exit code 0 is up. "{address}" in the arguments becomes the
 * virtual server's address, which is also in the environment as GSLB_ADDRESS.
 */
public record ExternalCheck(List<String> command) implements Check {
    public ExternalCheck {
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("an external monitor needs a command");
        }
    }

    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        String ip = address.getHostAddress();
        ProcessBuilder pb = new ProcessBuilder(
                        command.stream().map(a -> a.replace("{address}", ip)).toList())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("GSLB_ADDRESS", ip);
        try {
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return CheckResult.fail("external check timed out");
            }
            int code = p.exitValue();
            return code == 0 ? CheckResult.ok("exit 0") : CheckResult.fail("exit " + code);
        } catch (IOException e) {
            return CheckResult.fail("cannot run " + command.getFirst() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CheckResult.fail("interrupted");
        }
    }
}
