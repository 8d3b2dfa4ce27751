#!/usr/bin/env bash
# JMH benchmark of one full wide-IP decision with 1,000,000 LDNS entries and every ISP list loaded:
# time and allocation per decision (gc.alloc.rate.norm, B/op).
#   bash bench/decision-bench.sh [extra JMH options]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
cd "$here"
mvn -B -q -pl gslb-dns -am -DskipTests test-compile
cpfile="$(mktemp)"
mvn -B -q -pl gslb-dns dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile" >/dev/null
cp="$(cat "$cpfile")"; rm -f "$cpfile"
exec "$JAVA_HOME/bin/java" -cp "gslb-dns/target/test-classes:gslb-dns/target/classes:$cp" \
  -Xmx4g -Dgslb.topology.data="$here/topology-data/china-operator-ip" \
  org.openjdk.jmh.Main 'dev.gslb.dns.bench.DecisionBenchmark' -prof gc "$@"
