package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.GlobalEventExecutor;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DnsServerStopTest {
    /**
     * A stop waits on the event loops themselves, not on the group's termination future: netty
     * completes that future from its GlobalEventExecutor, and a server was seen hanging at stop
     * with its loops ended and that executor never running the completion. Here the executor is
     * kept busy on purpose while the server stops.
     */
    @Test
    void aStopEndsWhileNettysGlobalExecutorIsBusy() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GlobalEventExecutor.INSTANCE.execute(() -> {
            busy.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            ExampleDeployment d = new ExampleDeployment(1);
            Thread stop = Thread.ofPlatform().start(d::close);
            stop.join(Duration.ofSeconds(20));
            assertThat(stop.isAlive())
                    .as("the server is still stopping after 20 s")
                    .isFalse();
        } finally {
            release.countDown();
        }
    }
}
