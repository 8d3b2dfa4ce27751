#!/usr/bin/env bash
# The admin-port flood of issue 29, as figures: the server (this checkout's jar, or the one given)
# with a 1 GiB heap takes N concurrent `GET /health` each sending a 16 MiB body, then is asked 20
# UDP queries with dig; prints what the clients got, the server's heap and descriptors, the
# answers, and the out-of-memory errors in its log. Needs the jar built (mvn package), dig, python3.
#   bash bench/admin-flood.sh [clients] [jar]        # default 128, gslb-cli/target/gslb.jar
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
clients="${1:-128}"
jar="${2:-$here/gslb-cli/target/gslb.jar}"
work="$(mktemp -d)"
pid=""
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
dns="$(port)"; admin="$(port)"; sync="$(port)"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC -XX:+UseCompactObjectHeaders -Xms1g -Xmx1g -Dgslb.home="$here" \
  -jar "$jar" serve --listen "127.0.0.1:$dns" --admin "127.0.0.1:$admin" --sync "127.0.0.1:$sync" \
  --state-dir "$work/state" >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 150); do dig +short +time=1 +tries=1 @127.0.0.1 -p "$dns" example.com SOA >/dev/null 2>&1 && break; sleep 0.2; done
# young and old generation together (ParallelGC's lines of jcmd GC.heap_info), in MiB
heap() {
  "$JAVA_HOME/bin/jcmd" "$pid" GC.heap_info 2>/dev/null \
    | awk '/(PSYoungGen|ParOldGen)/ {for (i=1;i<=NF;i++) if ($i=="used") u+=$(i+1)} END {printf "%d MiB", u/1024}'
}
echo "before: heap used $(heap), descriptors $(ls /proc/$pid/fd | wc -l)"
python3 - "$admin" "$clients" <<'EOF'
import socket, sys, threading, collections
port, n = int(sys.argv[1]), int(sys.argv[2])
got = collections.Counter()
lock = threading.Lock()
def attack():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    what = "no answer"
    try:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\nContent-Length: 16777216\r\n\r\n")
        chunk = b"x" * 65536
        for _ in range(256):
            s.sendall(chunk)
        line = s.recv(64).split(b"\r\n")[0].decode(errors="replace")
        what = line or "closed"
    except OSError as e:
        what = "connection error (" + type(e).__name__ + ")"
    finally:
        s.close()
    with lock:
        got[what] += 1
threads = [threading.Thread(target=attack) for _ in range(n)]
for t in threads: t.start()
for t in threads: t.join()
print(f"{n} GET /health with 16 MiB bodies:", ", ".join(f"{c} {w}" for w, c in got.most_common()))
EOF
echo "after: heap used $(heap), descriptors $(ls /proc/$pid/fd | wc -l)"
answered=0
for _ in $(seq 1 20); do
  [[ -n "$(dig +short +time=1 +tries=1 @127.0.0.1 -p "$dns" www.example.com A 2>/dev/null)" ]] && answered=$((answered + 1))
done
echo "UDP queries answered after the flood: $answered of 20"
echo "TCP query after the flood: $(dig +short +tcp +time=2 +tries=1 @127.0.0.1 -p "$dns" www.example.com A 2>&1 | head -1)"
echo "/health after the flood: $(curl -s -m 5 "http://127.0.0.1:$admin/health" || echo 'no answer')"
echo "out-of-memory errors in the server's log: $(grep -c OutOfMemoryError "$work/server.log" || true)"
