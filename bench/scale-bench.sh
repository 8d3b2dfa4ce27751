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
. "$here/packaging/jvm-options.sh"
# The Java options `gslb serve` gets for a server of $1 LDNS: heap, young generation, collector.
serve_options() {
  local config
  config="$(mktemp)"
  printf 'probe:\n  max-ldns: %s\n' "$1" > "$config"
  GSLB_JAVA_OPTS= gslb_jvm_options serve --config "$config"
  rm -f "$config"
  echo "$GSLB_JVM"
}
run() { # ldns part options
  # shellcheck disable=SC2086 # the options are lists
  bash "$here/bench/run-test-main.sh" gslb-sync $3 ${GSLB_BENCH_JVM:-} -- dev.gslb.sync.ScaleFigures "$1" "$2"
}
# The fresh peer runs with serve's options, but shares its JVM with the two instances it joins
# (their tables beside its own: -Xmx12g); the store part in serve's options and heap.
memory() { run "$1" memory "-Xmx12g -XX:+UseParallelGC -XX:+UseCompactObjectHeaders"; }
snapshot() { run "$1" snapshot "$(serve_options "$1") -Xmx12g"; }
store() { run "$1" store "$(serve_options "$1")"; }
n="${1:-3000000}"
case "${2:-}" in
  memory) memory "$n" ;;
  snapshot) snapshot "$n" ;;
  store) store "$n" ;;
  *) memory "$n" && snapshot "$n" && store "$n" ;;
esac
