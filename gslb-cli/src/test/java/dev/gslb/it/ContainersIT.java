package dev.gslb.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Network.Ipam;
import com.github.dockerjava.api.model.Ulimit;
import dev.gslb.cli.log.LogFormat;
import dev.gslb.probe.Awaits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.MountableFile;

/**
 * The image as operators run it: two server containers, CNC and TEL, on a network of the test's
 * own (198.19.53.0/24), paired with the documented commands, and unbound in a third container as
 * the users' resolver. Nothing is pulled: the images are built by this build
 * (packaging/build-image.sh) on bases made from Debian's packages (packaging/base-images.sh).
 */
class ContainersIT {
    static final String IMAGE = System.getProperty("gslb.image", "gslb:latest");
    static final String TOOLS = "gslb-tools:bookworm";
    static final String UNBOUND_IP = "198.19.53.30";

    static Network network;
    static final List<GenericContainer<?>> started = new ArrayList<>();

    @BeforeAll
    static void network() {
        network = network("198.19.53.0/24");
    }

    /**
     * A user-defined network in the test range (198.18.0.0/15), as dockerd's own bridge is in CI. What
     * an interrupted earlier run left (Ryuk is off, so nothing else removes it) goes first: its
     * containers hold our names and its network our subnet, and the new ones could not be made.
     */
    static Network network(String subnet) {
        removeLeftovers(subnet);
        return Network.builder()
                .createNetworkCmdModifier(c -> c.withIpam(new Ipam().withConfig(new Ipam.Config().withSubnet(subnet))))
                .build();
    }

    static void removeLeftovers(String subnet) {
        DockerClient docker = DockerClientFactory.instance().client();
        for (var c : docker.listContainersCmd()
                .withShowAll(true)
                .withNameFilter(List.of("gslb-it-"))
                .exec()) {
            System.out.println("removing container " + String.join(",", c.getNames()) + " left by an earlier run");
            docker.removeContainerCmd(c.getId()).withForce(true).exec();
        }
        for (var n : docker.listNetworksCmd().exec()) {
            boolean ours = n.getIpam() != null
                    && n.getIpam().getConfig() != null
                    && n.getIpam().getConfig().stream().anyMatch(c -> subnet.equals(c.getSubnet()));
            if (ours) {
                System.out.println("removing network " + n.getName() + " (" + subnet + ") left by an earlier run");
                docker.removeNetworkCmd(n.getId()).exec();
            }
        }
    }

    @AfterAll
    static void removeAll() {
        started.forEach(GenericContainer::stop);
        network.close();
    }

    /** The descriptor limit the containers run with. */
    static final long NOFILE = 16_384;

    /** A server container as the README runs it: non-root, two capabilities, config and state volume. */
    static GenericContainer<?> server(String dc, String ip) {
        GenericContainer<?> c = new GenericContainer<>(IMAGE)
                .withNetwork(network)
                .withCreateContainerCmdModifier(cmd -> {
                    cmd.withIpv4Address(ip).withName("gslb-it-" + dc);
                    cmd.getHostConfig()
                            .withCapDrop(Capability.ALL)
                            .withCapAdd(Capability.NET_BIND_SERVICE, Capability.NET_RAW)
                            // as the README runs it (--ulimit nofile=65536), within this host's hard limit (20,000)
                            .withUlimits(List.of(new Ulimit("nofile", NOFILE, NOFILE)));
                })
                .withCopyFileToContainer(
                        MountableFile.forClasspathResource("containers/" + dc + ".yaml"), "/etc/gslb/gslb.yaml")
                .withCopyFileToContainer(
                        MountableFile.forClasspathResource("containers/example.com.zone"),
                        "/etc/gslb/zones/example.com.zone")
                .waitingFor(Wait.forHealthcheck().withStartupTimeout(Duration.ofSeconds(120)));
        started.add(c);
        c.start();
        return c;
    }

    @Test
    void pairedContainersAnswerThroughUnboundAndSurviveTheLossOfOne() throws Exception {
        GenericContainer<?> cnc = server("cnc", "198.19.53.10");
        GenericContainer<?> tel = server("tel", "198.19.53.20");

        // runs as gslb, with only the two capabilities effective on the server (pid 1)
        String status = run(cnc, "cat", "/proc/1/status");
        assertThat(status).containsPattern("Uid:\\s+([1-9]\\d*)\\s").contains("CapEff:\t0000000000002400");
        assertThat(run(cnc, "cat", "/proc/1/limits")).containsPattern("Max open files\\s+" + NOFILE + "\\s+" + NOFILE);
        assertThat(run(cnc, "gslb", "--version")).containsPattern("gslb \\S+\\nrevision \\S+");
        assertThat(run(cnc, "ls", "/opt/gslb/lib")).contains("gslb.aot", "gslb-serve.aot");
        assertThat(cnc.getLogs())
                .as("serve's AOT cache, recorded in the image, matches its jar and runtime")
                .doesNotContain("Unable to use AOT cache", "][aot");
        // the image's start-up (printed: timing is the benchmarks'): from the container's start to
        // the server's "DNS listening", both by the host's clock, with nothing polling it meanwhile
        Matcher listening =
                Pattern.compile("(\\S+) INFO DnsServer - DNS listening").matcher(cnc.getLogs());
        assertThat(listening.find()).as("DNS listening in the log").isTrue();
        java.time.Instant up = LogFormat.TIME.parse(listening.group(1), java.time.Instant::from);
        java.time.Instant startedAt =
                java.time.Instant.parse(cnc.getContainerInfo().getState().getStartedAt());
        System.out.printf(
                "image: DNS listening %d ms after the container started%n",
                Duration.between(startedAt, up).toMillis());

        // pairing as the README says: a token printed on one, given to the other
        Matcher token = Pattern.compile("\\n  (\\S+)\\n").matcher(run(cnc, "gslb", "peer", "pair"));
        assertThat(token.find()).as("a join token").isTrue();
        tel.copyFileToContainer(Transferable.of(token.group(1) + "\n"), "/tmp/join-token");
        run(tel, "gslb", "peer", "join", "--join-token-file", "/tmp/join-token");
        assertThat(run(cnc, "gslb", "peer", "list")).contains("gslb-tel").contains("connected");

        GenericContainer<?> unbound = new GenericContainer<>(TOOLS)
                .withNetwork(network)
                .withCreateContainerCmdModifier(
                        cmd -> cmd.withIpv4Address(UNBOUND_IP).withName("gslb-it-unbound"))
                .withCopyFileToContainer(
                        MountableFile.forClasspathResource("containers/unbound.conf"), "/etc/unbound/it.conf")
                .withCommand("unbound", "-d", "-c", "/etc/unbound/it.conf")
                .waitingFor(Wait.forLogMessage(".*start of service.*", 1).withStartupTimeout(Duration.ofSeconds(60)));
        started.add(unbound);
        unbound.start();

        String answer = Awaits.until(
                "the wide IP through unbound", Duration.ofSeconds(30), () -> ask(unbound), Objects::nonNull);
        assertThat(answer).isIn("198.19.53.110", "198.19.53.120");

        // each instance measured its own path to the resolver and got the other's by sync
        for (GenericContainer<?> c : List.of(cnc, tel)) {
            String paths = Awaits.until(
                    "both paths on " + c.getContainerName(),
                    Duration.ofSeconds(60),
                    () -> {
                        ask(unbound);
                        String json = quiet(c, "gslb", "ldns", "show", UNBOUND_IP, "--json");
                        return json.contains("\"CNC\"") && json.contains("\"TEL\"") ? json : null;
                    },
                    Objects::nonNull);
            assertThat(paths).contains("rttMicros");
        }

        // docker stop sends SIGTERM: the server shuts down (exit 143), not killed after the grace time
        var docker = DockerClientFactory.instance().client();
        long t0 = System.nanoTime();
        docker.stopContainerCmd(cnc.getContainerId()).withTimeout(30).exec();
        long stopMillis = (System.nanoTime() - t0) / 1_000_000;
        Long exit = docker.inspectContainerCmd(cnc.getContainerId())
                .exec()
                .getState()
                .getExitCodeLong();
        assertThat(exit).as("exit code after SIGTERM (137 would be a kill)").isEqualTo(143L);
        assertThat(cnc.getLogs()).contains("shutting down");
        System.out.printf("ContainersIT: CNC stopped by SIGTERM in %d ms%n", stopMillis);

        // answers keep coming, from TEL's instance: unbound may fail the query in flight when CNC
        // goes (the clients of a resolver retry); from the first answer on, every one is answered
        long t1 = System.nanoTime();
        Awaits.until("an answer with CNC stopped", Duration.ofSeconds(20), () -> ask(unbound), Objects::nonNull);
        System.out.printf(
                "ContainersIT: first answer through unbound %d ms after CNC stopped%n",
                (System.nanoTime() - t1) / 1_000_000);
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            answers.add(answerOrWhy(unbound));
            Thread.sleep(1000); // kept: the pace of the traffic under test, ten queries over ten seconds
        }
        long answered = answers.stream().filter(a -> a.matches(ADDRESS)).count();
        System.out.printf("ContainersIT: then %d of 10 queries answered, one a second: %s%n", answered, answers);
        if (answered < 10) { // what the resolver and the instance left said meanwhile
            for (GenericContainer<?> c : List.of(unbound, tel)) {
                List<String> log = c.getLogs().lines().toList();
                System.out.printf(
                        "ContainersIT: %s's log, last lines:%n%s%n",
                        c.getContainerName(), String.join("\n", log.subList(Math.max(0, log.size() - 30), log.size())));
            }
        }
        assertThat(answered).isEqualTo(10);
        assertThat(run(tel, "gslb", "stats", "--json")).contains("www.example.com");
    }

    private static final String ADDRESS = "\\d+\\.\\d+\\.\\d+\\.\\d+";

    /** The wide IP's address as unbound answers it, or null. */
    static String ask(GenericContainer<?> unbound) {
        String answer = answerOrWhy(unbound);
        return answer.matches(ADDRESS) ? answer : null;
    }

    /**
     * The wide IP's address as unbound answers it, else what came instead: the answer's status
     * (SERVFAIL, NOERROR with no address) and the time unbound took, dig's own words, or the
     * failure of the test's docker exec.
     */
    static String answerOrWhy(GenericContainer<?> unbound) {
        String out;
        try {
            out = unbound.execInContainer("dig", "+tries=3", "+time=2", "@127.0.0.1", "www.example.com", "A")
                    .getStdout();
        } catch (Exception e) { // the test's own docker exec, not the resolver
            return "docker exec failed: " + e;
        }
        Matcher address = Pattern.compile("(?m)^www\\.example\\.com\\.\\s+\\d+\\s+IN\\s+A\\s+(" + ADDRESS + ")$")
                .matcher(out);
        if (address.find()) {
            return address.group(1);
        }
        Matcher status = Pattern.compile("status: (\\w+)").matcher(out);
        Matcher time = Pattern.compile("Query time: (\\d+ msec)").matcher(out);
        return status.find()
                ? status.group(1) + (time.find() ? " in " + time.group(1) : "")
                : "no answer: " + String.join(" / ", out.strip().lines().toList());
    }

    /** Runs a command in the container; it must exit 0. */
    static String run(GenericContainer<?> c, String... command) throws Exception {
        ExecResult r = c.execInContainer(command);
        assertThat(r.getExitCode())
                .as(String.join(" ", command) + "\n" + r.getStdout() + r.getStderr())
                .isZero();
        return r.getStdout();
    }

    static String quiet(GenericContainer<?> c, String... command) {
        try {
            return c.execInContainer(command).getStdout();
        } catch (Exception e) {
            return "";
        }
    }
}
