package dev.gslb.cli;

import dev.gslb.cli.admin.AdminServer;
import dev.gslb.cli.config.GslbConfig;
import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.server.DnsServer;
import dev.gslb.dns.wideip.GlobalAvailability;
import dev.gslb.dns.wideip.WideIpResolver;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.List;

/** One running instance: DNS listeners and admin API, wired from a {@link GslbConfig}. */
public final class GslbServer implements AutoCloseable {
    private final GslbConfig config;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final DnsServer dns;
    private final AdminServer admin;

    public GslbServer(GslbConfig config) throws IOException {
        this.config = config;
        DnsMetrics metrics = new DnsMetrics(registry);
        WideIpResolver resolver = new WideIpResolver(List.of(new GlobalAvailability()));
        Responder responder = new Responder(config.authority(), resolver, config.instance(), metrics,
                config.ednsUdpSize());
        this.dns = new DnsServer(config.dns(), responder, metrics);
        this.admin = new AdminServer(config.admin(), this::healthJson, registry::scrape);
    }

    public void start() throws InterruptedException {
        dns.start();
        admin.start();
    }

    public DnsServer dns() {
        return dns;
    }

    public AdminServer admin() {
        return admin;
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
    }
}
