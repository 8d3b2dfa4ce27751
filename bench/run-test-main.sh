#!/usr/bin/env bash
# Runs a main class from a module's test classes with the module's test classpath (JMH
# benchmarks and figure printers). Selects Java 25 itself.
#   bash bench/run-test-main.sh MODULE [JVM options...] -- MAIN-CLASS [args...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
module="$1"; shift
jvm=()
while [[ $# -gt 0 && "$1" != "--" ]]; do jvm+=("$1"); shift; done
shift
cd "$here"
mvn -B -q -pl "$module" -am -DskipTests install
cpfile="$(mktemp)"
mvn -B -q -pl "$module" dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile" >/dev/null
cp="$(cat "$cpfile")"; rm -f "$cpfile"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED "${jvm[@]}" \
  -cp "$module/target/test-classes:$module/target/classes:$cp" "$@"
