#!/usr/bin/env bash
# Probing figures: probes/s at the rate cap with 1,000 LDNS on loopback, bytes per proximity
# entry (1,000,000 entries with two paths), H2 flush time for 100,000 entries.
#   bash bench/probe-bench.sh [cap]      (default cap 200 probes/s, the shipped default)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
cd "$here"
mvn -B -q -pl gslb-probe -am -DskipTests install
cpfile="$(mktemp)"
mvn -B -q -pl gslb-probe dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile" >/dev/null
cp="$(cat "$cpfile")"; rm -f "$cpfile"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Xmx2g -cp "gslb-probe/target/test-classes:gslb-probe/target/classes:$cp" \
  dev.gslb.probe.bench.ProbeFigures "${1:-200}"
