#!/usr/bin/env bash
# Scale of the LDNS state: bytes per proximity entry with two paths and with 20 data centers, the
# heap a table of that many LDNS takes, and the time for a fresh peer to receive the snapshots of
# two instances holding that many LDNS (it ends with every LDNS and two paths each).
#   bash bench/scale-bench.sh [ldns [snapshot]]      (default 3,000,000; "snapshot": the fresh peer alone;
#   GSLB_BENCH_JVM: more JVM options; -Dgslb.bench.jfr=FILE records the fresh peer's snapshot alone)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$here/bench/run-test-main.sh" gslb-sync -Xmx12g -XX:+UseParallelGC -XX:+UseCompactObjectHeaders ${GSLB_BENCH_JVM:-} -- dev.gslb.sync.ScaleFigures "${1:-3000000}" ${2:-}
