# The gslb server image. Built from a checkout after `mvn package` (which leaves the jar and a
# jlink'ed Java 25 runtime in gslb-cli/target):
#   docker build -t gslb:0.1.0 .                                          # on debian:bookworm-slim
#   docker build --build-arg BASE=gslb-base:bookworm -t gslb:0.1.0 .      # on a base made here
# Run it as docs/getting-started.md "Run the container image" says: config /etc/gslb/gslb.yaml,
# state in the volume /var/lib/gslb, as user gslb with only CAP_NET_BIND_SERVICE and CAP_NET_RAW.
# The heap is sized from probe.max-ldns (packaging/jvm-options.sh); docker run -e
# GSLB_JAVA_OPTS=-Xmx1g sets it.
ARG BASE=debian:bookworm-slim
FROM ${BASE}
# setcap gives the runtime's java the two capabilities; a base without it installs it
RUN command -v setcap >/dev/null || { apt-get update && apt-get install -y --no-install-recommends libcap2-bin \
      && rm -rf /var/lib/apt/lists/*; }
RUN groupadd --system gslb \
 && useradd --system --gid gslb --home-dir /var/lib/gslb --no-create-home --shell /usr/sbin/nologin gslb \
 && install -d -o gslb -g gslb -m 700 /var/lib/gslb
COPY gslb-cli/target/dist/runtime /opt/gslb/runtime
COPY gslb-cli/target/gslb.jar /opt/gslb/lib/gslb.jar
COPY packaging/gslb /opt/gslb/bin/gslb
COPY packaging/jvm-options.sh /opt/gslb/lib/jvm-options.sh
COPY packaging/gslb.yaml /etc/gslb/gslb.yaml
COPY zones/example.com.zone /etc/gslb/zones/example.com.zone
# external monitors run only programs linked here (docs/operator-guide.md "Programs of external
# monitors"): none by default
RUN install -d /etc/gslb/monitor-programs
COPY topology-data /usr/share/gslb/topology-data
COPY packaging/grafana/gslb-dashboard.json /usr/share/gslb/grafana/gslb-dashboard.json
COPY LICENSE NOTICE /usr/share/doc/gslb/
# The AOT caches (JEP 483/514/515), recorded here with the image's own runtime and jar, before
# java gets its capabilities: a client command's (packaging/gslb.yaml, talks to no server) and
# serve's (the example zone and the shipped lists, served on loopback ports, asked and stopped).
RUN mkdir /tmp/home && ln -s /etc/gslb/zones /tmp/home/zones && ln -s /usr/share/gslb/topology-data /tmp/home/topology-data \
 && . /opt/gslb/lib/jvm-options.sh && cd /tmp \
 && gslb_jvm_options aot-training && /opt/gslb/runtime/bin/java $GSLB_JVM -Dgslb.home=/etc/gslb \
      -XX:AOTCacheOutput=/opt/gslb/lib/gslb.aot -jar /opt/gslb/lib/gslb.jar \
      --config /etc/gslb/gslb.yaml aot-training --admin 127.0.0.1:9 >/dev/null 2>&1; \
    gslb_jvm_options serve && /opt/gslb/runtime/bin/java $GSLB_JVM -Dgslb.home=/tmp/home \
      -XX:AOTCacheOutput=/opt/gslb/lib/gslb-serve.aot -jar /opt/gslb/lib/gslb.jar aot-training --serve >/dev/null 2>&1; \
    rm -rf /tmp/home /tmp/gslb-aot-training-* && chmod 644 /opt/gslb/lib/gslb.aot /opt/gslb/lib/gslb-serve.aot
# A binary with file capabilities runs in secure mode, where the loader ignores java's $ORIGIN
# path to libjli.so: the runtime's lib folder is named to it instead.
RUN ln -s /opt/gslb/bin/gslb /usr/bin/gslb \
 && setcap cap_net_bind_service,cap_net_raw+ep /opt/gslb/runtime/bin/java \
 && echo /opt/gslb/runtime/lib > /etc/ld.so.conf.d/gslb-java.conf && ldconfig
USER gslb
VOLUME /var/lib/gslb
EXPOSE 53/udp 53/tcp 8054/tcp
# /health on the admin API (loopback, no token), with bash's /dev/tcp: no curl in the image
HEALTHCHECK --interval=5s --timeout=3s --start-period=60s --retries=3 CMD ["bash", "-c", \
  "exec 3<>/dev/tcp/127.0.0.1/8053 && printf 'GET /health HTTP/1.0\\r\\nHost: 127.0.0.1\\r\\n\\r\\n' >&3 && head -1 <&3 | grep -q ' 200 '"]
# the JVM runs the shutdown hook on SIGTERM: listeners closed, the proximity table saved
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/gslb/bin/gslb"]
CMD ["serve", "--config", "/etc/gslb/gslb.yaml", "--state-dir", "/var/lib/gslb"]
