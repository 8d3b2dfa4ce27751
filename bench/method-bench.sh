#!/usr/bin/env bash
# JMH benchmark of one wide-IP decision by each load method (least-connections, dynamic-ratio,
# load-band-random, quality-of-service) beside lowest-round-trip-time, with published loads:
# time and allocation per decision (gc.alloc.rate.norm, B/op), the whole decision and the method alone.
#   bash bench/method-bench.sh [extra JMH options]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$here/bench/run-test-main.sh" gslb-dns -- org.openjdk.jmh.Main 'dev.gslb.dns.bench.MethodBenchmark' -prof gc "$@"
