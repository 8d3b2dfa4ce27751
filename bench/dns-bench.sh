#!/usr/bin/env bash
# DNS benchmark: dnsperf against our server and against gdnsd, Knot (knotd) and NSD serving the
# same zone, in the same run. Knot and NSD have no wide IP: they are measured on the static mix.
# Prints, for a static-record mix and for the wide-IP name:
#   1. throughput, one thread each, servers on CPU 0 and dnsperf on CPU 1: queries/s, CPU per
#      answered query and the ratios ours/gdnsd, ours/knot and ours/nsd against the bar (1.00);
#   2. latency at a fixed 20,000 queries/s, gdnsd and ours asked at the same time (one dnsperf
#      each): average, p99, p99.9, maximum and the answers slower than 5 ms, and the ratios;
#   3. signed answers (DNSSEC): the same mixes with DO on every query against ours (its zone
#      signed), beside the unsigned ones in turns, the ratio signed/unsigned against the bar
#      (0.80), and what fresh signatures cost (names never asked before, each one NSEC signed),
#      then the same names against the default signing budget (SERVFAIL beyond 1000 a second);
#   4. throughput with two threads each and dnsperf sharing both cores (no pinning);
#   5. the static mix over IPv6 (::1) and over TCP (pipelined, dnsperf -m tcp), two threads each;
#   6. TCP with a fresh connection per query (connect, query, answer, close): median, p99 and
#      maximum, ours against NSD's (bench/tcp-fresh.py).
# Each figure is measured in turns of $slice seconds, the servers taking turns (gdnsd, ours, ...)
# until each has had the whole duration: this machine's own noise (a VM's neighbours, timer and
# wake-up delays) comes and goes over seconds, and taking turns spreads it over every server
# instead of landing on whichever was measured when it came. The spread of the per-turn ratios is
# printed beside each ratio, as the noise band to read it with. Latency (2) goes further: the
# host's stalls of a few ms decide an average at this rate, so gdnsd and ours are asked at the same
# time and each stall falls on both.
# Ours runs with its defaults: response-rate limiting and cookies on, loopback exempt from RRL. A
# second instance ("gslb-rrl") counts loopback too, at a rate above the benchmark's, to show what
# the RRL lookup itself costs. The wide IP is decided by lowest round-trip time from fresh paths:
# ours (CNC) is paired with a peer (TEL), both probe 127.0.0.1 (DNS_DOT against gdnsd's port) and
# exchange the paths; the bench prints the deciding method before measuring.
#   bash bench/dns-bench.sh [seconds]      (default 15; needs dnsperf, gdnsd, knotd, nsd: .ci/run installs them)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${1:-15}"
warmup=5
rate=20000
slice=3
rounds=$(( (duration + slice - 1) / slice ))
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

for tool in dnsperf gdnsd knotd nsd taskset python3; do
  command -v "$tool" >/dev/null || { echo "dns-bench: $tool is not installed (apt-get install dnsperf gdnsd knot nsd)" >&2; exit 1; }
done
[[ -f "$here/gslb-cli/target/gslb.jar" ]] || (cd "$here" && mvn -B -q -DskipTests package)
jar="$here/gslb-cli/target/gslb.jar"

ours_port=5353; gdnsd_port=5354; rrl_port=5355; peer_port=5356; ours2_port=5357; gdnsd2_port=5358
ours_admin=18053; peer_admin=18054; ours_sync=18055; peer_sync=18056
knot_port=5360; knot2_port=5361; nsd_port=5362; nsd2_port=5363

gdnsd_config() { # dir port threads
  mkdir -p "$1/zones"
  cp "$here/zones/example.com.zone" "$1/zones/example.com"
  # The wide IP becomes a metafo (ordered failover) DYNA record, gdnsd's global-availability equivalent.
  echo 'www 30 DYNA metafo!www' >> "$1/zones/example.com"
  cat > "$1/config" <<CONF
options => { listen => [ 127.0.0.1:$2, "[::1]:$2" ], udp_threads => $3, tcp_threads => $3 }
plugins => { metafo => { resources => { www => {
  datacenters => [ CNC, TEL ]
  dcmap => { CNC => 202.106.83.177, TEL => 219.17.66.100 }
} } } }
CONF
}
gdnsd_config "$work/gdnsd" "$gdnsd_port" 1
gdnsd_config "$work/gdnsd2" "$gdnsd2_port" 2

# Knot and NSD: the same zone, the wide IP as a plain A record (they have no GSLB); response-rate
# limiting off in both (NSD's is on by default), no zone file written back, no journal.
static_zone() { # dir
  mkdir -p "$1"
  cp "$here/zones/example.com.zone" "$1/example.com.zone"
  echo 'www 30 IN A 202.106.83.177' >> "$1/example.com.zone"
}
knot_config() { # dir port threads
  static_zone "$1"
  cat > "$1/knot.conf" <<CONF
server:
  listen: [ 127.0.0.1@$2, ::1@$2 ]
  udp-workers: $3
  tcp-workers: $3
  background-workers: 1
  rundir: $1
log:
  - target: stderr
    any: warning
database:
  storage: $1
zone:
  - domain: example.com
    file: $1/example.com.zone
    zonefile-sync: -1
    zonefile-load: whole
    journal-content: none
CONF
}
nsd_config() { # dir port threads
  static_zone "$1"
  cat > "$1/nsd.conf" <<CONF
server:
  ip-address: 127.0.0.1@$2
  ip-address: ::1@$2
  server-count: $3
  tcp-count: 1000
  username: ""
  zonesdir: "$1"
  database: ""
  pidfile: "$1/nsd.pid"
  xfrdfile: "$1/xfrd.state"
  zonelistfile: "$1/zone.list"
  rrl-ratelimit: 0
remote-control:
  control-enable: no
zone:
  name: example.com
  zonefile: example.com.zone
CONF
}
knot_config "$work/knot" "$knot_port" 1
knot_config "$work/knot2" "$knot2_port" 2
nsd_config "$work/nsd" "$nsd_port" 1
nsd_config "$work/nsd2" "$nsd2_port" 2

cp "$here/bench/static-mix.txt" "$work/static.txt" # the static mix: bench/user-share.sh asks the same
echo "www.example.com A" > "$work/wideip.txt"

source "$here/bench/instances.sh"
serve_jvm=()

# Configs: ours and the peer probe 127.0.0.1 by DNS_DOT against gdnsd (so the wide IP has fresh
# paths); the RRL instance counts loopback too: it exempts only a documentation network, at a rate
# no benchmark class reaches (every answer pays the lookup).
paired_configs "$gdnsd_port"
# Ours signs its zone (keys made at first start): queries without DO are answered as before. Its
# signing budget is off, so that fresh names measure what signing costs; the RRL instance signs too,
# with the default budget, which the fresh names then show holding (a random-name flood with DO).
sed -i 's|^  - file: zones/example.com.zone$|  - file: zones/example.com.zone\n    dnssec: {}|' "$work/ours.yaml"
sed -i 's|^dns:|dns:\n  signatures-per-second: 0|' "$work/ours.yaml"
grep -q 'dnssec: {}' "$work/ours.yaml" || { echo "dns-bench: could not turn signing on in ours.yaml" >&2; exit 1; }
sed -e 's|^dns:|dns:\n  rate-limit: {responses-per-second: 900000, exempt: [192.0.2.0/24]}|' \
  -e 's|^  - file: zones/example.com.zone$|  - file: zones/example.com.zone\n    dnssec: {}|' "$default" >"$work/rrl.yaml"

taskset -c 0 gdnsd -c "$work/gdnsd" start >"$work/gdnsd.log" 2>&1 &
pids+=($!); gdnsd_pid=$!
taskset -c 0 knotd -c "$work/knot/knot.conf" >"$work/knot.log" 2>&1 &
pids+=($!); knot_pid=$!
taskset -c 0 nsd -d -c "$work/nsd/nsd.conf" >"$work/nsd.log" 2>&1 &
pids+=($!); nsd_pid=$!
serve 0 ours "$work/ours.yaml" "$ours_port" 1 --admin "127.0.0.1:$ours_admin" --sync "127.0.0.1:$ours_sync"
ours_pid=$!
serve 1 peer "$work/peer.yaml" "$peer_port" 1 --admin "127.0.0.1:$peer_admin" --sync "127.0.0.1:$peer_sync"
serve 0 rrl "$work/rrl.yaml" "$rrl_port" 1 --admin 127.0.0.1:0 --sync 127.0.0.1:0
rrl_pid=$!
for port in "$gdnsd_port" "$knot_port" "$nsd_port" "$ours_port" "$peer_port" "$rrl_port"; do wait_port "$port"; done
# Ours asks for a 0.2 ms scheduler slice for its DNS threads: the peers get the same, or in the
# latency section (both on CPU 0) ours would preempt gdnsd when it wakes, and gdnsd would not.
python3 "$here/bench/same-slice.py" "$gdnsd_pid" "$knot_pid" "$nsd_pid"
pair_and_decide "$ours_port" "$ours_admin" "$peer_port" "$peer_admin"

perf() { # port file seconds [dnsperf options] -> "qps avg_ms max_ms lost_pct"; $server or 127.0.0.1, on CPUs $pin; $extra: more options
  local port="$1" file="$2" seconds="$3"; shift 3
  # shellcheck disable=SC2086 # $extra is a list of options
  taskset -c "${pin:-0,1}" dnsperf -s "${server:-127.0.0.1}" -p "$port" -d "$file" -l "$seconds" -c 4 -q 200 -t 2 ${extra:-} "$@" 2>&1 | awk '
    /Queries sent:/ {sent=$3}
    /Queries lost:/ {lost=$3}
    /Queries per second:/ {qps=$4}
    /Average Latency/ {avg=$4; max=$8; gsub(/\)/, "", max); }
    END { if (sent == 0) sent = 1; printf "%.0f %.3f %.3f %.3f\n", qps, avg*1000, max*1000, 100*lost/sent }'
}
# CPU time a process and its children have used (user + system), in clock ticks: NSD answers in
# child processes.
tree_pids() { echo "$1"; local c; for c in $(pgrep -P "$1"); do tree_pids "$c"; done; }
# (utime and stime counted after the name's closing parenthesis: NSD's names have spaces)
ticks() { local p; for p in $(tree_pids "$1"); do cat "/proc/$p/stat" 2>/dev/null; done |
  awk '{ sub(/^.*\) /, ""); t += $12 + $13 } END { print t + 0 }'; }
hz="$(getconf CLK_TCK)"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
# Totals over the turns, per server: answered queries, latency x queries, lost x queries, max, CPU ticks.
declare -A q_sum lat_sum lost_sum max_of cpu_sum last_qps turn_ratios
reset_totals() { q_sum=(); lat_sum=(); lost_sum=(); max_of=(); cpu_sum=(); turn_ratios=(); }
turn_ratio() { # ours peer: keeps this turn's ratio ours/peer for band
  turn_ratios[$2]="${turn_ratios[$2]:-} $(ratio "${last_qps[$1]}" "${last_qps[$2]}")"
}
band() { # peer -> the lowest and highest of its per-turn ratios
  tr ' ' '\n' <<<"${turn_ratios[$1]}" | grep . | sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END { printf "%s-%s", lo, hi }'
}
versus() { # mix ours peer [peer...] -> a line of ratios ours/peer with their per-turn bands and CPU per query
  local mix="$1" ours="$2" peer line=""; shift 2
  for peer in "$@"; do
    line+="$(printf "%s/%s = %s (per turn %s, CPU per query %s/%s = %s)   " "$ours" "$peer" \
      "$(ratio "$(qps_of "$ours")" "$(qps_of "$peer")")" "$(band "$peer")" "$peer" "$ours" \
      "$(ratio "$(cpu_of "$peer")" "$(cpu_of "$ours")")")"
  done
  printf "%-8s ratios %s(bar: 1.00)\n" "$mix" "$line"
}
slice_of() { # name port file [pid] -> adds one turn of $slice seconds to the totals; pinned to $pin
  local name="$1" port="$2" file="$3" pid="${4:-}" t0=0 t1=0 qps avg max lost
  [[ -n "$pid" ]] && t0=$(ticks "$pid")
  read -r qps avg max lost < <(perf "$port" "$file" "$slice")
  [[ -n "$pid" ]] && t1=$(ticks "$pid")
  read -r "q_sum[$name]" "lat_sum[$name]" "lost_sum[$name]" "max_of[$name]" "cpu_sum[$name]" < <(awk \
    -v q="${q_sum[$name]:-0}" -v l="${lat_sum[$name]:-0}" -v lo="${lost_sum[$name]:-0}" -v m="${max_of[$name]:-0}" \
    -v c="${cpu_sum[$name]:-0}" -v qps="$qps" -v s="$slice" -v avg="$avg" -v lost="$lost" -v max="$max" -v t="$((t1 - t0))" \
    'BEGIN { n = qps * s; printf "%.6f %.6f %.6f %s %d\n", q + n, l + n * avg, lo + n * lost, (max > m ? max : m), c + t }')
  last_qps[$name]=$qps
}
qps_of() { awk -v q="${q_sum[$1]}" -v n="$rounds" -v s="$slice" 'BEGIN { printf "%.0f", q / (n * s) }'; }
cpu_of() { awk -v t="${cpu_sum[$1]}" -v hz="$hz" -v q="${q_sum[$1]}" 'BEGIN { printf "%.2f", (q > 0 ? t * 1e6 / hz / q : 0) }'; }
row() { # mix name [cpu] -> one table row from the totals
  local cpu=""
  [[ -n "${3:-}" ]] && cpu=$(cpu_of "$2")
  awk -v mix="$1" -v name="$2" -v qps="$(qps_of "$2")" -v q="${q_sum[$2]}" -v l="${lat_sum[$2]}" -v m="${max_of[$2]}" \
    -v lost="${lost_sum[$2]}" -v cpu="$cpu" 'BEGIN {
      printf "%-8s %-9s %12s %10.3f %10.3f %8.3f %12s\n", mix, name, qps, (q > 0 ? l / q : 0), m, (q > 0 ? lost / q : 0), cpu }'
}
latency_stats() { # file -> "avg_us p99_us p99.9_us max_us over_5ms lost_pct" from every answer's latency (dnsperf -v)
  python3 -c '
import sys
lat, lost = [], 0
for line in open(sys.argv[1]):
    f = line.split()
    if line.startswith("> "):
        if f[1] == "T": lost += 1
        else: lat.append(float(f[-1]) * 1e6)
lat.sort()
n = len(lat) or 1
pct = lambda p: lat[min(len(lat) - 1, int(p * n))] if lat else 0
print("%.0f %.0f %.0f %.0f %d %.3f" % (sum(lat) / n, pct(0.99), pct(0.999), lat[-1] if lat else 0,
                                     sum(1 for x in lat if x > 5000), 100 * lost / (n + lost)))' "$1"
}
latency_turn() { # file -> one turn of $slice seconds at $rate queries/s against gdnsd and ours at
  # the same time (one dnsperf each), every answer's latency appended to $work/latency-<name>.txt.
  # dnsperf writes them to a file (a pipe would stall it and show in the figures). First an
  # unrecorded second at the rate: each server is measured from a steady state, not straight out
  # of the idle time while the others were measured.
  local pass name seconds out clients
  for pass in warm recorded; do
    clients=()
    for name in gdnsd gslb; do
      seconds=1 out=/dev/null
      [[ $pass == recorded ]] && seconds=$slice out="$work/turn-$name.txt"
      taskset -c 1 dnsperf -s 127.0.0.1 -p "${latency_port[$name]}" -d "$1" -l "$seconds" -Q "$rate" -c 4 -t 2 -v \
        >"$out" 2>/dev/null &
      clients+=($!)
    done
    wait "${clients[@]}"
  done
  for name in gdnsd gslb; do cat "$work/turn-$name.txt" >>"$work/latency-$name.txt"; done
}
declare -A latency_port=([gdnsd]=$gdnsd_port [gslb]=$ours_port)

echo
echo "1. throughput, one thread each: servers on CPU 0, dnsperf on CPU 1 (-c 4 -q 200; ${rounds} turns of ${slice}s each)"
echo "   (when neither server uses all of CPU 0, dnsperf is the limit: then CPU per query compares them)"
printf "%-8s %-9s %12s %10s %10s %8s %12s\n" mix server "queries/s" "avg ms" "max ms" "lost %" "cpu us/q"
for mix in static wideip; do
  peers=(gdnsd); [[ $mix == static ]] && peers=(gdnsd knot nsd)
  for port in "$ours_port" "$rrl_port" "$gdnsd_port" "$knot_port" "$nsd_port"; do pin=1 perf "$port" "$work/$mix.txt" "$warmup" >/dev/null; done
  reset_totals
  for _ in $(seq 1 "$rounds"); do
    pin=1 slice_of gdnsd "$gdnsd_port" "$work/$mix.txt" "$gdnsd_pid"
    pin=1 slice_of gslb "$ours_port" "$work/$mix.txt" "$ours_pid"
    if [[ $mix == static ]]; then
      pin=1 slice_of knot "$knot_port" "$work/$mix.txt" "$knot_pid"
      pin=1 slice_of nsd "$nsd_port" "$work/$mix.txt" "$nsd_pid"
    fi
    pin=1 slice_of gslb-rrl "$rrl_port" "$work/$mix.txt" "$rrl_pid"
    for peer in "${peers[@]}"; do turn_ratio gslb "$peer"; done
  done
  for name in "${peers[@]}" gslb gslb-rrl; do row "$mix" "$name" cpu; done
  versus "$mix" gslb "${peers[@]}"
  printf "%-8s ratio gslb-rrl/gdnsd = %s (every answer pays the rate-limit lookup)\n" "$mix" \
    "$(ratio "$(qps_of gslb-rrl)" "$(qps_of gdnsd)")"
done

echo
echo "2. latency at $rate queries/s, one thread each, pinned as above, gdnsd and ours asked at the same time"
echo "   (one dnsperf each, both on CPU 1, so that the host's stalls fall on both; ${rounds} turns of ${slice}s; every answer timed)"
printf "%-8s %-9s %10s %10s %10s %10s %10s %8s\n" mix server "avg us" "p99 us" "p99.9 us" "max us" ">5 ms" "lost %"
for mix in static wideip; do
  rm -f "$work"/latency-*.txt
  turn_ratios=()
  for _ in $(seq 1 "$rounds"); do
    latency_turn "$work/$mix.txt"
    read -r g_avg _ < <(latency_stats "$work/turn-gdnsd.txt")
    read -r o_avg _ < <(latency_stats "$work/turn-gslb.txt")
    turn_ratios[gdnsd]="${turn_ratios[gdnsd]:-} $(ratio "$o_avg" "$g_avg")"
  done
  for name in gdnsd gslb; do
    read -r avg p99 p999 max over lost < <(latency_stats "$work/latency-$name.txt")
    printf "%-8s %-9s %10s %10s %10s %10s %10s %8s\n" "$mix" "$name" "$avg" "$p99" "$p999" "$max" "$over" "$lost"
    if [[ $name == gdnsd ]]; then g=("$avg" "$p99" "$p999"); else o=("$avg" "$p99" "$p999"); fi
  done
  printf "%-8s gslb/gdnsd: average %s (per turn %s; bar: at most 1.00), p99 %s, p99.9 %s (bars: at most 1.20)\n" "$mix" \
    "$(ratio "${o[0]}" "${g[0]}")" "$(band gdnsd)" "$(ratio "${o[1]}" "${g[1]}")" "$(ratio "${o[2]}" "${g[2]}")"
done

echo
echo "3. signed answers: the zone signed on ours, the same mixes with DO on every query, beside them without"
echo "   (one thread, pinned as in 1; ${rounds} turns of ${slice}s each, taking turns)"
printf "%-8s %-9s %12s %10s %10s %8s %12s\n" mix answers "queries/s" "avg ms" "max ms" "lost %" "cpu us/q"
for mix in static wideip; do
  extra=-D pin=1 perf "$ours_port" "$work/$mix.txt" "$warmup" >/dev/null
  reset_totals
  for _ in $(seq 1 "$rounds"); do
    pin=1 slice_of unsigned "$ours_port" "$work/$mix.txt" "$ours_pid"
    extra=-D pin=1 slice_of signed "$ours_port" "$work/$mix.txt" "$ours_pid"
    turn_ratio signed unsigned
  done
  for name in unsigned signed; do row "$mix" "$name" cpu; done
  printf "%-8s ratio signed/unsigned = %s (per turn %s; bar: at least 0.80)\n" "$mix" \
    "$(ratio "$(qps_of signed)" "$(qps_of unsigned)")" "$(band unsigned)"
done
# Names never asked before: each answer is a compact denial whose NSEC is signed then and there.
# Other fresh names first, unmeasured: the signing code (the JDK's P-256 arithmetic) is compiled
# then, not during the measurement (the cached signatures above hardly ran it).
for seed in 7 8; do
  python3 -c "import random; r = random.Random($seed); print('\n'.join('f%012x.example.com A' % r.getrandbits(48) for _ in range(400000)))" \
    >"$work/fresh-$seed.txt"
done
cp "$work/fresh-7.txt" "$work/fresh.txt"
for port in "$ours_port" "$rrl_port"; do extra=-D pin=1 perf "$port" "$work/fresh-8.txt" $((2 * warmup)) >/dev/null; done
t0=$(ticks "$ours_pid")
read -r qps avg max lost < <(extra=-D pin=1 perf "$ours_port" "$work/fresh.txt" "$warmup")
t1=$(ticks "$ours_pid")
printf "fresh    signed    %12s %10s %10s %8s %12s   (each query a new name: one NSEC signed, ECDSA P-256)\n" \
  "$qps" "$avg" "$max" "$lost" \
  "$(awk -v t="$((t1 - t0))" -v hz="$hz" -v q="$qps" -v s="$warmup" 'BEGIN { printf "%.1f", (q > 0 ? t * 1e6 / hz / (q * s) : 0) }')"
# The same names against the RRL instance, which keeps the default signing budget (1000 a second):
# beyond it the answers are SERVFAIL, and the CPU a query costs falls back towards an unsigned one's.
t0=$(ticks "$rrl_pid")
fresh_out="$(taskset -c 1 dnsperf -s 127.0.0.1 -p "$rrl_port" -d "$work/fresh.txt" -l "$warmup" -c 4 -q 200 -t 2 -D 2>&1)"
t1=$(ticks "$rrl_pid")
read -r qps servfail < <(awk '/Queries per second:/ {qps=$4} /Response codes:/ { for (i = 3; i <= NF; i++) if ($i == "SERVFAIL") sf = $(i + 2) }
  END { gsub(/[(),%]/, "", sf); printf "%.0f %s\n", qps, (sf == "" ? "0" : sf) }' <<<"$fresh_out")
printf "fresh    budgeted  %12s %10s %10s %8s %12s   (the default budget, 1000 signatures/s: %s %% SERVFAIL)\n" \
  "$qps" "-" "-" "-" \
  "$(awk -v t="$((t1 - t0))" -v hz="$hz" -v q="$qps" -v s="$warmup" 'BEGIN { printf "%.1f", (q > 0 ? t * 1e6 / hz / (q * s) : 0) }')" \
  "$servfail"

# Two threads each: only these two servers run now, unpinned, dnsperf sharing the cores.
for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
wait 2>/dev/null || true
pids=()
gdnsd -c "$work/gdnsd2" start >"$work/gdnsd2.log" 2>&1 &
pids+=($!); gdnsd2_pid=$!
knotd -c "$work/knot2/knot.conf" >"$work/knot2.log" 2>&1 &
pids+=($!); knot2_pid=$!
nsd -d -c "$work/nsd2/nsd.conf" >"$work/nsd2.log" 2>&1 &
pids+=($!); nsd2_pid=$!
serve 0,1 ours2 "$work/ours.yaml" "$ours2_port" 2 --admin 127.0.0.1:0 --sync 127.0.0.1:0
ours2_pid=$!
for port in "$gdnsd2_port" "$knot2_port" "$nsd2_port" "$ours2_port"; do wait_port "$port"; done
python3 "$here/bench/same-slice.py" "$gdnsd2_pid" "$knot2_pid" "$nsd2_pid"
echo
echo "4. throughput, two threads each, no pinning (dnsperf shares the cores; ${rounds} turns of ${slice}s each)"
printf "%-8s %-9s %12s %10s %10s %8s %12s\n" mix server "queries/s" "avg ms" "max ms" "lost %" "cpu us/q"
for mix in static wideip; do
  peers=(gdnsd); [[ $mix == static ]] && peers=(gdnsd knot nsd)
  for port in "$ours2_port" "$gdnsd2_port" "$knot2_port" "$nsd2_port"; do perf "$port" "$work/$mix.txt" "$warmup" >/dev/null; done
  reset_totals
  for _ in $(seq 1 "$rounds"); do
    slice_of gdnsd "$gdnsd2_port" "$work/$mix.txt" "$gdnsd2_pid"
    slice_of gslb "$ours2_port" "$work/$mix.txt" "$ours2_pid"
    if [[ $mix == static ]]; then
      slice_of knot "$knot2_port" "$work/$mix.txt" "$knot2_pid"
      slice_of nsd "$nsd2_port" "$work/$mix.txt" "$nsd2_pid"
    fi
    for peer in "${peers[@]}"; do turn_ratio gslb "$peer"; done
  done
  for name in "${peers[@]}" gslb; do row "$mix" "$name" cpu; done
  versus "$mix" gslb "${peers[@]}"
  [[ $mix == wideip ]] && echo "         (wide IP decided by global availability here: no peer)"
done

echo
echo "5. the static mix over IPv6 (::1) and over TCP (pipelined: dnsperf -m tcp), two threads each, no pinning (${duration}s)"
printf "%-14s %-9s %12s %10s %10s %8s\n" transport server "queries/s" "avg ms" "max ms" "lost %"
declare -A port_of=([gdnsd]=$gdnsd2_port [knot]=$knot2_port [nsd]=$nsd2_port [gslb]=$ours2_port)
for transport in ipv6 tcp; do
  if [[ $transport == ipv6 ]]; then server=::1; opts=(); else server=127.0.0.1; opts=(-m tcp); fi
  for name in gdnsd knot nsd gslb; do
    server="$server" perf "${port_of[$name]}" "$work/static.txt" "$warmup" "${opts[@]}" >/dev/null
    read -r qps avg max lost < <(server="$server" perf "${port_of[$name]}" "$work/static.txt" "$duration" "${opts[@]}")
    printf "%-14s %-9s %12s %10s %10s %8s\n" "$transport" "$name" "$qps" "$avg" "$max" "$lost"
    [[ $transport == tcp && $name == nsd ]] && nsd_tcp=$qps
    [[ $transport == tcp && $name == gslb ]] && ours_tcp=$qps
  done
done
printf "tcp            ratio gslb/nsd = %s (pipelined; bar: 1.00)\n" "$(ratio "$ours_tcp" "$nsd_tcp")"

echo
echo "6. TCP, a fresh connection per query (connect, query, answer, close), two threads each, one client"
echo "   on CPU 1; after 30,000 unrecorded connections each (the JIT compilers done: after 10,000 ours still"
echo "   compiled the accept and close path through the recorded turns), servers taking turns"
echo "   (${rounds} turns of 2,000 each)"
printf "%-9s %10s %10s %10s %10s\n" server "median us" "p99 us" "max us" "conn/s"
for name in gdnsd knot nsd gslb; do
  taskset -c 1 python3 "$here/bench/tcp-fresh.py" "${port_of[$name]}" 30000 >/dev/null
done
for _ in $(seq 1 "$rounds"); do
  for name in gdnsd knot nsd gslb; do
    taskset -c 1 python3 "$here/bench/tcp-fresh.py" "${port_of[$name]}" 2000 --raw >>"$work/fresh-tcp-$name.txt"
  done
done
for name in gdnsd knot nsd gslb; do
  read -r median p99 max rate < <(python3 "$here/bench/tcp-fresh.py" --summary "$work/fresh-tcp-$name.txt")
  printf "%-9s %10s %10s %10s %10s\n" "$name" "$median" "$p99" "$max" "$rate"
  [[ $name == nsd ]] && { nsd_median=$median; nsd_p99=$p99; }
  [[ $name == gslb ]] && { ours_median=$median; ours_p99=$p99; }
done
printf "fresh TCP: median gslb/nsd = %s, p99 gslb/nsd = %s (bar: at most 1.20)\n" \
  "$(ratio "$ours_median" "$nsd_median")" "$(ratio "$ours_p99" "$nsd_p99")"
