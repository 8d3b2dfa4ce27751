#!/usr/bin/env bash
# JMH benchmark of one full wide-IP decision with 1,000,000 LDNS entries and every ISP list loaded:
# time and allocation per decision (gc.alloc.rate.norm, B/op).
#   bash bench/decision-bench.sh [extra JMH options]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$here/bench/run-test-main.sh" gslb-dns -Xmx4g -Dgslb.topology.data="$here/topology-data/china-operator-ip" -- \
  org.openjdk.jmh.Main 'dev.gslb.dns.bench.DecisionBenchmark' -prof gc "$@"
