#!/usr/bin/env bash
# End to end as an operator would use it: a small internet in Linux network namespaces (all
# addresses in 198.18.0.0/15), a real root/com server (NSD) holding the registrar's delegation of
# example.com to our two instances (dc-cnc, dc-tel), a real resolver (unbound, namespace ldns)
# that users ask with dig, ISP links made slower for real with nftables NFQUEUE and nfq-delay.
# Shows the five user stories (README "Operator guide"), RTT ordering and its swap, failover time,
# a saturated link spilling to the other (net-snmp's snmpd on the ISP router, iperf3 traffic), a
# gateway cut seen on both instances, the unprobeable resolver placed by topology. DNSSEC: root, com.
# and example.com signed (keys made at start), the resolvers validate; every kind of answer from
# either instance is validated before and after the swap, and a wrong key is caught (dnssec.sh).
# Prints a summary; fails loudly; always cleans up.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
e2e="$here/systest/e2e"
work="$(mktemp -d)"
G="$here/gslb"
. "$here/systest/namespaces.sh"   # say, pass, fail, in_ns, since, bg, stop_all, router, link, summary
. "$e2e/dnssec.sh"                # dnssec_zones, dnssec_pinned_resolvers, dnssec_validated, dnssec_wrong_key_fails
# The gslb CLI inside a data center's namespace, with that instance's admin token.
gslb_in() { local dc="$1"; shift; ip netns exec "dc-$dc" env GSLB_TOKEN_FILE="$e2e/var/$dc/admin.token" "$G" "$@"; }

namespaces=(gslb-inet gslb-root dc-cnc dc-tel ldns ldns2)
cleanup() {
  stop_all
  rm -rf "$work" "$e2e/var" "$e2e/keys" "$e2e/tel-wrong.yaml"
}
trap cleanup EXIT
cleanup 2>/dev/null; trap cleanup EXIT
mkdir -p "$work"

# ---- the small internet: a router namespace with one /24 link to each other namespace ----
say "building the test internet"
gcc -O2 -Wall -o "$work/nfq-delay" "$e2e/nfq-delay.c" -lnetfilter_queue || { echo "cannot build nfq-delay"; exit 1; }
router gslb-inet
link gslb-root 1
link dc-cnc 2
link dc-tel 3
link ldns 4
link ldns2 5
in_ns dc-cnc ip addr add 198.18.2.10/24 dev isp0   # CNC's virtual server (VIP)
in_ns dc-tel ip addr add 198.18.3.10/24 dev isp0   # TEL's virtual server (VIP)

# CNC's link 40 ms slower toward the users' resolver: its packets wait in NFQUEUE 1 (iptables'
# NFQUEUE target; this kernel lacks nftables' own queue module).
bg nfq.log gslb-inet "$work/nfq-delay" 1 40
in_ns gslb-inet iptables-legacy -A FORWARD -s 198.18.2.0/24 -d 198.18.4.0/24 -j NFQUEUE --queue-num 1 \
  || { echo "cannot install the delay rule"; exit 1; }
# The second resolver drops every probe (anything new from the data centers); its own lookups work.
in_ns ldns2 nft -f - <<NFT || { echo "cannot install the drop rules"; exit 1; }
table inet gslb_drop {
  chain input { type filter hook input priority 0; policy accept;
    ct state established,related accept
    ip saddr { 198.18.2.0/24, 198.18.3.0/24 } drop
  }
}
NFT

# ---- the root/com server and the virtual servers' services ----
cp "$e2e"/root.zone "$e2e"/com.zone "$e2e"/nsd.conf "$work/"
dnssec_zones   # keys; DS in the parents; root.zone.signed, com.zone.signed; the trust anchor; keys/
bg nsd.log gslb-root env -C "$work" nsd -d -c "$work/nsd.conf"
# The hidden primary of example.net: BIND beside NSD, telling both instances of each change.
example_net() { # serial, api's address: the zone BIND serves
  printf '$ORIGIN example.net.\n$TTL 300\n@ IN SOA ns1.example.net. hostmaster.example.net. %s 3600 600 604800 300\n' "$1"
  printf '  IN NS ns1.example.net.\nns1 IN A 198.18.1.2\napi IN A %s\n$GENERATE 1-100 host-$ IN A 198.18.9.$\n' "$2"
}
example_net 1 198.18.8.1 > "$work/example.net.zone"
cat > "$work/named.conf" <<NAMED
options {
  directory "$work";
  listen-on port 5300 { 198.18.1.2; };
  listen-on-v6 { none; };
  pid-file "$work/named.pid";
  session-keyfile "$work/session.key";
  recursion no;
  dnssec-validation no;
  notify explicit;
  also-notify { 198.18.2.2 key xfr; 198.18.3.2 key xfr; };
  allow-transfer { key xfr; };
  ixfr-from-differences yes;
  notify-delay 0;
};
key xfr { algorithm hmac-sha256; secret "ZTJlLXRlc3Qta2V5LWZvci1leGFtcGxlLm5ldC14ZnI="; };
controls { };
zone "example.net" { type primary; file "example.net.zone"; };
NAMED
bg named.log gslb-root named -g -c "$work/named.conf"
mkdir -p "$work/www"; echo ok > "$work/www/index.html"
bg vs-cnc.log dc-cnc env -C "$work/www" /usr/bin/python3 -m http.server 80 --bind 198.18.2.10
bg vs-tel.log dc-tel env -C "$work/www" /usr/bin/python3 -m http.server 80 --bind 198.18.3.10
# The ISP router's SNMP agent: IF-MIB counters of its ports, read by the CNC instance for link CNC-1.
mkdir -p "$work/snmp"
printf 'agentaddress udp:198.18.2.1:161\nrocommunity gslb-e2e 198.18.2.0/24\n' > "$work/snmp/snmpd.conf"
bg snmpd.log gslb-inet env SNMP_PERSISTENT_DIR="$work/snmp" snmpd -f -Lo -C -c "$work/snmp/snmpd.conf" -p "$work/snmp/pid"

# ---- story 4 needs both instances running: start them as an operator would ----
say "starting the two GSLB instances"
bg cnc.log dc-cnc env -C "$e2e" "$G" serve --config "$e2e/cnc.yaml"
bg tel.log dc-tel env -C "$e2e" "$G" serve --config "$e2e/tel.yaml"
for dc in cnc tel; do # each instance answers /health within a minute, or the test says why not (its log)
  up=no
  for _ in $(seq 1 120); do in_ns "dc-$dc" curl -sf http://127.0.0.1:8053/health >/dev/null && { up=yes; break; }; sleep 0.5; done
  if [[ $up == no ]]; then
    fail "start: the $dc instance does not answer /health after 60 s; its log:"
    tail -n 40 "$work/$dc.log"
  fi
done
cp "$e2e/root.hints" "$work/"
bg unbound1.log ldns env -C "$work" unbound -d -c "$e2e/unbound1.conf"
bg unbound2.log ldns2 env -C "$work" unbound -d -c "$e2e/unbound2.conf"
dnssec_pinned_resolvers   # 198.18.4.2 port 5301 asks only dc-cnc, port 5302 only dc-tel
for r in "ldns 198.18.4.2 53" "ldns2 198.18.5.2 53" "ldns 198.18.4.2 5301" "ldns 198.18.4.2 5302"; do  # until each answers
  set -- $r
  for _ in $(seq 1 40); do in_ns "$1" dig +time=1 +tries=1 -p "$3" @"$2" . SOA >/dev/null 2>&1 && break; sleep 0.25; done
done

# ---- story 4: pair the two instances across their ISP links ----
say "story 4: gslb peer pair"
token="$(gslb_in cnc peer pair | awk '/^Join token/ {getline; getline; print $1; exit}')"
echo "on dc-cnc: gslb peer pair -> a join token of ${#token} characters; on dc-tel: gslb peer join (token on stdin)"
if printf '%s\n' "$token" | gslb_in tel peer join; then pass "story 4: peer join succeeds only once connected"
else fail "story 4: peer join succeeds only once connected"; fi
connected=no
for _ in $(seq 1 40); do
  if gslb_in cnc peer list | grep -q "gslb-tel (TEL): connected" \
     && gslb_in tel peer list | grep -q "gslb-cnc (CNC): connected"; then connected=yes; break; fi
  sleep 0.5
done
gslb_in cnc peer list
[[ $connected == yes ]] && pass "story 4: peer pair + join connects the instances" || fail "story 4: peer pair + join connects the instances"
dnssec_one_key_set

# ---- story 2: load ISP CIDR lists (on one instance: the sync group takes them to the other) ----
say "story 2: gslb topology load, on dc-cnc only"
gslb_in cnc config status
gslb_in cnc topology load "$here/topology-data/china-operator-ip" | head -12
loaded_at=$(date +%s.%N)
# dc-tel's admin API, read with curl (a JVM per check would hide the figure)
tel_api() { in_ns dc-tel curl -sf -H "Authorization: Bearer $(cat "$e2e/var/tel/admin.token")" "http://127.0.0.1:8053$1"; }
synced=""
for _ in $(seq 1 100); do
  if tel_api "/topology/lookup?ip=198.18.5.2" | grep -q '"region" *: *"lab"'; then synced=$(since "$loaded_at"); break; fi
  sleep 0.05
done
if gslb_in cnc topology lookup 198.18.5.2 | grep -q "region lab" \
   && gslb_in cnc topology lookup 61.136.178.229 | grep -q "region chinanet"; then
  pass "story 2: ISP lists loaded; 61.136.178.229 -> chinanet, 198.18.5.2 -> lab"
else fail "story 2: ISP lists loaded"; fi
gslb_in tel config status
if [[ -n "$synced" ]] && gslb_in tel config status | grep -q "gslb-tel (here) *1 *gslb-cnc" \
   && gslb_in tel config status | grep -q "^in sync"; then
  pass "sync group: the lists loaded on dc-cnc are served by dc-tel within ${synced} s of the load's end (configuration generation 1 from gslb-cnc on both, in sync)"
else fail "sync group: the lists loaded on dc-cnc reach dc-tel (after '${synced}' s)"; fi

# ---- zone transfers: example.net from a hidden primary (BIND), followed by both instances ----
say "zone transfers: a change on BIND reaches both instances by NOTIFY and IXFR"
net_at() { in_ns ldns dig +short +time=1 +tries=1 @"$1" "$2" A 2>/dev/null | head -1; }
for _ in $(seq 1 60); do
  [[ "$(net_at 198.18.2.2 api.example.net)" == 198.18.8.1 && "$(net_at 198.18.3.2 api.example.net)" == 198.18.8.1 ]] && break
  sleep 0.5
done
if [[ "$(net_at 198.18.2.2 api.example.net)" == 198.18.8.1 && "$(net_at 198.18.3.2 api.example.net)" == 198.18.8.1 ]]; then
  pass "zone transfers: both instances took example.net from BIND (AXFR with TSIG)"
else fail "zone transfers: both instances took example.net from BIND (cnc '$(net_at 198.18.2.2 api.example.net)', tel '$(net_at 198.18.3.2 api.example.net)')"; fi
example_net 2 198.18.8.2 > "$work/example.net.zone"
changed_at=$(date +%s.%N)
in_ns gslb-root pkill -HUP -f "named -g -c $work/named.conf"
followed=""
for _ in $(seq 1 200); do
  if [[ "$(net_at 198.18.2.2 api.example.net)" == 198.18.8.2 && "$(net_at 198.18.3.2 api.example.net)" == 198.18.8.2 ]]; then
    followed=$(since "$changed_at"); break
  fi
  sleep 0.05
done
if [[ -n "$followed" ]] && grep -q "IXFR ended" "$work/named.log"; then
  pass "zone transfers: BIND's change answered by both instances ${followed} s after it (NOTIFY, IXFR)"
else fail "zone transfers: BIND's change reaches both instances (after '${followed}' s; BIND's log: $(grep -c 'IXFR ended' "$work/named.log") IXFR)"; fi
if in_ns ldns dig +time=2 +tries=1 @198.18.2.2 example.net AXFR | grep -q "Transfer failed"; then
  pass "zone transfers: an AXFR of example.net from the resolvers' network is refused (no transfer: on it)"
else fail "zone transfers: an AXFR of example.net from the resolvers' network is refused"; fi

# ---- story 1: the registrar's delegation, resolved by a real resolver ----
say "story 1: dig through unbound (root -> com -> our instances)"
ask() { in_ns ldns dig +short +time=2 +tries=1 @198.18.4.2 www.example.com A 2>/dev/null | tail -1; }
first=""
for _ in $(seq 1 20); do first="$(ask)"; [[ -n "$first" ]] && break; sleep 0.5; done
echo "first answer: $first"
ns="$(in_ns ldns dig +short @198.18.4.2 example.com NS | sort | tr '\n' ' ')"
echo "NS of example.com via unbound: $ns"
if [[ "$first" =~ ^198\.18\.[23]\.10$ && "$ns" == *"ns-cnc.example.com."*"ns-tel.example.com."* ]]; then
  pass "story 1: delegated zone answers through unbound ($first)"
else fail "story 1: delegated zone answers through unbound (got '$first', NS '$ns')"; fi

# ---- story 3 + RTT: both instances hold both paths; the answer is the nearer data center ----
say "story 3: gslb ldns show 198.18.4.2 (unbound's address), on both instances"
paths_both() { # namespace -> "cnc_rtt tel_rtt" from ldns show --json
  gslb_in "${1#dc-}" ldns show 198.18.4.2 --json 2>/dev/null | /usr/bin/python3 -c '
import json,sys
try:
    e=json.load(sys.stdin); p={x["dataCenter"]:x["rttMicros"] for x in e["paths"]}
    print(p.get("CNC",""), p.get("TEL",""))
except Exception: print("", "")'
}
rtt_ok=no
for _ in $(seq 1 60); do
  ask >/dev/null
  read -r c1 t1 < <(paths_both dc-cnc); read -r c2 t2 < <(paths_both dc-tel)
  if [[ -n "$c1" && -n "$t1" && -n "$c2" && -n "$t2" ]]; then rtt_ok=yes; break; fi
  sleep 0.5
done
gslb_in cnc ldns show 198.18.4.2; gslb_in tel ldns list --format 3dns
if [[ $rtt_ok == yes && $c1 -gt $((t1 + 30000)) && $c2 -gt $((t2 + 30000)) ]]; then
  pass "story 3: both instances hold both paths; CNC ${c1} us vs TEL ${t1} us (on dc-cnc), ${c2} vs ${t2} us (on dc-tel)"
else fail "story 3: both paths with CNC 40 ms slower (dc-cnc: '$c1' '$t1', dc-tel: '$c2' '$t2')"; fi

answer_is() { # address, seconds: poll dig through unbound until it answers the address
  for _ in $(seq 1 $(( $2 * 4 ))); do [[ "$(ask)" == "$1" ]] && return 0; sleep 0.25; done; return 1
}
if answer_is 198.18.3.10 30; then pass "RTT: dig through unbound gets TEL's 198.18.3.10 (CNC is 40 ms slower)"
else fail "RTT: dig through unbound gets TEL's address (got '$(ask)')"; fi
say "DNSSEC: validated answers (TEL the faster data center)"
dnssec_validated "with TEL fastest"

say "swapping the delays: TEL's link is now the slow one"
in_ns gslb-inet iptables-legacy -F FORWARD
in_ns gslb-inet iptables-legacy -A FORWARD -s 198.18.3.0/24 -d 198.18.4.0/24 -j NFQUEUE --queue-num 1 \
  || fail "swap: the delay rule"
in_ns gslb-inet iptables-legacy -L FORWARD -n | tail -1
swap_start=$(date +%s)
if answer_is 198.18.2.10 90; then
  read -r c1 t1 < <(paths_both dc-cnc); read -r c2 t2 < <(paths_both dc-tel)
  if [[ -n "$t1" && -n "$t2" && $t1 -gt $c1 && $t2 -gt $c2 ]]; then  # smoothed: the gap grows over rounds
    pass "RTT swap: refreshed paths (probe.refresh 8 s), CNC's 198.18.2.10 after $(( $(date +%s) - swap_start )) s (TEL now ${t1} us vs CNC ${c1} us, smoothed)"
  else fail "RTT swap: answer CNC but the paths do not show TEL slower (dc-cnc '$c1' '$t1', dc-tel '$c2' '$t2')"; fi
else fail "RTT swap: the answer follows the new delays (got '$(ask)')"; fi
say "DNSSEC: validated answers again (CNC now the faster data center)"
dnssec_validated "with CNC fastest"
say "DNSSEC: a ZSK roll"
dnssec_zsk_roll

# ---- failover: cut CNC's link ----
say "failover: ip link set down on CNC's ISP link"
# Two figures: when dc-tel itself answers TEL (ours: the monitor's checks), and when unbound does
# (the resolver's: its cached answer lives the TTL, and once it expires unbound may first try dc-cnc,
# now out of reach, and wait out its own timeouts before asking dc-tel).
server_bound=$(awk 'BEGIN { print 1 * 2 + 0.5 + 1 }')   # interval x down threshold + check timeout + 1 s
cut=$(date +%s.%N)
in_ns dc-cnc ip link set isp0 down
( for _ in $(seq 1 400); do   # dc-tel's own answer, every 50 ms, in the background
    if [[ "$(in_ns ldns dig +short +time=1 +tries=1 @198.18.3.2 www.example.com A 2>/dev/null | tail -1)" == 198.18.3.10 ]]; then
      date +%s.%N >"$work/failover-server"; break; fi
    sleep 0.05
  done ) &
server_poll=$!
switched=""
for _ in $(seq 1 200); do
  if [[ "$(ask)" == "198.18.3.10" ]]; then switched=$(date +%s.%N); break; fi
  sleep 0.1
done
wait "$server_poll"
server_took=""
[[ -s "$work/failover-server" ]] && server_took=$(awk -v a="$cut" -v b="$(cat "$work/failover-server")" 'BEGIN { printf "%.1f", b - a }')
if [[ -n "$server_took" ]] && awk -v t="$server_took" -v b="$server_bound" 'BEGIN { exit !(t <= b) }'; then
  pass "failover: dc-tel answers TEL ${server_took} s after the cut (bound ${server_bound} s = 1 s x 2 + timeout 0.5 s + 1 s)"
else fail "failover: dc-tel answers TEL '${server_took}' s after the cut, bound ${server_bound} s"; fi
if [[ -n "$switched" && -n "$server_took" ]]; then
  took=$(awk -v a="$cut" -v b="$switched" 'BEGIN { printf "%.1f", b - a }')
  bound=$(awk -v s="$server_took" 'BEGIN { print s + 5 + 2.5 }')   # + TTL 5 s + one 2 s ask spent on dc-cnc + 0.5 s
  if awk -v t="$took" -v b="$bound" 'BEGIN { exit !(t <= b) }'; then
    pass "failover: TEL-only answers through unbound ${took} s after the cut (bound ${bound} s = dc-tel's ${server_took} s + TTL 5 s + 2.5 s)"
  else fail "failover: TEL-only answers through unbound ${took} s after the cut, above the bound ${bound} s"; fi
else fail "failover: no TEL-only answer through unbound within 20 s of the cut (dc-tel's own: '${server_took}' s)"; fi
gslb_in tel health
in_ns dc-cnc ip link set isp0 up
in_ns dc-cnc ip route add default via 198.18.2.1 2>/dev/null
# The web monitor has manual-resume (F5's option): vs-cnc, DOWN on dc-tel, stays DOWN there when it
# passes again, until an operator resumes it.
waiting=""
for _ in $(seq 1 40); do
  waiting="$(gslb_in tel health | grep vs-cnc)"
  [[ "$waiting" == *"its monitors passed again"* ]] && break
  sleep 0.25
done
echo "$waiting"
held="$(ask)"
if [[ "$waiting" == *"waiting for resume"*"passed again"* && "$held" == 198.18.3.10 ]]; then
  pass "manual resume: with the link back vs-cnc passes again but waits for the operator on dc-tel (answers stay TEL)"
else fail "manual resume: vs-cnc waits for resume (health '$waiting', answer '$held')"; fi
gslb_in tel resume vs vs-cnc
# dc-cnc lost TEL's server the same way while its own link was down: it waits there (if its
# monitor saw two failures in the cut), and is resumed there too.
gslb_in cnc health | grep vs-tel
gslb_in cnc resume vs vs-tel || true
if answer_is 198.18.2.10 60; then pass "recovery: resumed by hand (gslb resume vs vs-cnc), CNC is answered again"
else fail "recovery: CNC answered again after the resume (got '$(ask)')"; fi

# ---- story 5: a saturated link spills to the other link ----
say "story 5: traffic over CNC's link limit (iperf3 at 200 Mbit/s into the site; limit-in 50 Mbit/s)"
link_field() { # namespace-dc, link, python expression over the link's JSON object l
  gslb_in "$1" link list --json 2>/dev/null | /usr/bin/python3 -c '
import json,sys
try:
    l=[x for x in json.load(sys.stdin) if x["name"]==sys.argv[1]][0]; print(eval(sys.argv[2]))
except Exception: print("")' "$2" "$3"
}
gslb_in cnc link list
alerts_before=$(cat "$e2e/var/cnc/alerts.log" 2>/dev/null | wc -l)  # the failover above may have raised some
bg iperf-server.log dc-cnc iperf3 -s -1 -B 198.18.2.2
sleep 0.5
start=$(date +%s.%N)
bg iperf-client.log ldns iperf3 -c 198.18.2.2 -t 40 -b 200M
iperf_client=${pids[-1]}
over_tel=""
moved=""
for _ in $(seq 1 150); do
  [[ -z "$over_tel" && "$(link_field tel CNC-1 'l["overLimit"] and l["measuredBy"]=="gslb-cnc"')" == True ]] && over_tel=$(since "$start")
  if [[ -z "$moved" && "$(in_ns ldns dig +short +time=1 +tries=1 @198.18.2.2 www.example.com A)" == 198.18.3.10 \
        && "$(in_ns ldns dig +short +time=1 +tries=1 @198.18.3.2 www.example.com A)" == 198.18.3.10 ]]; then
    moved=$(since "$start")
  fi
  [[ -n "$over_tel" && -n "$moved" ]] && break
  sleep 0.2
done
gslb_in tel link list
spilled=""
answer_is 198.18.3.10 20 && spilled=$(since "$start")
why="$(gslb_in cnc resolve www.example.com --ldns 198.18.4.2)"
echo "$why" | grep -E "over limit|decided by" || true
if [[ -n "$over_tel" && -n "$moved" && -n "$spilled" && "$why" == *"link CNC-1 over limit: in "*" > 50.0 Mbit/s"* ]] \
   && awk -v t="$moved" 'BEGIN { exit !(t <= 10) }'; then
  pass "story 5: CNC-1 over its limit; both instances answer the resolver TEL's 198.18.3.10 ${moved} s after the traffic started (bound: snmpd's counters show it within 3 s, then two polls of 3 s, + 1 s; seen over on dc-tel via sync after ${over_tel} s), unbound after ${spilled} s (+ TTL 5 s)"
else fail "story 5: the saturated link spills within two polls (over on dc-tel after '${over_tel}' s, instances moved after '${moved}' s, unbound after '${spilled}' s)"; fi
kill "$iperf_client" 2>/dev/null
stopped=$(date +%s.%N)
back=""
answer_is 198.18.2.10 40 && back=$(since "$stopped")
if [[ -n "$back" && "$(link_field cnc CNC-1 'l["overLimit"]')" == False ]]; then
  pass "story 5: traffic stopped: under resume, CNC answered again through unbound after ${back} s (window 6 s + poll 3 s + TTL 5 s)"
else fail "story 5: CNC answered again after the traffic stopped (got '$(ask)')"; fi

say "link health: CNC's gateway stops answering (ICMP to 198.18.2.1 dropped on the router)"
in_ns gslb-inet iptables-legacy -A INPUT -s 198.18.2.2 -d 198.18.2.1 -p icmp -j DROP
cut=$(date +%s.%N)
down_both=""
for _ in $(seq 1 100); do
  if [[ "$(link_field cnc CNC-1 'l["state"]')" == down \
        && "$(link_field tel CNC-1 'l["state"]+" "+l["measuredBy"]')" == "down gslb-cnc" ]]; then down_both=$(since "$cut"); break; fi
  sleep 0.2
done
gslb_in tel link list
if [[ -n "$down_both" ]] && answer_is 198.18.3.10 20; then
  pass "link health: CNC-1 DOWN on both instances after ${down_both} s (1 s x 2 + sync); answers go to TEL"
else fail "link health: CNC-1 DOWN on both instances and answers to TEL (down after '${down_both}' s, got '$(ask)')"; fi
in_ns gslb-inet iptables-legacy -D INPUT -s 198.18.2.2 -d 198.18.2.1 -p icmp -j DROP
if answer_is 198.18.2.10 30 && [[ "$(link_field tel CNC-1 'l["state"]')" == up ]]; then
  pass "link health: the gateway answers again: CNC-1 UP, CNC answered again"
else fail "link health: CNC-1 back UP and CNC answered (got '$(ask)')"; fi
sleep 1
events="$(tail -n +$((alerts_before + 1)) "$e2e/var/cnc/alerts.log" 2>/dev/null | grep -o '"event":"[a-z-]*"' | cut -d'"' -f4 | tr '\n' ' ')"
echo "alerts received by the program on dc-cnc: $events"
if [[ "$events" == "link-over-limit link-under-limit link-down link-up " ]]; then
  pass "alerts: each link change reached the alert program once ($events)"
else fail "alerts: each link change once (got '$events')"; fi

# ---- the unprobeable resolver, placed by topology; an unknown one, by global availability ----
say "unprobeable LDNS (ldns2 drops every probe) and an LDNS outside every list"
in_ns ldns2 dig +short +time=2 +tries=1 @198.18.5.2 www.example.com A >/dev/null
state2=""
for _ in $(seq 1 40); do  # 4 protocols x 3 samples x 0.5 s time out, then the LDNS is unprobeable
  state2="$(gslb_in tel ldns show 198.18.5.2 2>/dev/null | head -1)"
  [[ "$state2" == *"state unprobeable"* ]] && break
  sleep 0.5
done
echo "$state2"
a2="$(in_ns ldns2 dig +short +time=2 +tries=1 @198.18.5.2 www.example.com A | tail -1)"
explain2="$(gslb_in tel resolve www.example.com --ldns 198.18.5.2)"
echo "$explain2"
if [[ "$state2" == *"state unprobeable"* && "$a2" == "198.18.2.10" && "$explain2" == *"decided by topology"* \
      && "$explain2" == *"region lab"* ]]; then
  pass "unprobeable: ldns2 answers no probe (state unprobeable) and gets CNC by topology (region lab)"
else fail "unprobeable: ldns2 unprobeable and placed by topology (state '$state2', answer '$a2')"; fi
explain3="$(gslb_in tel resolve www.example.com --ldns 198.18.6.2)"
echo "$explain3" | tail -3
if [[ "$explain3" == *"decided by global-availability"* ]]; then
  pass "outside every list: global availability decides (gslb resolve --explain)"
else fail "outside every list: global availability decides"; fi

# ---- maintenance: disable, drain with persistence, enable; the pair agrees; a restart keeps it ----
say "maintenance: gslb disable on dc-cnc takes CNC's server out on both instances"
ask_at() { # instance address, name[, namespace]: the instance's own answer (no resolver cache between)
  in_ns "${3:-ldns}" dig +short +time=2 +tries=1 @"$1" "$2" A 2>/dev/null | tail -1
}
both_answer() { # address, name, seconds: until both instances answer it; prints how long it took
  local t0 i; t0=$(date +%s.%N)
  for i in $(seq 1 $(( $3 * 20 ))); do
    if [[ "$(ask_at 198.18.2.2 "$2")" == "$1" && "$(ask_at 198.18.3.2 "$2")" == "$1" ]]; then since "$t0"; return 0; fi
    sleep 0.05
  done
  return 1
}
both_answer 198.18.2.10 www.example.com 10 >/dev/null || echo "(before: CNC is not answered by both: $(ask_at 198.18.2.2 www.example.com) $(ask_at 198.18.3.2 www.example.com))"
gslb_in cnc disable vs vs-cnc --reason "e2e kernel upgrade"
if took=$(both_answer 198.18.3.10 www.example.com 3); then
  pass "maintenance: vs-cnc disabled on dc-cnc; both instances answer TEL after ${took} s (heartbeat 1 s)"
else fail "maintenance: both answer TEL after the disable (cnc '$(ask_at 198.18.2.2 www.example.com)', tel '$(ask_at 198.18.3.2 www.example.com)')"; fi
health_tel="$(gslb_in tel health)"; explain_tel="$(gslb_in tel resolve www.example.com --ldns 198.18.4.2)"
echo "$health_tel" | grep vs-cnc; echo "$explain_tel" | grep "vs-cnc"
if [[ "$health_tel" == *"disabled by "*"e2e kernel upgrade"* && "$explain_tel" == *"disabled by "*"e2e kernel upgrade"* ]]; then
  pass "maintenance: dc-tel's gslb health and resolve --explain say who disabled vs-cnc and why"
else fail "maintenance: dc-tel shows who disabled vs-cnc and why"; fi
gslb_in tel enable vs vs-cnc
if took=$(both_answer 198.18.2.10 www.example.com 3); then pass "maintenance: enabled on dc-tel; both answer CNC again after ${took} s"
else fail "maintenance: both answer CNC again after the enable"; fi

say "maintenance: drain with persistence (app.example.com, persistence-ttl 120 s)"
persisted="$(ask_at 198.18.2.2 app.example.com)"
echo "ldns's network is answered $persisted for app.example.com"
gslb_in tel drain vs vs-cnc --reason "e2e drain"
sleep 1.5   # one heartbeat: the drain and the persistence entry are on both instances
kept_cnc="$(ask_at 198.18.2.2 app.example.com)"; kept_tel="$(ask_at 198.18.3.2 app.example.com)"
fresh="$(ask_at 198.18.2.2 www.example.com)"; other="$(ask_at 198.18.2.2 app.example.com ldns2)"
echo "persisted network: $kept_cnc (dc-cnc) $kept_tel (dc-tel); no persistence: $fresh; a new network (ldns2): $other"
if [[ "$persisted" == 198.18.2.10 && "$kept_cnc" == 198.18.2.10 && "$kept_tel" == 198.18.2.10 \
      && "$fresh" == 198.18.3.10 && "$other" == 198.18.3.10 ]]; then
  pass "maintenance: drained vs-cnc keeps the network persistence sends there (both instances); new clients get TEL"
else fail "maintenance: drain with persistence"; fi

say "maintenance: the states survive a restart of dc-tel"
gslb_in cnc disable vs vs-tel --reason "e2e restart" --force >/dev/null
sleep 1.5
restart_tel() { # [config]: stops dc-tel's instance and starts it again (from tel.yaml), until it answers /health
  local tel_pid; tel_pid="$(pgrep -f "serve --config $e2e/tel" | head -1)"
  kill "$tel_pid"; for _ in $(seq 1 50); do kill -0 "$tel_pid" 2>/dev/null || break; sleep 0.2; done
  bg "tel-$(date +%s).log" dc-tel env -C "$e2e" "$G" serve --config "${1:-$e2e/tel.yaml}"
  for _ in $(seq 1 120); do in_ns dc-tel curl -sf http://127.0.0.1:8053/health >/dev/null && break; sleep 0.5; done
}
restart_tel
kept="$(gslb_in tel maintenance)"; echo "$kept"
if [[ "$kept" == *"vs-tel"*"disabled"*"e2e restart"* && "$kept" == *"vs-cnc"*"drained"* ]]; then
  pass "maintenance: dc-tel restarted keeps vs-cnc drained and vs-tel disabled"
else fail "maintenance: the states after a restart of dc-tel"; fi
gslb_in cnc enable vs vs-tel >/dev/null; gslb_in cnc enable vs vs-cnc >/dev/null
if both_answer 198.18.2.10 www.example.com 10 >/dev/null; then pass "maintenance: all enabled again, CNC answered by both"
else fail "maintenance: all enabled again"; fi

say "DNSSEC: a wrong key on one instance is caught (dc-tel restarted with another ZSK)"
dnssec_wrong_key_fails restart_tel

say "cleanup: nothing left running"
stop_all
sleep 0.2
left="$(pgrep -af 'nsd -d -c|named -g -c|unbound -d -c|http.server 80 --bind 198.18|nfq-delay|snmpd -f|iperf3 -|gslb.jar serve --config .*systest/e2e' || true)"
if [[ -z "$left" ]]; then pass "cleanup: no nsd, named, unbound, web server, delay, snmpd, iperf3 or gslb process left behind"
else echo "$left"; fail "cleanup: processes left behind"; fi

summary "end-to-end test"
