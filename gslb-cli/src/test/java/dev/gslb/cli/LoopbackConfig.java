package dev.gslb.cli;

/**
 * The configuration text of a test server on loopback: its local part (name, data center, every
 * listener on an ephemeral loopback port, its state beside the file, UDP probes only) and the
 * usual shared part (the example zone, CNC and TEL, one server in each behind www.example.com).
 */
final class LoopbackConfig {
    private LoopbackConfig() {}

    static String local(String name, String dc) {
        return local(name, dc, 0, 10);
    }

    /** With the sync listener on {@code syncPort} (0: any) and a heartbeat of {@code heartbeatSeconds}. */
    static String local(String name, String dc, int syncPort, int heartbeatSeconds) {
        return """
                instance: {name: %s, datacenter: %s}
                dns: {listen: ["127.0.0.1:0"], threads: 1}
                admin: {listen: "127.0.0.1:0"}
                probe: {store: proximity, protocols: [udp]}
                sync: {listen: ["127.0.0.1:%d"], peers-file: peers, heartbeat: %ds}
                """.formatted(name, dc, syncPort, heartbeatSeconds);
    }

    /** Servers cnc (127.0.1.1) and tel (127.0.1.2) in pool www of www.example.com; {@code extra} is appended. */
    static String shared(String extra) {
        return """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                virtual-servers:
                  - {name: cnc, address: 127.0.1.1, datacenter: CNC}
                  - {name: tel, address: 127.0.1.2, datacenter: TEL}
                pools:
                  - {name: www, members: [cnc, tel]}
                wide-ips:
                  - {name: www.example.com, pools: [www]}
                """ + extra;
    }
}
