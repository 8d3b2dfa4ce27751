#!/usr/bin/env bash
# Probing figures: probes/s at the rate cap with 1,000 LDNS on loopback, bytes per proximity
# entry (1,000,000 entries with two paths), H2 flush time for 100,000 entries.
#   bash bench/probe-bench.sh [cap]      (default cap 200 probes/s, the shipped default)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$here/bench/run-test-main.sh" gslb-probe -Xmx2g -- dev.gslb.probe.bench.ProbeFigures "${1:-200}"
