package dev.gslb.server.admin;

import dev.gslb.config.admin.AdminLimits;
import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Requests being read or answered at once, in all and per source, and uploads among them (an
 * upload buffers up to admin.max-body): so the memory and threads all admin clients together can
 * hold is fixed, and one client cannot hold all of it. The per-source map holds only sources with
 * requests in flight.
 */
final class RequestSlots {
    /** Uploads buffered at once: each may be admin.max-body (16 MiB by default). */
    static final int UPLOADS = 2;

    private final Semaphore all;
    private final Semaphore uploads = new Semaphore(UPLOADS);
    private final ConcurrentHashMap<InetAddress, Integer> perSource = new ConcurrentHashMap<>();
    private final int maxPerSource;

    RequestSlots(AdminLimits limits) {
        this.all = new Semaphore(limits.maxRequests());
        this.maxPerSource = limits.maxRequestsPerSource();
    }

    /** A slot for one request from {@code source}, or null when none is free (the client gets 503). */
    Slot take(InetAddress source, boolean upload) {
        if (perSource.merge(source, 1, Integer::sum) > maxPerSource) {
            release(source);
            return null;
        }
        if (!all.tryAcquire()) {
            release(source);
            return null;
        }
        if (upload && !uploads.tryAcquire()) {
            all.release();
            release(source);
            return null;
        }
        return new Slot(source, upload);
    }

    private void release(InetAddress source) {
        perSource.computeIfPresent(source, (k, n) -> n > 1 ? n - 1 : null);
    }

    /** One request's slot; given back once, when its answer is written or its connection ends. */
    final class Slot {
        private final InetAddress source;
        private final boolean upload;
        private boolean released;

        private Slot(InetAddress source, boolean upload) {
            this.source = source;
            this.upload = upload;
        }

        synchronized void release() {
            if (released) {
                return;
            }
            released = true;
            if (upload) {
                uploads.release();
            }
            all.release();
            RequestSlots.this.release(source);
        }
    }
}
