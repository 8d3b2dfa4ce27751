#!/usr/bin/env bash
# Load-aware steering end to end: two data centers in Linux network namespaces (198.18.0.0/15),
# each with a real load balancer in front of a real application - nginx (stub_status) for dc-cnc,
# HAProxy (its CSV stats page) for dc-tel - and net-snmp's snmpd as dc-cnc's server agent (its
# CPU). One gslb instance per data center, paired, so each polls its own server and hears the
# other's load by sync. Load is real: downloads held open through the balancers (hold.py), ab's
# requests for CPU. The stories are asserted by polling dig answers of both instances (no timing
# assertion, only bounds): least-connections flips as connections move, a CPU limit spills and
# resumes, dynamic-ratio's split follows its weights. Prints every split (expected vs measured);
# fails loudly; always cleans up.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bed="$here/systest/e2e-load"
work="$(mktemp -d)"
G="$here/gslb"
. "$here/systest/namespaces.sh"   # say, pass, fail, in_ns, since, bg, stop_all, router, link, summary
splits=()
# The gslb CLI inside a data center's namespace, with that instance's admin token.
gslb_in() { local dc="$1"; shift; ip netns exec "lt-$dc" env GSLB_TOKEN_FILE="$bed/var/$dc/admin.token" "$G" "$@"; }

namespaces=(lt-inet lt-cnc lt-tel lt-client)
cleanup() {
  stop_all
  rm -rf "$work" "$bed/var"
}
trap cleanup EXIT
cleanup 2>/dev/null; trap cleanup EXIT
mkdir -p "$work"

stop() { # pid: stop one process bg started, and wait for it
  kill "$1" 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$1" 2>/dev/null
}
until_true() { # seconds, command...: poll the command until it succeeds or the bound passes
  local bound="$1"; shift
  for _ in $(seq 1 $(( bound * 4 ))); do "$@" && return 0; sleep 0.25; done
  return 1
}

# ---- the network: a router namespace with one /24 link to each other namespace ----
say "building the test network"
router lt-inet
link lt-cnc 22
link lt-tel 23
link lt-client 24
in_ns lt-cnc ip addr add 198.18.22.10/24 dev isp0   # dc-cnc's virtual server: nginx
in_ns lt-tel ip addr add 198.18.23.10/24 dev isp0   # dc-tel's virtual server: HAProxy

# ---- each data center's application, its balancer, and dc-cnc's SNMP agent ----
say "starting the applications, nginx, HAProxy and snmpd"
mkdir -p "$work/www" "$work/nginx/tmp" "$work/snmp"
echo ok > "$work/www/index.html"
truncate -s 4G "$work/www/big"   # sparse: held downloads read it at 4 KiB/s, it never ends
bg app-cnc.log lt-cnc env -C "$work/www" /usr/bin/python3 -m http.server 8081 --bind 127.0.0.1
app_cnc=${pids[-1]}
bg app-tel.log lt-tel env -C "$work/www" /usr/bin/python3 -m http.server 8081 --bind 127.0.0.1
bg nginx.log lt-cnc nginx -p "$work/nginx/" -c "$bed/nginx.conf" -e stderr -g 'daemon off;'
bg haproxy.log lt-tel haproxy -db -f "$bed/haproxy.cfg"
# snmpd's own hrProcessorLoad (module hr_proc, left out) is the whole machine's: cpu-agent.py
# serves the application's CPU in its place, measured from /proc (see its comment).
cat > "$work/snmp/snmpd.conf" <<EOF
agentaddress udp:198.18.22.10:161
rocommunity gslb-load 198.18.22.0/24
dontLogTCPWrappersConnects yes
pass_persist -p 10 .1.3.6.1.2.1.25.3.3.1.2 /usr/bin/python3 $bed/cpu-agent.py $app_cnc
EOF
bg snmpd.log lt-cnc env MIBS= SNMP_PERSISTENT_DIR="$work/snmp" \
  snmpd -f -Lo -C -c "$work/snmp/snmpd.conf" -p "$work/snmp/pid" -I -hr_proc

stub_active() { # nginx's count of client connections (its own reader included)
  in_ns lt-cnc curl -sf --max-time 2 http://198.18.22.10:8080/stub_status | awk '/^Active connections/ {print $3}'
}
csv_scur() { # HAProxy's current sessions of backend web (field 5, scur, of the BACKEND row)
  in_ns lt-tel curl -sf --max-time 2 'http://198.18.23.10:8404/stats;csv' | awk -F, '$1 == "web" && $2 == "BACKEND" {print $5}'
}
cpu_snmp() { # hrProcessorLoad.1 from dc-cnc's snmpd: the application's CPU, percent
  in_ns lt-cnc snmpget -v2c -c gslb-load -Oqv -t 1 -r 1 198.18.22.10 .1.3.6.1.2.1.25.3.3.1.2.1 2>/dev/null
}
bed_ready() {
  in_ns lt-client curl -sf --max-time 2 http://198.18.22.10/index.html >/dev/null \
    && in_ns lt-client curl -sf --max-time 2 http://198.18.23.10/index.html >/dev/null \
    && [[ -n "$(stub_active)" && -n "$(csv_scur)" && "$(cpu_snmp)" =~ ^[0-9]+$ ]]
}
if until_true 30 bed_ready; then
  pass "test bed: both applications answer through nginx and HAProxy from the client network; stub_status, the CSV stats and snmpd answer (Active connections: $(stub_active), backend web scur $(csv_scur), hrProcessorLoad.1 $(cpu_snmp)%)"
else
  fail "test bed: the applications, balancers and agent answer within 30 s; the logs:"
  tail -n 5 "$work"/app-*.log "$work"/nginx.log "$work"/haproxy.log "$work"/snmpd.log
fi

# ---- the two GSLB instances, started as an operator would, then paired ----
say "starting the two GSLB instances"
# ./gslb builds the jar when the sources are newer: once here, not twice at once by the two serves
# (their builds would overwrite each other's jar) and not inside their start-up bound.
if ! "$G" --version; then fail "start: ./gslb --version (a build of the jar, if the sources are newer)"; summary "end-to-end load test"; exit 1; fi
bg cnc.log lt-cnc env -C "$bed" "$G" serve --config "$bed/cnc.yaml"
bg tel.log lt-tel env -C "$bed" "$G" serve --config "$bed/tel.yaml"
for dc in cnc tel; do # each instance answers /health within a minute, or the test says why not and stops
  if ! until_true 60 in_ns "lt-$dc" curl -sf http://127.0.0.1:8053/health -o /dev/null; then
    fail "start: the $dc instance answers /health within 60 s; its log:"
    tail -n 40 "$work/$dc.log"
    summary "end-to-end load test"
    exit 1
  fi
done
token="$(gslb_in cnc peer pair | awk '/^Join token/ {getline; getline; print $1; exit}')"
printf '%s\n' "$token" | gslb_in tel peer join >/dev/null
paired() { gslb_in cnc peer list | grep -q "gslb-tel (dc-tel): connected" && gslb_in tel peer list | grep -q "gslb-cnc (dc-cnc): connected"; }
if until_true 20 paired; then pass "start: gslb-cnc and gslb-tel paired (peer pair + join), connected"
else gslb_in cnc peer list; fail "start: gslb-cnc and gslb-tel paired and connected"; fi

# ---- asking both instances ----
cnc_vip=198.18.22.10
tel_vip=198.18.23.10
ask_at() { # instance address, name: its answer to the client network (no resolver cache between)
  in_ns lt-client dig +short +time=2 +tries=1 @"$1" "$2" A 2>/dev/null | tail -1
}
both_answer() { # address, name, seconds: until both instances answer it in five polls running (a
                 # passing state does not count); prints how long it took to the first of them
  local t0 first="" streak=0; t0=$(date +%s.%N)
  for _ in $(seq 1 $(( $3 * 10 ))); do
    if [[ "$(ask_at 198.18.22.2 "$2")" == "$1" && "$(ask_at 198.18.23.2 "$2")" == "$1" ]]; then
      [[ $streak -eq 0 ]] && first=$(since "$t0")
      streak=$((streak + 1))
      [[ $streak -ge 5 ]] && { echo "$first"; return 0; }
    else streak=0; fi
    sleep 0.1
  done
  return 1
}
answers() { # name, n: asks each instance n times; prints "answers-with-CNC answers-with-TEL total"
  yes "$1 A" | head -n "$2" > "$work/queries"
  for instance in 198.18.22.2 198.18.23.2; do
    in_ns lt-client dig +short +time=2 +tries=1 @"$instance" -f "$work/queries" 2>/dev/null
  done | awk -v c="$cnc_vip" -v t="$tel_vip" -v n="$(( $2 * 2 ))" \
           '$1 == c {cnc++} $1 == t {tel++} END {print cnc + 0, tel + 0, n}'
}
split() { # story, expected CNC share (percent), tolerance (points), name, n: measures and records
  local story="$1" expected="$2" tolerance="$3" cnc tel total measured verdict
  read -r cnc tel total < <(answers "$4" "$5")
  measured=$(awk -v c="$cnc" -v n="$total" 'BEGIN { printf "%.1f", 100 * c / n }')
  if [[ $((cnc + tel)) -eq $total ]] && awk -v m="$measured" -v e="$expected" -v t="$tolerance" \
       'BEGIN { d = m - e; if (d < 0) d = -d; exit !(d <= t) }'; then verdict=ok; else verdict=OUT; fi
  splits+=("$(printf '%-58s expected CNC %5.1f%% TEL %5.1f%% (+-%s)  measured CNC %5.1f%% TEL %5.1f%% (%d/%d/%d)  %s' \
    "$story" "$expected" "$(awk -v e="$expected" 'BEGIN { print 100 - e }')" "$tolerance" "$measured" \
    "$(awk -v t="$tel" -v n="$total" 'BEGIN { printf "%.1f", 100 * t / n }')" "$cnc" "$tel" "$total" "$verdict")")
  echo "${splits[-1]}"
  echo "(the balancers now: nginx Active connections $(stub_active), HAProxy backend web scur $(csv_scur))"
  [[ $verdict == ok ]]
}
at_least() { local v; v="$("$1")"; [[ "$v" =~ ^[0-9]+$ && $v -ge $2 ]]; }
at_most() { local v; v="$("$1")"; [[ "$v" =~ ^[0-9]+$ && $v -le $2 ]]; }
shows() { # what, reader, at least, seconds: polls a balancer's or agent's figure until it reaches a value
  if until_true "$4" at_least "$2" "$3"; then pass "test bed: $1 ($2 = $("$2"))"
  else fail "test bed: $1 ($2 = '$("$2")', expected at least $3 within $4 s)"; fi
}
moves_to() { # address, name, story: polls until both instances answer the address
  local took
  if took=$(both_answer "$1" "$2" 30); then pass "$3 after ${took} s"
  else fail "$3 (within 30 s: gslb-cnc answers '$(ask_at 198.18.22.2 "$2")', gslb-tel '$(ask_at 198.18.23.2 "$2")')"; fi
}
all_to() { # story, expected CNC share (0 or 100), label, name: 100 answers, every one to that side
  if split "$3" "$2" 0 "$4" 50; then pass "$1: all 100 answers of both instances"
  else fail "$1: all 100 answers of both instances"; fi
}
hold() { # dc, count: real downloads held open through that data center's balancer, from the client,
         # until the balancer counts them (nginx's stub_status counts its reader too)
  if [[ $1 == cnc ]]; then
    bg "hold-cnc-$2.log" lt-client /usr/bin/python3 "$bed/hold.py" "$cnc_vip" 80 "$2" /big
    shows "nginx's stub_status counts the $2 held downloads and its reader" stub_active $(( $2 + 1 )) 15
  else
    bg "hold-tel-$2.log" lt-client /usr/bin/python3 "$bed/hold.py" "$tel_vip" 80 "$2" /big
    shows "HAProxy's CSV stats count the $2 held downloads on backend web" csv_scur "$2" 15
  fi
}
decided_by() { # instance, name, method, story[, pattern]: its explanation shows the method decided (no
                # fallback tier) and, when given, a line matching the extended regular expression
  local why; why="$(gslb_in "$1" resolve "$2" --ldns 198.18.24.2)"
  echo "$why" | tail -n 6
  if [[ "$why" == *"decided by $3 "* ]] && { [[ -z "${5:-}" ]] || grep -Eq "$5" <<<"$why"; }; then
    pass "$4: gslb-$1's resolve --explain says decided by $3${5:+ and matches '$5'}"
  else fail "$4: gslb-$1's resolve --explain says decided by $3${5:+ and matches '$5'} (got '$(grep -m1 "decided by" <<<"$why")')"; fi
}

# ---- story 1: least-connections follows the connections the balancers count ----
say "story 1: least-connections (lc.example.com): 6 downloads held through dc-cnc's nginx, none through dc-tel's HAProxy"
hold cnc 6
moves_to "$tel_vip" lc.example.com "story 1: both instances answer dc-tel (0 connections) over dc-cnc (6)"
all_to "story 1: dc-tel" 0 "least-connections, dc-cnc 6 held, dc-tel 0" lc.example.com
decided_by cnc lc.example.com least-connections "story 1" "vs-tel: [0-9]+ connections"   # vs-tel's, from gslb-tel by sync

say "story 1: 12 downloads held through dc-tel's HAProxy: dc-tel now holds more"
hold tel 12
moves_to "$cnc_vip" lc.example.com "story 1: least-connections flips: both instances answer dc-cnc (6) over dc-tel (12)"
all_to "story 1: dc-cnc" 100 "least-connections, dc-cnc 6 held, dc-tel 12" lc.example.com
decided_by tel lc.example.com least-connections "story 1" "vs-cnc: [0-9]+ connections"   # vs-cnc's, from gslb-cnc by sync

# ---- story 2: a CPU limit spills dc-cnc's answers to dc-tel, and they come back under resume ----
say "story 2: CPU limit 20% on vs-cnc (resume under 50% of it): ab drives dc-cnc's application through nginx"
echo "the application's CPU before: $(cpu_snmp)%"
bg ab.log lt-client ab -q -k -c 2 -t 300 -n 100000000 "http://$cnc_vip/index.html"
ab_pid=${pids[-1]}
shows "snmpget of dc-cnc's snmpd shows the application's CPU over 20% under ab" cpu_snmp 21 20
busy_cpu="$(cpu_snmp)"
moves_to "$tel_vip" lc.example.com "story 2: vs-cnc over its CPU limit (read by gslb-cnc only): both instances answer dc-tel, though it holds more connections,"
all_to "story 2: dc-tel while dc-cnc is over its limit" 0 "CPU limit: dc-cnc over 20% (${busy_cpu}%), least-connections" lc.example.com
decided_by tel lc.example.com least-connections "story 2" "vs-cnc over limit: cpu [0-9.]+ > 20"
stop "$ab_pid"
if until_true 30 at_most cpu_snmp 9; then pass "test bed: ab stopped, snmpd shows the application's CPU under resume (cpu_snmp = $(cpu_snmp))"
else fail "test bed: ab stopped, the application's CPU under resume (cpu_snmp = '$(cpu_snmp)')"; fi
moves_to "$cnc_vip" lc.example.com "story 2: under resume (10%): both instances answer dc-cnc again"

# ---- story 3: dynamic-ratio splits answers by its weights ----
say "story 3: dynamic-ratio (dr.example.com) with dc-cnc holding 6 downloads and dc-tel 12"
# The method's formula (load-balancing.dynamic-ratio; a = b = r1 = 1, r2 = 0, ratios DW = 1, capacity
# C = 20 in cnc.yaml): AL = connections / C, spare = max(0, 1 - AL), LOAD = 2 * spare / (sum of
# spare), W = max(0, 1 + cbrt(LOAD - 1)). The connections are what the balancers count now (nginx's
# count includes its reader, as it does when the instance reads it).
dynamic_ratio() { # CNC's connections, TEL's: prints "CNC's weight, TEL's, CNC's expected share"
  awk -v c="$1" -v t="$2" -v C=20 'function cbrt(x) { return x < 0 ? -((-x) ^ (1 / 3)) : x ^ (1 / 3) }
    function w(spare, sum) { load = sum > 0 ? 2 * spare / sum : 1; x = 1 + cbrt(load - 1); return x < 0 ? 0 : x }
    BEGIN { sc = 1 - c / C; if (sc < 0) sc = 0; st = 1 - t / C; if (st < 0) st = 0
            wc = w(sc, sc + st); wt = w(st, sc + st); printf "%.2f %.2f %.1f\n", wc, wt, 100 * wc / (wc + wt) }'
}
fewest() { # reader: the least of five reads, so a monitor's or a poll's passing connection is not counted
  local v least=""
  for _ in 1 2 3 4 5; do
    v="$("$1")"; [[ "$v" =~ ^[0-9]+$ ]] && { [[ -z "$least" || $v -lt $least ]] && least=$v; }
    sleep 0.2
  done
  echo "$least"
}
in_ns lt-cnc curl -sf http://198.18.22.10:8080/stub_status
# nginx's count less the test's own reading: the instance keeps its reader's connection open (it
# counts it, as one of the "Waiting"), the test's own is opened for the read.
conn_cnc="$(( $(fewest stub_active) - 1 ))"; conn_tel="$(fewest csv_scur)"
read -r weight_cnc weight_tel expected_cnc < <(dynamic_ratio "$conn_cnc" "$conn_tel")
echo "connections: dc-cnc $conn_cnc (stub_status), dc-tel $conn_tel (CSV scur); weights: dc-cnc $weight_cnc, dc-tel $weight_tel"
if split "dynamic-ratio, dc-cnc $conn_cnc conn. (W $weight_cnc), dc-tel $conn_tel (W $weight_tel)" "$expected_cnc" 5 dr.example.com 200; then
  pass "story 3: dynamic-ratio's split of 400 answers is within 5 points of its weights' share"
else fail "story 3: dynamic-ratio's split of 400 answers is within 5 points of its weights' share"; fi
decided_by cnc dr.example.com dynamic-ratio "story 3"
decided_by tel dr.example.com dynamic-ratio "story 3"

if [[ $failed -gt 0 ]]; then # what the load was, for the failure's reader
  say "a check failed: the load generators' and the instances' logs"
  tail -n 3 "$work"/hold-*.log "$work/ab.log"
  grep -ih "load\|limit\|nginx\|haproxy\|snmp" "$work/cnc.log" "$work/tel.log" | tail -n 30
fi

say "cleanup: nothing left running"
stop_all
sleep 0.2
left="$(pgrep -af "http.server 8081 --bind 127.0.0.1|nginx -p $work|haproxy -db -f $bed|snmpd -f -Lo -C -c $work|cpu-agent.py|hold.py|ab -q -k -c 2|gslb.jar serve --config $bed" || true)"
if [[ -z "$left" ]]; then pass "cleanup: no application, nginx, HAProxy, snmpd, load or gslb process left behind"
else echo "$left"; fail "cleanup: processes left behind"; fi

printf '\n== splits (expected vs measured, answers of both instances)\n'
printf '%s\n' "${splits[@]}"
summary "end-to-end load test"
