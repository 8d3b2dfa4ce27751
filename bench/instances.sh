# Sourced by dns-bench.sh and profile.sh: starting our instances and pairing two of them so that
# lowest round-trip time decides the wide IP (the full chain). Expects here, work, jar, JAVA_HOME
# and a pids array; extra JVM options for every instance may be put in the array serve_jvm.

wait_port() { # port
  for _ in $(seq 1 100); do
    dig +short +time=1 +tries=1 @127.0.0.1 -p "$1" example.com SOA >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "bench: nothing answers on port $1" >&2; exit 1
}

# The embedded default config as ours (CNC, "bench-cnc") and the peer's (TEL, "bench-tel"), both
# probing 127.0.0.1 by DNS_DOT against the DNS server on port $1, so the wide IP gets fresh paths.
paired_configs() { # probe-port
  ln -sfn "$here/zones" "$work/zones"
  ln -sfn "$here/topology-data" "$work/topology-data"
  default="$here/gslb-config/src/main/resources/default-config.yaml"
  local probe="probe: {exclude: [], protocols: [dns_dot], dns-port: $1, udp-port: $1}"
  { sed 's/^  datacenter: CNC$/  datacenter: CNC\n  name: bench-cnc/' "$default"; echo "$probe"; } >"$work/ours.yaml"
  { sed 's/^  datacenter: CNC$/  datacenter: TEL\n  name: bench-tel/' "$default"; echo "$probe"; } >"$work/peer.yaml"
}

# Each instance runs with serve's own Java options (packaging/jvm-options.sh: the collector, the
# heap for the default max-ldns, huge pages where the kernel offers them), as the launchers run it.
. "$here/packaging/jvm-options.sh"
gslb_jvm_options serve
serve() { # cpus name config port threads [serve options...]
  local cpus="$1" name="$2" config="$3" port="$4" threads="$5"; shift 5
  # shellcheck disable=SC2086 # GSLB_JVM is a list of options
  taskset -c "$cpus" "$JAVA_HOME/bin/java" $GSLB_JVM -Dgslb.home="$here" \
    "${serve_jvm[@]}" \
    -jar "$jar" serve --config "$config" --listen "127.0.0.1:$port" --listen "[::1]:$port" --threads "$threads" \
    --state-dir "$work/$name" "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
}

cli() { # name admin-port args...
  local name="$1" admin="$2"; shift 2
  "$JAVA_HOME/bin/java" -jar "$jar" "$@" --admin "127.0.0.1:$admin" --token-file "$work/$name/admin.token"
}

# Pairs ours with the peer, lets both probe 127.0.0.1, and waits until lowest RTT decides the wide
# IP; prints what decided it.
pair_and_decide() { # ours-port ours-admin peer-port peer-admin
  local token decided=""
  token="$(cli ours "$2" peer pair | awk '/^Join token/ {getline; getline; print $1; exit}')"
  printf '%s\n' "$token" | cli peer "$4" peer join >/dev/null
  for _ in $(seq 1 60); do
    dig +short @127.0.0.1 -p "$1" www.example.com A >/dev/null
    dig +short @127.0.0.1 -p "$3" www.example.com A >/dev/null
    decided="$(cli ours "$2" resolve www.example.com --ldns 127.0.0.1 | grep -m1 '^decided by' || true)"
    [[ "$decided" == "decided by lowest-round-trip-time"* ]] && break
    sleep 0.5
  done
  echo "wide IP www.example.com for LDNS 127.0.0.1 on ours: ${decided:-not decided}"
}
