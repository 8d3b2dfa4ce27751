#!/usr/bin/env bash
# Peer sync in a full mesh: five instances on loopback (127.0.0.2-6), every pair joined; 100,000
# path updates (each instance its own path to the same 20,000 LDNS) until every instance holds them
# all; bytes and CPU per instance, and what twenty data centers would cost each.
#   bash bench/mesh-bench.sh [updates]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$here/bench/run-test-main.sh" gslb-sync -Xmx4g -XX:+UseParallelGC -XX:+UseCompactObjectHeaders -- dev.gslb.sync.MeshFigures "${1:-100000}"
