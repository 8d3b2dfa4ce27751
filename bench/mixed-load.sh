#!/usr/bin/env bash
# Allocation and pauses on a mixed load: the server as its launcher starts it (./gslb serve: the
# collector, heap and options packaging/jvm-options.sh gives serve), dnsperf at a fixed rate of
# 50 % wide IP, 30 % static names and 20 % random names (NXDOMAIN, each asked once); prints the
# answers lost, the resident memory, the bytes allocated per second and per query, and every
# stop-the-world pause from the JVM's safepoint log (count, total, p99, maximum), which counts
# the pauses of any collector alike.
#   bash bench/mixed-load.sh [seconds [queries/s]]     (default 300 s at 30,000; needs dnsperf)
#   GSLB_JAVA_OPTS="-XX:-UseParallelGC -XX:+UseZGC" bash bench/mixed-load.sh 300     (another collector)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-300}"
rate="${2:-30000}"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
command -v dnsperf >/dev/null || { echo "mixed-load: dnsperf is not installed (apt-get install dnsperf)" >&2; exit 1; }

port=$((20000 + RANDOM % 20000)); admin=$((port + 1))
# Every random name once: 20 % of the whole run's queries (dnsperf reads the file in order).
python3 - "$work/q.txt" "$((seconds * rate))" <<'PY'
import random, sys
path, total = sys.argv[1], int(sys.argv[2])
static = ["api.example.com A", "example.com SOA", "example.com MX", "mail.example.com AAAA", "example.com NS", "example.com TXT"]
r = random.Random(11)
with open(path, "w") as f:
    for i in range(total):
        k = i % 10
        if k < 5:
            f.write("www.example.com A\n")
        elif k < 8:
            f.write(static[i % len(static)] + "\n")
        else:
            f.write("r%012x.example.com A\n" % r.getrandbits(48))
PY

GSLB_JAVA_OPTS="-Xlog:safepoint:file=$work/safepoint.log:uptime -Xlog:gc:file=$work/gc.log:uptime ${GSLB_JAVA_OPTS:-}" \
  "$here/gslb" serve --state-dir "$work/state" --listen "127.0.0.1:$port" --admin "127.0.0.1:$admin" \
  --sync 127.0.0.1:0 >"$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do
  dig +short +time=1 +tries=1 @127.0.0.1 -p "$port" example.com SOA 2>/dev/null | grep -q '^[a-z]' && break
  sleep 0.1
done
pid="$(pgrep -f -- "--listen 127.0.0.1:$port" | head -1 || true)"
[[ -n "$pid" ]] || { echo "mixed-load: the server did not start" >&2; cat "$work/serve.log" >&2; exit 1; }
token="$(cat "$work/state/admin.token")"
allocated() { # bytes the JVM's threads allocated so far (counted as they allocate, any collector)
  curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$admin/metrics" \
    | awk '/^jvm_threads_allocated_bytes_total/ {print $2}' | head -1
}
rss() { awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status"; }
start_mark="$(wc -l <"$work/safepoint.log")"
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; } # the server's CPU ticks (user + system, all threads)
a0="$(allocated)"; t0="$(date +%s.%N)"; rss0="$(rss)"; c0="$(cpu)"
rss_max="$rss0"
( while kill -0 "$pid" 2>/dev/null; do rss >>"$work/rss.txt"; sleep 1; done ) &
pids+=($!)
taskset -c 1 dnsperf -s 127.0.0.1 -p "$port" -d "$work/q.txt" -l "$seconds" -Q "$rate" -c 4 -q 500 -t 2 >"$work/perf.txt" 2>&1 || true
t1="$(date +%s.%N)"; a1="$(allocated)"; rss1="$(rss)"; c1="$(cpu)"
rss_max="$(sort -n "$work/rss.txt" | tail -1)"
collector="$(grep -o 'Using [A-Za-z ]*' "$work/gc.log" | head -1 | sed 's/Using //')"
echo "mixed load: ${seconds}s at ${rate} queries/s (50 % wide IP, 30 % static, 20 % random NXDOMAIN), collector: ${collector:-?}"
awk '/Queries sent:/ {s=$3} /Queries completed:/ {c=$3} /Queries lost:/ {l=$3} /Queries per second:/ {q=$4}
  END {printf "answered %d of %d (%.3f %% lost), %.0f queries/s\n", c, s, (s ? 100 * l / s : 0), q}' "$work/perf.txt"
answered="$(awk '/Queries completed:/ {print $3}' "$work/perf.txt")"
python3 - "$a0" "$a1" "$t0" "$t1" "${answered:-0}" "$c0" "$c1" "$(getconf CLK_TCK)" <<'PY'
import sys
a0, a1, t0, t1, n, c0, c1, hz = (float(x or 0) for x in sys.argv[1:])
secs = t1 - t0
print("allocated: %.1f MB/s, %.0f bytes per answered query (all threads)" % ((a1 - a0) / secs / 1e6, (a1 - a0) / n if n else 0))
print("CPU: %.1f %% of a core, %.1f us per answered query (the whole process: DNS, collector, compiler, probes)" % (100 * (c1 - c0) / hz / secs, 1e6 * (c1 - c0) / hz / n if n else 0))
PY
echo "resident memory: ${rss0} MB at the start, ${rss1} MB at the end, ${rss_max} MB at most"
tail -n +"$((start_mark + 1))" "$work/safepoint.log" | python3 -c '
import re, sys, collections
totals = []; kinds = collections.Counter(); worst = collections.defaultdict(float)
for line in sys.stdin:
    m = re.search(r"Safepoint \"([^\"]+)\".*Total: (\d+) ns", line)
    if m:
        ms = int(m.group(2)) / 1e6
        totals.append(ms); kinds[m.group(1)] += 1; worst[m.group(1)] = max(worst[m.group(1)], ms)
totals.sort()
n = len(totals)
if not n:
    print("pauses: none"); sys.exit()
print("pauses: %d, %.1f ms in all; p99 %.2f ms, maximum %.2f ms" % (n, sum(totals), totals[min(n - 1, int(n * 0.99))], totals[-1]))
for k, c in kinds.most_common(6):
    print("  %-32s %6d   max %.2f ms" % (k, c, worst[k]))
'
