package dev.gslb.topology.load;

import dev.gslb.topology.TopologyException;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads the topology when a configured file or folder changes on disk (like gdnsd's geoip
 * nets files). Changes are gathered for a quiet period, so an editor's save or a copy of many
 * files gives one reload. A reload that fails is logged and the table in service stays.
 */
public final class TopologyWatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TopologyWatcher.class);
    private static final long QUIET_MILLIS = 500;

    private final LiveTopology topology;
    private final WatchService watch;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("topology-reload").factory());
    private final Thread thread;
    private ScheduledFuture<?> pending;

    public TopologyWatcher(LiveTopology topology) throws IOException {
        this.topology = topology;
        this.watch = FileSystems.getDefault().newWatchService();
        Set<Path> dirs = new HashSet<>();
        for (Path p : topology.spec().data()) {
            Path dir = Files.isDirectory(p) ? p : p.toAbsolutePath().getParent();
            if (dir != null && dirs.add(dir.toAbsolutePath())) {
                dir.register(
                        watch,
                        StandardWatchEventKinds.ENTRY_CREATE,
                        StandardWatchEventKinds.ENTRY_MODIFY,
                        StandardWatchEventKinds.ENTRY_DELETE);
            }
        }
        this.thread = Thread.ofPlatform().daemon().name("topology-watch").start(this::run);
    }

    private void run() {
        try {
            for (; ; ) {
                var key = watch.take();
                key.pollEvents();
                key.reset();
                schedule();
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closing
        }
    }

    private synchronized void schedule() {
        if (pending != null) {
            pending.cancel(false);
        }
        pending = timer.schedule(this::reload, QUIET_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void reload() {
        try {
            LiveTopology.LoadReport r = topology.reload();
            log.info(
                    "topology reloaded after a file change: {} regions, {} prefixes in {} ms",
                    r.regions(),
                    r.prefixes(),
                    r.took().toMillis());
        } catch (TopologyException e) {
            log.warn(
                    "topology files changed but do not load; the previous table stays in service: {}",
                    String.join("; ", e.getMessage().lines().toList()));
        }
    }

    @Override
    public void close() throws IOException {
        watch.close();
        timer.shutdownNow();
        thread.interrupt();
    }
}
