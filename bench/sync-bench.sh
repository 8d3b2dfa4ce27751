#!/usr/bin/env bash
# Peer-sync figures: time for 100,000 path updates to converge between two instances on loopback,
# and bytes per path update on the wire.
#   bash bench/sync-bench.sh [updates]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
cd "$here"
mvn -B -q -pl gslb-sync -am -DskipTests install
cpfile="$(mktemp)"
mvn -B -q -pl gslb-sync dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile" >/dev/null
cp="$(cat "$cpfile")"; rm -f "$cpfile"
exec "$JAVA_HOME/bin/java" -cp "gslb-sync/target/test-classes:gslb-sync/target/classes:$cp" \
  -Xmx2g \
  dev.gslb.sync.SyncFigures "${1:-100000}"
