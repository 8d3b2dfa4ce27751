#!/usr/bin/env bash
# The descriptor exhaustion of issue 29, as figures: the server (this checkout's jar, or the one
# given) under `ulimit -n LIMIT` while two client addresses hold N idle admin connections each;
# prints the server's descriptors, whether DNS over TCP, the admin API and the sync port still
# take a connection, then the same after the clients let go. Needs the jar built, dig, python3.
#   bash bench/descriptor-flood.sh [limit] [connections per address] [jar]    # default 2000 1500
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
limit="${1:-2000}"
each="${2:-1500}"
jar="${3:-$here/gslb-cli/target/gslb.jar}"
work="$(mktemp -d)"
pid=""
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
dns="$(port)"; admin="$(port)"; sync="$(port)"
bash -c "ulimit -n $limit && exec \"\$@\"" gslb "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
  -XX:+UseParallelGC -XX:+UseCompactObjectHeaders -Xmx512m -Dgslb.home="$here" -jar "$jar" serve --listen "127.0.0.1:$dns" \
  --admin "127.0.0.1:$admin" --sync "127.0.0.1:$sync" --state-dir "$work/state" >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 150); do dig +short +time=1 +tries=1 @127.0.0.1 -p "$dns" example.com SOA >/dev/null 2>&1 && break; sleep 0.2; done
echo "server under ulimit -n $limit: $(ls /proc/$pid/fd | wc -l) descriptors idle"
python3 - "$pid" "$dns" "$admin" "$sync" "$each" <<'EOF'
import os, socket, struct, sys, time
pid, dns, admin, sync, each = (int(a) for a in sys.argv[1:])
def fds():
    return len(os.listdir(f"/proc/{pid}/fd"))
def tcp_query():
    try:
        s = socket.create_connection(("127.0.0.1", dns), timeout=3)
        q = bytes.fromhex("12340100000100000000000003777777076578616d706c6503636f6d0000010001")
        s.sendall(struct.pack(">H", len(q)) + q)
        n = struct.unpack(">H", s.recv(2))[0]
        s.close()
        return "answered" if n > 12 else "empty"
    except OSError as e:
        return "not answered (" + type(e).__name__ + ")"
def health():
    try:
        s = socket.create_connection(("127.0.0.1", admin), timeout=3)
        s.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        line = s.recv(64).split(b"\r\n")[0].decode()
        s.close()
        return line or "closed"
    except OSError as e:
        return "no answer (" + type(e).__name__ + ")"
def sync_accepts():
    # garbage instead of a TLS hello: an accepting server closes the connection; one that no longer
    # accepts leaves it in the queue, unread
    try:
        s = socket.create_connection(("127.0.0.1", sync), timeout=3)
        s.sendall(b"\x16\x03\x01\x00\x05hello")
        s.settimeout(5)
        s.recv(64)
        s.close()
        return "accepted (closed the bad hello)"
    except socket.timeout:
        return "NOT accepted (left in the queue)"
    except OSError as e:
        return "accepted (" + type(e).__name__ + ")"
held = []
for source in ("127.0.60.1", "127.0.60.2"):
    for _ in range(each):
        s = socket.socket()
        s.bind((source, 0))
        try:
            s.connect(("127.0.0.1", admin))
        except OSError:
            pass
        held.append(s)
time.sleep(2)
print(f"{2 * each} idle admin connections from two addresses held: server descriptors {fds()}")
print(f"  DNS over TCP: {tcp_query()}; /health: {health()}; sync: {sync_accepts()}")
for s in held:
    s.close()
time.sleep(3)
print(f"after the clients let go: server descriptors {fds()}")
print(f"  DNS over TCP: {tcp_query()}; /health: {health()}; sync: {sync_accepts()}")
EOF
echo "lines in the server's log about accepting: $(grep -ci 'accept' "$work/server.log" || true)"
