#!/usr/bin/env bash
# Where the server's time and memory go under load: our server (one DNS thread, on CPU 0) under
# dnsperf (CPU 1) with Java Flight Recorder, then the hottest methods, the allocation sites, and
# the bytes the DNS thread allocated per answered query.
#   bash bench/profile.sh [seconds] [static|wideip|fresh|nxdomain|refused]     (default 20 static; needs dnsperf)
# fresh: ours signs its zone (no signing budget) and every query, with DO, asks a name never asked
# before, so each answer signs a new NSEC: where a fresh signature's time goes. nxdomain: the same
# never-asked names without DO against the unsigned zone (the miss path, as a random-name flood).
# refused: never-asked names of a domain not served here (a flood aimed at another domain).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-20}"
mix="${2:-static}"
warmup=12
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
command -v dnsperf >/dev/null || { echo "profile: dnsperf is not installed (apt-get install dnsperf)" >&2; exit 1; }
[[ -f "$here/gslb-cli/target/gslb.jar" ]] || (cd "$here" && mvn -B -q -DskipTests package)

case "$mix" in
  static) printf 'api.example.com A\nexample.com SOA\nexample.com MX\nmail.example.com AAAA\nnope.example.com A\n' >"$work/q.txt" ;;
  wideip) echo "www.example.com A" >"$work/q.txt" ;;
  fresh | nxdomain | refused)
    domain=example.com; [[ "$mix" == refused ]] && domain=example.net
    python3 -c 'import random, sys; r = random.Random(7); print("\n".join("f%012x.%s A" % (r.getrandbits(48), sys.argv[1]) for _ in range(400000)))' "$domain" >"$work/q.txt" ;;
  *) echo "profile: mix is static, wideip, fresh, nxdomain or refused" >&2; exit 2 ;;
esac
dnssec_ok=()
[[ "$mix" == fresh ]] && dnssec_ok=(-D)
port=$((20000 + RANDOM % 20000)); peer_port=$((port + 1))
ours_admin=$((port + 2)); peer_admin=$((port + 3)); ours_sync=$((port + 4)); peer_sync=$((port + 5))
jar="$here/gslb-cli/target/gslb.jar"
source "$here/bench/instances.sh"

# Ours (CPU 0, recorded) paired with a peer (CPU 1), as in dns-bench.sh, so the wide IP is decided
# by lowest round-trip time from fresh paths: the full chain, peer sync included. Both probe
# 127.0.0.1 against the peer's DNS port.
paired_configs "$peer_port"
if [[ "$mix" == fresh ]]; then
  sed -i -e 's|^  - file: zones/example.com.zone$|  - file: zones/example.com.zone\n    dnssec: {}|' \
    -e 's|^dns:|dns:\n  signatures-per-second: 0|' "$work/ours.yaml"
fi
serve_jvm=()
serve 0 ours "$work/ours.yaml" "$port" 1 --admin "127.0.0.1:$ours_admin" --sync "127.0.0.1:$ours_sync"
pid=$!
serve 1 peer "$work/peer.yaml" "$peer_port" 1 --admin "127.0.0.1:$peer_admin" --sync "127.0.0.1:$peer_sync"
wait_port "$port"; wait_port "$peer_port"
pair_and_decide "$port" "$ours_admin" "$peer_port" "$peer_admin"
taskset -c 1 dnsperf -s 127.0.0.1 -p "$port" -d "$work/q.txt" -l "$warmup" -c 4 -q 200 -t 2 "${dnssec_ok[@]}" >/dev/null 2>&1
# The recording starts after the warm-up, so JIT compilation is not what it shows.
"$JAVA_HOME/bin/jcmd" "$pid" JFR.start name=profile settings=profile duration="${seconds}s" \
  filename="$work/gslb.jfr" >/dev/null
taskset -c 1 dnsperf -s 127.0.0.1 -p "$port" -d "$work/q.txt" -l "$seconds" -c 4 -q 200 -t 2 "${dnssec_ok[@]}" >"$work/perf.txt" 2>&1
for _ in $(seq 1 50); do [[ -s "$work/gslb.jfr" ]] && break; sleep 0.2; done
sleep 1
jfr="$JAVA_HOME/bin/jfr"
answered=$(awk '/Queries completed:/ {print $3}' "$work/perf.txt")
echo "== $mix mix, ${seconds}s recorded: $(awk '/Queries per second:/ {print $4}' "$work/perf.txt") queries/s, $answered answered"
echo "== hottest methods (execution samples, all threads)"
"$jfr" view --width 160 hot-methods "$work/gslb.jfr" | head -30
echo "== the DNS thread: share of its samples in which each method is on the stack (inclusive)"
"$jfr" print --json --events jdk.ExecutionSample "$work/gslb.jfr" | python3 -c '
import collections, json, sys
samples = [e["values"] for e in json.load(sys.stdin)["recording"]["events"]]
samples = [v for v in samples if (v.get("sampledThread") or {}).get("javaName", "").startswith("dns-")]
inclusive = collections.Counter()
for v in samples:
    inclusive.update({f["method"]["type"]["name"] + "." + f["method"]["name"] for f in v["stackTrace"]["frames"]})
print("%d samples" % len(samples))
for method, n in inclusive.most_common(40):
    print("%5.1f%%  %s" % (100 * n / len(samples), method))
'
echo "== the DNS thread in native code (system calls, waiting): samples by native frame"
"$jfr" print --json --events jdk.NativeMethodSample "$work/gslb.jfr" | python3 -c '
import collections, json, sys
samples = [e["values"] for e in json.load(sys.stdin)["recording"]["events"]]
samples = [v for v in samples if (v.get("sampledThread") or {}).get("javaName", "").startswith("dns-")]
top = collections.Counter(f["method"]["type"]["name"] + "." + f["method"]["name"]
                          for f in (v["stackTrace"]["frames"][0] for v in samples))
print("%d samples" % len(samples))
for method, n in top.most_common(8):
    print("%5.1f%%  %s" % (100 * n / max(1, len(samples)), method))
'
echo "== allocation by site, all threads"
"$jfr" view --width 160 allocation-by-site "$work/gslb.jfr" | head -14
echo "== allocation by the DNS thread: bytes by allocating frame and its three callers"
"$jfr" print --json --stack-depth 8 --events jdk.ObjectAllocationSample "$work/gslb.jfr" | python3 -c '
import collections, json, sys
events = [e["values"] for e in json.load(sys.stdin)["recording"]["events"]]
sites = collections.Counter()
for v in events:
    if (v.get("eventThread") or {}).get("javaName", "").startswith("dns-"):
        frames = [f["method"]["type"]["name"] + "." + f["method"]["name"] for f in v["stackTrace"]["frames"][:int(sys.argv[1])]]
        sites[" <- ".join(frames)] += v["weight"]
total = sum(sites.values()) or 1
for site, w in sites.most_common(10):
    print("%5.1f%%  %s" % (100 * w / total, site))
' 4
echo "== bytes allocated by the DNS thread per answered query"
# JFR's allocation samples are weighted to stand for all bytes allocated between them.
"$jfr" print --json --events jdk.ObjectAllocationSample "$work/gslb.jfr" | python3 -c '
import json, sys
qps, seconds = float(sys.argv[1] or 0), float(sys.argv[2])
events = [e["values"] for e in json.load(sys.stdin)["recording"]["events"]]
dns = sum(v["weight"] for v in events if (v.get("eventThread") or {}).get("javaName", "").startswith("dns-"))
print("%.1f bytes/query (%.0f bytes/s at %.0f queries/s)" % (dns / seconds / qps, dns / seconds, qps) if qps else "no queries")
' "$(awk '/Queries per second:/ {print $4}' "$work/perf.txt")" "$seconds"
