#!/usr/bin/env bash
# DNS benchmark: dnsperf against our server and against gdnsd serving the same zone, in the same
# run, each server pinned to CPU 0 and dnsperf to CPU 1. Prints queries/s, latency, loss and the
# ratio ours/gdnsd for a static-record mix and for the wide-IP name. Ours runs with its defaults:
# response-rate limiting and cookies on, loopback exempt from RRL. A second instance of ours
# ("gslb-rrl") counts loopback too, at a rate above the benchmark's, to show what the RRL lookup
# itself costs.
#   bash bench/dns-bench.sh [seconds]      (default 15; needs dnsperf and gdnsd: .ci/run installs them)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${1:-15}"
warmup=5
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

for tool in dnsperf gdnsd taskset; do
  command -v "$tool" >/dev/null || { echo "dns-bench: $tool is not installed (apt-get install dnsperf gdnsd)" >&2; exit 1; }
done
[[ -f "$here/gslb-cli/target/gslb.jar" ]] || (cd "$here" && mvn -B -q -DskipTests package)

ours_port=5353; gdnsd_port=5354; rrl_port=5355

# gdnsd: the same zone file; the wide IP becomes a metafo (ordered failover) DYNA record, which is
# gdnsd's global-availability equivalent.
mkdir -p "$work/gdnsd/zones"
cp "$here/zones/example.com.zone" "$work/gdnsd/zones/example.com"
echo 'www 30 DYNA metafo!www' >> "$work/gdnsd/zones/example.com"
cat > "$work/gdnsd/config" <<CONF
options => { listen => [ 127.0.0.1:$gdnsd_port ], udp_threads => 1, tcp_threads => 1 }
plugins => { metafo => { resources => { www => {
  datacenters => [ CNC, TEL ]
  dcmap => { CNC => 202.106.83.177, TEL => 219.17.66.100 }
} } } }
CONF

cat > "$work/static.txt" <<Q
api.example.com A
example.com SOA
example.com MX
mail.example.com AAAA
example.com NS
_sip._udp.example.com SRV
example.com TXT
docs.example.com A
nope.example.com A
api.example.com MX
Q
echo "www.example.com A" > "$work/wideip.txt"

wait_port() { # port
  for _ in $(seq 1 100); do
    dig +short +time=1 +tries=1 @127.0.0.1 -p "$1" example.com SOA >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "dns-bench: nothing answers on port $1" >&2; exit 1
}

# The embedded default with RRL counting loopback: exempt only a documentation network, and a rate
# no benchmark class reaches (so every answer pays the lookup and none is limited).
ln -s "$here/zones" "$work/zones"
ln -s "$here/topology-data" "$work/topology-data"
sed 's|^dns:|dns:\n  rate-limit: {responses-per-second: 900000, exempt: [192.0.2.0/24]}|' \
  "$here/gslb-cli/src/main/resources/default-config.yaml" >"$work/rrl.yaml"

taskset -c 0 gdnsd -c "$work/gdnsd" start >"$work/gdnsd.log" 2>&1 &
pids+=($!)
taskset -c 0 "$JAVA_HOME/bin/java" -XX:+UseParallelGC -Xms512m -Xmx512m -Dgslb.home="$here" \
  -jar "$here/gslb-cli/target/gslb.jar" serve --listen "127.0.0.1:$ours_port" --admin 127.0.0.1:0 --threads 1 \
  --sync 127.0.0.1:0 --state-dir "$work/ours" \
  >"$work/ours.log" 2>&1 &
pids+=($!)
taskset -c 0 "$JAVA_HOME/bin/java" -XX:+UseParallelGC -Xms512m -Xmx512m -Dgslb.home="$here" \
  -jar "$here/gslb-cli/target/gslb.jar" serve --config "$work/rrl.yaml" --listen "127.0.0.1:$rrl_port" \
  --admin 127.0.0.1:0 --threads 1 --sync 127.0.0.1:0 --state-dir "$work/rrl" \
  >"$work/rrl.log" 2>&1 &
pids+=($!)
wait_port "$gdnsd_port"
wait_port "$ours_port"
wait_port "$rrl_port"

perf() { # port file seconds -> "qps avg_ms max_ms lost_pct"
  taskset -c 1 dnsperf -s 127.0.0.1 -p "$1" -d "$2" -l "$3" -c 4 -q 200 -t 2 2>&1 | awk '
    /Queries sent:/ {sent=$3}
    /Queries lost:/ {lost=$3}
    /Queries per second:/ {qps=$4}
    /Average Latency/ {avg=$4; gsub(/,/, "", $6); max=$8; gsub(/\)/, "", max); }
    END { if (sent == 0) sent = 1; printf "%.0f %.3f %.3f %.3f\n", qps, avg*1000, max*1000, 100*lost/sent }'
}

printf "dnsperf %ss per run, servers on CPU 0, dnsperf on CPU 1 (-c 4 -q 200)\n" "$duration"
printf "%-8s %-9s %12s %10s %10s %8s\n" mix server "queries/s" "avg ms" "max ms" "lost %"
for mix in static wideip; do
  perf "$ours_port" "$work/$mix.txt" "$warmup" >/dev/null   # JIT warm-up for ours, same for gdnsd
  perf "$rrl_port" "$work/$mix.txt" "$warmup" >/dev/null
  perf "$gdnsd_port" "$work/$mix.txt" "$warmup" >/dev/null
  read -r g_qps g_avg g_max g_lost < <(perf "$gdnsd_port" "$work/$mix.txt" "$duration")
  read -r o_qps o_avg o_max o_lost < <(perf "$ours_port" "$work/$mix.txt" "$duration")
  read -r r_qps r_avg r_max r_lost < <(perf "$rrl_port" "$work/$mix.txt" "$duration")
  printf "%-8s %-9s %12s %10s %10s %8s\n" "$mix" gdnsd "$g_qps" "$g_avg" "$g_max" "$g_lost"
  printf "%-8s %-9s %12s %10s %10s %8s\n" "$mix" gslb "$o_qps" "$o_avg" "$o_max" "$o_lost"
  printf "%-8s %-9s %12s %10s %10s %8s\n" "$mix" gslb-rrl "$r_qps" "$r_avg" "$r_max" "$r_lost"
  awk -v o="$o_qps" -v r="$r_qps" -v g="$g_qps" -v m="$mix" 'BEGIN {
    printf "%-8s ratio gslb/gdnsd = %.2f   gslb-rrl/gdnsd = %.2f\n", m, (g > 0 ? o / g : 0), (g > 0 ? r / g : 0) }'
done
