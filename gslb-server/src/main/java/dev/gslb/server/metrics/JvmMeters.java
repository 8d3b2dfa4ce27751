package dev.gslb.server.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.lang.management.ManagementFactory;

/**
 * Micrometer's JVM and process meters, under their standard names: heap and buffer pools, garbage
 * collections and their pauses, threads, loaded classes, CPU, uptime and open descriptors; and
 * the bytes all threads allocated.
 * Closing stops listening to the collector's notifications.
 */
public final class JvmMeters implements AutoCloseable {
    private final JvmGcMetrics gc = new JvmGcMetrics();

    public JvmMeters(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        // Counted by the threads as they allocate, whatever the collector (micrometer's
        // jvm_gc_memory_allocated_bytes is read at young collections, which ZGC does not report).
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads) {
            FunctionCounter.builder("jvm.threads.allocated", threads, t -> t.getTotalThreadAllocatedBytes())
                    .description("Bytes allocated in the heap by all threads since the start")
                    .baseUnit("bytes")
                    .register(registry);
        }
    }

    @Override
    public void close() {
        gc.close();
    }
}
