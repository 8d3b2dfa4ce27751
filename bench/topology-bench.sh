#!/usr/bin/env bash
# JMH benchmark of the topology table with every list in topology-data/ loaded: lookup time and
# allocation per lookup (gc.alloc.rate.norm, B/op), and the time to load all lists.
#   bash bench/topology-bench.sh [extra JMH options]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
cd "$here"
mvn -B -q -pl gslb-topology -am -DskipTests test-compile
cpfile="$(mktemp)"
mvn -B -q -pl gslb-topology dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile" >/dev/null
cp="$(cat "$cpfile")"; rm -f "$cpfile"
exec "$JAVA_HOME/bin/java" -cp "gslb-topology/target/test-classes:gslb-topology/target/classes:$cp" \
  -Dgslb.topology.data="$here/topology-data/china-operator-ip" \
  org.openjdk.jmh.Main 'dev.gslb.topology.bench.TopologyBenchmark' -prof gc "$@"
