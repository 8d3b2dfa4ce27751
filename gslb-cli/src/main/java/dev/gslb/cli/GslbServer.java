package dev.gslb.cli;

import dev.gslb.cli.admin.AdminServer;
import dev.gslb.cli.admin.TopologyApi;
import dev.gslb.cli.config.GslbConfig;
import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.server.DnsServer;
import dev.gslb.dns.wideip.GlobalAvailability;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.topology.LiveTopology;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyWatcher;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One running instance: DNS listeners, topology table and admin API, wired from a {@link GslbConfig}. */
public final class GslbServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GslbServer.class);

    private final GslbConfig config;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final LiveTopology topology;
    private final DnsServer dns;
    private final AdminServer admin;
    private TopologyWatcher watcher;

    public GslbServer(GslbConfig config) throws IOException, TopologyException {
        this.config = config;
        this.topology = new LiveTopology(config.topology().spec());
        DnsMetrics metrics = new DnsMetrics(registry);
        WideIpResolver resolver = new WideIpResolver(List.of(new GlobalAvailability()));
        Responder responder = new Responder(config.authority(), resolver, config.instance(), metrics,
                config.ednsUdpSize());
        this.dns = new DnsServer(config.dns(), responder, metrics);
        List<AdminServer.Route> routes = new ArrayList<>();
        routes.add(new AdminServer.Route("GET", "/health", r -> AdminServer.Response.json(200, healthJson())));
        routes.add(new AdminServer.Route("GET", "/metrics", r -> new AdminServer.Response(200, registry.scrape(),
                "text/plain; version=0.0.4; charset=utf-8")));
        routes.addAll(new TopologyApi(topology).routes());
        this.admin = new AdminServer(config.admin(), routes);
    }

    public void start() throws InterruptedException, IOException {
        var t = topology.table();
        log.info("topology: {} regions, {} prefixes, {} records{}", t.regions().size(), t.prefixCount(),
                t.records().size(), t.warnings().isEmpty() ? "" : " (" + t.warnings().size() + " warnings: gslb topology list)");
        if (config.topology().watch() && !config.topology().spec().data().isEmpty()) {
            watcher = new TopologyWatcher(topology);
        }
        dns.start();
        admin.start();
    }

    public DnsServer dns() {
        return dns;
    }

    public AdminServer admin() {
        return admin;
    }

    public LiveTopology topology() {
        return topology;
    }

    private String healthJson() {
        return "{\"status\":\"up\",\"instance\":\"" + config.instance().name() + "\",\"datacenter\":\""
                + config.instance().dataCenter() + "\",\"zones\":" + config.authority().zones().all().size()
                + ",\"wideIps\":" + config.authority().wideIps().size() + "}\n";
    }

    @Override
    public void close() {
        admin.close();
        dns.close();
        if (watcher != null) {
            try {
                watcher.close();
            } catch (IOException e) {
                log.debug("closing the topology watcher: {}", e.toString());
            }
        }
    }
}
