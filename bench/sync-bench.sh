#!/usr/bin/env bash
# Peer-sync figures: time for 100,000 path updates to converge between two instances on loopback,
# and bytes per path update on the wire.
#   bash bench/sync-bench.sh [updates]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$here/bench/run-test-main.sh" gslb-sync -Xmx2g -- dev.gslb.sync.SyncFigures "${1:-100000}"
