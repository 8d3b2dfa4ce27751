#!/usr/bin/env bash
# System test: starts the built server as a user would (./gslb serve, embedded default) and checks
# it with the real clients dig and kdig. Prints one line per check and "N passed, M failed".
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Ports: GSLB_TEST_DNS_PORT, GSLB_TEST_ADMIN_PORT, GSLB_TEST_SYNC_PORT, else free ones, so that the
# test runs beside a server that holds the defaults.
# a port free for both TCP and UDP (DNS binds both; a UDP-only pick once met a TCP client's source port)
free_port() { python3 -c '
import socket
while True:
    t = socket.socket(); t.bind(("127.0.0.1", 0)); p = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind(("127.0.0.1", p)); print(p); break
    except OSError:
        pass
    finally:
        u.close(); t.close()
'; }
port="${GSLB_TEST_DNS_PORT:-$(free_port)}"
admin="${GSLB_TEST_ADMIN_PORT:-$(free_port)}"
sync="${GSLB_TEST_SYNC_PORT:-$(free_port)}"
log="$(mktemp)"
passed=0; failed=0
server=""
# The embedded default, except that this test probes loopback LDNS (excluded by default), and its
# state (H2 file, admin token, sync identity) lives in a folder of its own.
state="$(mktemp -d)"
sed -e "s#file: zones/#file: $here/zones/#" -e "s#data: \[topology-data/#data: [$here/topology-data/#" \
  -e "s#127.0.0.1:5353#127.0.0.1:$port#" -e "s#127.0.0.1:8053#127.0.0.1:$admin#" \
  "$here/gslb-config/src/main/resources/default-config.yaml" >"$state/gslb.yaml"
printf 'probe:\n  exclude: []   # this test probes 127.0.0.77-79\n' >>"$state/gslb.yaml"
printf 'sync:\n  listen: ["127.0.0.1:%s"]\n' "$sync" >>"$state/gslb.yaml"
export GSLB_TOKEN_FILE="$state/var/admin.token"
export GSLB_ADMIN="127.0.0.1:$admin" # what every gslb command below talks to

cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$log" "$state"
}
trap cleanup EXIT

check() { # name, then a command that must succeed
  local name="$1"; shift
  if out="$("$@" 2>&1)"; then
    echo "PASS  $name"; passed=$((passed + 1))
  else
    echo "FAIL  $name"; echo "$out" | sed 's/^/      /' | head -20; failed=$((failed + 1))
  fi
}
contains() { # text, then command: the command's output must contain text
  local want="$1"; shift
  local got; got="$("$@" 2>&1)"
  grep -qF -- "$want" <<<"$got" || { echo "expected to find: $want"; echo "$got"; return 1; }
}
equals() { # text, then command: the command's output must be exactly text
  local want="$1"; shift
  local got; got="$("$@" 2>&1)"
  [[ "$got" == "$want" ]] || { echo "expected: $want"; echo "got: $got"; return 1; }
}

"$here/gslb" serve --config "$state/gslb.yaml" >"$log" 2>&1 &
server=$!
for _ in $(seq 1 150); do
  dig +short +time=1 +tries=1 @127.0.0.1 -p $port example.com SOA >/dev/null 2>&1 && break
  sleep 0.2
done

D=(dig @127.0.0.1 -p $port +time=2 +tries=1)
K=(kdig @127.0.0.1 -p $port +time=2 +retry=0)

check "dig: SOA of example.com" contains "ns1.example.com. hostmaster.example.com. 2026112901" "${D[@]}" +short example.com SOA
check "kdig: SOA of example.com, authoritative" contains "Flags: qr aa" "${K[@]}" example.com SOA
check "dig: wide IP www.example.com answers CNC first (global availability)" equals "202.106.83.177" "${D[@]}" +short www.example.com A
check "kdig: wide IP www.example.com with TTL 30" contains "www.example.com.    	30	IN	A	202.106.83.177" "${K[@]}" +nocomments www.example.com A
check "dig: NXDOMAIN with the SOA in authority" bash -c "out=\$(${D[*]} nope.example.com A); grep -q 'status: NXDOMAIN' <<<\"\$out\" && grep -A1 'AUTHORITY SECTION' <<<\"\$out\" | grep -q SOA"
check "kdig: NXDOMAIN" contains "status: NXDOMAIN" "${K[@]}" nope.example.com A
check "dig: truncated over UDP, retried over TCP, 14 records" bash -c "out=\$(${D[*]} big.example.com TXT); grep -q 'Truncated, retrying in TCP mode' <<<\"\$out\" && grep -q 'ANSWER: 14' <<<\"\$out\""
check "kdig: truncated over UDP, retried over TCP" bash -c "out=\$(${K[*]} big.example.com TXT 2>&1); grep -q 'truncated reply' <<<\"\$out\" && grep -q 'ANSWER: 14' <<<\"\$out\""
check "dig: EDNS version 1 gets BADVERS" contains "status: BADVERS" "${D[@]}" +edns=1 +noednsneg example.com SOA
check "kdig: EDNS version 1 gets BADVERS" contains "status: BADVERS" "${K[@]}" +edns=1 example.com SOA
check "dig: REFUSED outside served zones" contains "status: REFUSED" "${D[@]}" www.example.org A
check "dig: AXFR of a zone without transfer: is refused" contains "Transfer failed" "${D[@]}" example.com AXFR
check "kdig -y: a TSIG key this server lacks gets BADKEY" contains "BADKEY" "${K[@]}" -y hmac-sha256:stranger:YSAzMi1ieXRlIHNlY3JldCBmb3IgdGhlIHRlc3RzISE= example.com SOA
check "dig: NSID names the instance" contains "NSID:" "${D[@]}" +nsid example.com SOA
check "dig +cookie: a server cookie comes back, good" contains "(good)" "${D[@]}" +cookie example.com SOA
check "dig +cookie: the server cookie, sent back, is good" bash -c "c=\$(${D[*]} +cookie example.com SOA | awk '/COOKIE:/ {print \$3}'); [[ \${#c} -eq 48 ]] && ${D[*]} +cookie=\$c example.com SOA | grep -q \"COOKIE: .* (good)\""
check "dig: a 12-byte cookie option is FORMERR (RFC 7873 5.2.2)" contains "status: FORMERR" "${D[@]}" +nocookie +ednsopt=10:0102030405060708090a0b0c example.com SOA
check "dig: CHAOS id.server names the instance" bash -c "[[ -n \"\$(${D[*]} +short CH TXT id.server)\" ]]"
check "admin: /health is up" contains '"status":"up"' curl -sf "http://127.0.0.1:$admin/health"
check "admin: /metrics counts answers" contains 'gslb_dns_responses_total{rcode="nxdomain",transport="udp"}' curl -sf "http://127.0.0.1:$admin/metrics"
check "zone check: the shipped zone is valid" contains "OK" "$here/gslb" zone check "$here/zones/example.com.zone"

G=("$here/gslb")
check "topology lookup: a China Telecom resolver maps to TEL" contains "region chinanet" "${G[@]}" topology lookup 61.136.178.229
check "topology lookup: a China Unicom resolver maps to CNC" bash -c "'$here/gslb' topology lookup 202.106.0.20 | grep -q 'CNC.*<- answer'"
check "topology list: shipped regions with counts" contains "unicom" "${G[@]}" topology list
bad="$(mktemp --suffix=.txt)"; printf '198.18.0.0/15\n198.18.0.9/15\n' > "$bad"
check "topology load: a bad file is refused with file:line" bash -c "out=\$('$here/gslb' topology load '$bad' 2>&1); [[ \$? -eq 1 ]] && grep -q '$bad:2:' <<<\"\$out\""
check "topology load: a good file is served at once" bash -c "printf '198.18.0.0/15\n' > '$bad' && '$here/gslb' topology load '$bad' --region lab >/dev/null && '$here/gslb' topology lookup 198.18.1.1 | grep -q 'region lab'"
check "topology lookup --data: works with no server" contains "region unicom" "${G[@]}" topology lookup --data "$here/topology-data/china-operator-ip" 202.106.0.20
rm -f "$bad"

check "ldns: a wide-IP query from a new LDNS is probed" bash -c "dig +short @127.0.0.1 -p $port -b 127.0.0.77 www.example.com >/dev/null; for i in \$(seq 1 50); do '$here/gslb' ldns show 127.0.0.77 2>/dev/null | grep -q 'CNC .*rtt' && exit 0; sleep 0.2; done; exit 1"
check "ldns list --format 3dns: the 3DNS shape" bash -c "'$here/gslb' ldns list --format 3dns | grep -A3 'address 127.0.0.77' | grep -q 'cur_target_state'"
check "ldns probe: tcp to a closed port counts (RST)" contains "answered tcp" "${G[@]}" ldns probe 127.0.0.78 --protocol tcp
check "health: virtual servers listed, unknown without monitors" contains "UNKNOWN" "${G[@]}" health
check "resolve: explains the decision" contains "decided by" "${G[@]}" resolve www.example.com --ldns 202.106.1.1
check "peer list: no peers yet, and how to pair" contains "gslb peer pair" "${G[@]}" peer list
check "peer pair: prints a one-time join token" contains "Join token (usable once" "${G[@]}" peer pair
check "admin: a state change without the token is refused (401)" contains "401" \
  curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$admin/peer/pair"
check "admin: a DNS-rebinding Host is refused (403)" contains "403" curl -s -o /dev/null -w '%{http_code}' \
  -H "Host: evil.example:$admin" -H "Authorization: Bearer $(cat "$GSLB_TOKEN_FILE")" "http://127.0.0.1:$admin/peer/list"
check "state: the admin token and the H2 file are mode 600" equals "600 600" \
  bash -c "echo \$(stat -c %a '$GSLB_TOKEN_FILE' '$state/var/proximity.mv.db')"
check "peer join: a token from the command line is not taken" bash -c "! '$here/gslb' peer join sometoken </dev/null"
check "--help: every subcommand answers it" contains "Usage: gslb topology lookup" "${G[@]}" topology lookup --help
check "help: a nested page" contains "Usage: gslb ldns show" "${G[@]}" help ldns show
check "serve: a second server on the same state folder says the folder is in use and what to do" bash -c "out=\$('$here/gslb' serve --config '$state/gslb.yaml' --listen 127.0.0.1:0 --admin 127.0.0.1:0 --sync 127.0.0.1:0 2>&1); grep -q 'is in use by another process' <<<\"\$out\" && grep -q -- '--state-dir' <<<\"\$out\""
check "serve: a second server on the same ports names the listener, no stack trace" bash -c "out=\$('$here/gslb' serve --config '$state/gslb.yaml' --state-dir '$state/second' 2>&1); grep -q 'cannot listen for the admin API on 127.0.0.1:$admin' <<<\"\$out\" && ! grep -q 'Exception' <<<\"\$out\""

kill -TERM "$server"
stopped=no
for _ in $(seq 1 50); do kill -0 "$server" 2>/dev/null || { stopped=yes; break; }; sleep 0.1; done
check "SIGTERM: the server stops gracefully" bash -c "[[ $stopped == yes ]] && grep -q 'shutting down' '$log'"
server=""

# A kill -9 loses at most the last flush interval (5 s): what was flushed before is there after a restart.
"$here/gslb" serve --config "$state/gslb.yaml" >"$log" 2>&1 &
server=$!
for _ in $(seq 1 150); do curl -sf "http://127.0.0.1:$admin/health" >/dev/null && break; sleep 0.2; done
"$here/gslb" ldns probe 127.0.0.79 --protocol udp >/dev/null
sleep 6.5
kill -9 "$server"; wait "$server" 2>/dev/null
"$here/gslb" serve --config "$state/gslb.yaml" >"$log" 2>&1 &
server=$!
for _ in $(seq 1 150); do curl -sf "http://127.0.0.1:$admin/health" >/dev/null && break; sleep 0.2; done
check "kill -9 and restart: the proximity table survives (H2 file)" contains "127.0.0.79" "${G[@]}" ldns show 127.0.0.79
check "restart: paths measured before are still there" contains "127.0.0.77" "${G[@]}" ldns list

echo "system test: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
