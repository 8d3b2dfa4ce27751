package dev.gslb.probe.health;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program of the monitor-programs folder: exit code 0 is up. "{address}" in the arguments
 * becomes the virtual server's address, which is also in the environment as GSLB_ADDRESS. Only a
 * program {@link ProgramAllowList} found in the folder runs: until then the check runs nothing
 * and fails, so a monitor that missed the folder cannot run what it names.
 *
 * @param command the program's name and its arguments, as configured
 * @param program where the folder holds that program, or null: not found there
 */
public record ExternalCheck(List<String> command, Path program) implements Check {
    static final Setting<List<String>> COMMAND = Setting.list(
                    "command", String.class, null, "a program of monitor-programs, by its name, and its arguments")
            .derived("required");

    /** The keys of an {@code external} monitor. */
    public static final SettingsTable<ExternalCheck> SETTINGS = SettingsTable.of(ExternalCheck.class, v -> {
                List<String> command = v.get(COMMAND);
                if (command == null || command.isEmpty()) {
                    throw new IllegalArgumentException("an external monitor needs 'command:' (a list)");
                }
                return new ExternalCheck(command);
            })
            .add(COMMAND, ExternalCheck::command);

    public ExternalCheck {
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("an external monitor needs a command");
        }
    }

    /** As configured: not looked for in the folder yet. */
    public ExternalCheck(List<String> command) {
        this(command, null);
    }

    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        if (program == null) {
            return CheckResult.fail(command.getFirst() + " is not a program of the monitor-programs folder");
        }
        String ip = address.getHostAddress();
        List<String> argv = new ArrayList<>();
        argv.add(program.toString());
        command.stream().skip(1).map(a -> a.replace("{address}", ip)).forEach(argv::add);
        ProcessBuilder pb =
                new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
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
