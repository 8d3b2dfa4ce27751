#!/usr/bin/env bash
# What share of the DNS thread's time is our own code (the rest is the kernel's), under full load:
# ours (paired with a peer, so lowest round-trip time decides the wide IP, as in dns-bench.sh) on
# CPU 0 under dnsperf on CPU 1, `perf record` of the DNS thread (cpu-clock), the JIT's symbols
# from `jcmd Compiler.perfmap`. With two jars it takes turns between them: an A/B of a change to
# the query path that dnsperf's rate (the limit on this machine) cannot show. The kernel's share
# is the same for every server (dns-bench.sh's CPU per answer compares them); ours is what a
# change to our code can move.
#   bash bench/user-share.sh [static|wideip] [jar ...]     (default wideip and the built jar; needs dnsperf, perf)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mix="${1:-wideip}"
shift || true
jars=("$@")
[[ ${#jars[@]} -gt 0 ]] || jars=("$here/gslb-cli/target/gslb.jar")
turns=3
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
for tool in dnsperf perf taskset; do
  command -v "$tool" >/dev/null || { echo "user-share: $tool is not installed (apt-get install dnsperf linux-perf)" >&2; exit 1; }
done
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
source "$here/bench/instances.sh"
case "$mix" in
  static) cp "$here/bench/static-mix.txt" "$work/q.txt" ;; # dns-bench.sh's static mix
  wideip) echo "www.example.com A" >"$work/q.txt" ;;
  *) echo "user-share: mix is static or wideip" >&2; exit 2 ;;
esac
port=$((20000 + RANDOM % 20000)); peer_port=$((port + 1))
paired_configs "$peer_port"

measure() { # jar: starts ours and its peer, warms, records $turns times, stops them
  local ours peer tids dp
  jar="$1"
  pids=()
  rm -rf "$work/ours" "$work/peer" # each start a fresh pair
  serve 0 ours "$work/ours.yaml" "$port" 1 --admin "127.0.0.1:$((port + 2))" --sync "127.0.0.1:$((port + 4))"
  ours=$!
  serve 1 peer "$work/peer.yaml" "$peer_port" 1 --admin "127.0.0.1:$((port + 3))" --sync "127.0.0.1:$((port + 5))"
  peer=$!
  wait_port "$port"; wait_port "$peer_port"
  pair_and_decide "$port" "$((port + 2))" "$peer_port" "$((port + 3))" >/dev/null 2>&1
  taskset -c 1 dnsperf -s 127.0.0.1 -p "$port" -d "$work/q.txt" -l 20 -c 4 -q 200 >/dev/null 2>&1 # the JIT's work done
  tids="$(for t in /proc/"$ours"/task/*; do [[ "$(cat "$t/comm")" == "dns-udp-$port-0" ]] && echo "${t##*/}" || true; done | paste -sd,)"
  for turn in $(seq 1 "$turns"); do
    taskset -c 1 dnsperf -s 127.0.0.1 -p "$port" -d "$work/q.txt" -l 10 -c 4 -q 200 >"$work/dnsperf.txt" 2>&1 &
    dp=$!
    sleep 1
    perf record -F 5000 -e cpu-clock -t "$tids" -o "$work/perf.data" -- sleep 8 >/dev/null 2>&1
    "$JAVA_HOME/bin/jcmd" "$ours" Compiler.perfmap >/dev/null
    wait "$dp"
    perf report -i "$work/perf.data" --no-children --sort sym --stdio -g none -n 2>/dev/null |
      awk -v jar="$(basename "$(dirname "$jar")")/$(basename "$jar")" -v turn="$turn" \
        -v qps="$(awk '/Queries per second/ {printf "%d", $4}' "$work/dnsperf.txt")" '
        /^#/ || NF < 3 { next }
        { all += $2; if ($3 == "[.]") user += $2 }
        END { printf "%-40s turn %d: %7d queries/s, %6d samples, our code %5.2f %%\n", jar, turn, qps, all, 100 * user / all }'
  done
  kill "$ours" "$peer"; wait "$ours" "$peer" 2>/dev/null || true
}

echo "$mix mix, one DNS thread on CPU 0 at full load: the share of its samples in our code (JIT-compiled and libc)"
for round in 1 2; do
  for j in "${jars[@]}"; do measure "$j"; done
done
