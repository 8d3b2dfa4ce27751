#!/usr/bin/env bash
# JMH benchmark of the topology table with every list in topology-data/ loaded: lookup time and
# allocation per lookup (gc.alloc.rate.norm, B/op), and the time to load all lists.
#   bash bench/topology-bench.sh [extra JMH options]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$here/bench/run-test-main.sh" gslb-topology -Dgslb.topology.data="$here/topology-data/china-operator-ip" -- \
  org.openjdk.jmh.Main 'dev.gslb.topology.bench.TopologyBenchmark' -prof gc "$@"
