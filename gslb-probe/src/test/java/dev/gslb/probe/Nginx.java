package dev.gslb.probe;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real nginx on a free loopback port serving {@code /stub_status} (and {@code /moved}, a
 * redirect to it): a balancer whose connections a server's load is read from. Connections the
 * test {@linkplain #hold holds} count among its active ones.
 */
public final class Nginx implements AutoCloseable {
    public static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");

    public final int port;
    private final Process process;
    private final List<Socket> held = new ArrayList<>();

    /** Starts it with its files in {@code dir} (it answers shortly after: read it until it does). */
    public Nginx(Path dir) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            port = s.getLocalPort();
        }
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, """
                master_process off;
                daemon off;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log;
                events { worker_connections 64; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    server {
                        listen 127.0.0.1:%2$d;
                        location = /stub_status { stub_status; }
                        location = /moved { return 302 /stub_status; }
                    }
                }
                """.formatted(dir, port));
        process = new ProcessBuilder(
                        "nginx",
                        "-p",
                        dir.toString(),
                        "-c",
                        conf.toString(),
                        "-e",
                        dir.resolve("error.log").toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("nginx.out").toFile())
                .start();
    }

    /** {@code http://127.0.0.1:PORT/PATH}. */
    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** Opens {@code n} connections to it and keeps them open until {@link #release} or close. */
    public void hold(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            held.add(new Socket(LOOPBACK, port));
        }
    }

    /** Closes the held connections. */
    public void release() throws IOException {
        for (Socket s : held) {
            s.close();
        }
        held.clear();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        release();
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
