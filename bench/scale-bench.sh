#!/usr/bin/env bash
# Scale of the LDNS state: bytes per proximity entry with two paths and with 20 data centers, the
# heap a table of that many LDNS takes, and the time for a fresh peer to receive the snapshots of
# two instances holding that many LDNS (it ends with every LDNS and two paths each), and the time
# its H2 store takes to write them (in the heap `gslb serve` gives a server of that many LDNS).
#   bash bench/scale-bench.sh [ldns [memory|snapshot|store]]      (default 3,000,000, every part)
# Each part runs in a JVM of its own: a fresh peer is a process of its own, not one holding the
# gigabyte of tables the memory part built and dropped (its collections slowed the snapshot by half).
#   GSLB_BENCH_JVM: more JVM options; -Dgslb.bench.jfr=FILE records the fresh peer's snapshot alone
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run() { # ldns part
  # shellcheck disable=SC2086 # GSLB_BENCH_JVM is a list of options
  bash "$here/bench/run-test-main.sh" gslb-sync -Xmx12g -XX:+UseParallelGC -XX:+UseCompactObjectHeaders ${GSLB_BENCH_JVM:-} \
    -- dev.gslb.sync.ScaleFigures "$1" "$2"
}
# The store part runs in the heap `gslb serve` gives a server of that many LDNS (jvm-options.sh).
store() { GSLB_BENCH_JVM="-Xmx$((128 + ($1 * 512 + 1048575) / 1048576))m ${GSLB_BENCH_JVM:-}" run "$1" store; }
case "${2:-}" in
  memory | snapshot) run "${1:-3000000}" "$2" ;;
  store) store "${1:-3000000}" ;;
  *) run "${1:-3000000}" memory && run "${1:-3000000}" snapshot && store "${1:-3000000}" ;;
esac
