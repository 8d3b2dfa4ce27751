#!/usr/bin/env bash
# Short fuzzing runs of every fuzz test (Jazzer, libFuzzer underneath; each runs for the
# maxDuration its @FuzzTest names), after `mvn verify` has run them in regression mode over their
# checked-in seeds. A finding fails this script; Jazzer saves the input beside the seeds
# (src/test/resources/.../<Test>Inputs/<method>/crash-*), where, once committed, it is a
# regression input for good. Needs the build done (mvn verify or install) and Java 25.
#   bash systest/fuzz.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
cd "$here"
targets=(
  "gslb-dns QueryFuzzTest"
  "gslb-dns ZoneFileFuzzTest"
  "gslb-dns TransferFuzzTest"
  "gslb-topology TopologyLoaderFuzzTest"
  "gslb-topology BindViewsFuzzTest"
  "gslb-config ConfigFuzzTest"
  "gslb-config BigIpImportFuzzTest"
  "gslb-server AdminRequestFuzzTest"
  "gslb-sync FrameFuzzTest"
  "gslb-sync SyncHelloFuzzTest"
)
failed=0
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
  read -r module test <<<"$t"
  echo "== fuzzing $module $test"
  # JUnit's own @Timeout would count the whole run as one test; Jazzer applies it per input instead.
  # -am builds the modules it depends on from this checkout, never from ~/.m2 (which may hold
  # another checkout's build).
  if JAZZER_FUZZ=1 mvn -B -o -pl "$module" -am test -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
      -Djunit.jupiter.execution.timeout.mode=disabled >"$log" 2>&1; then
    grep -aE 'DONE|Done [0-9]+ runs|Tests run:' "$log" | tail -3
  else
    grep -avE '^(#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|INFO: (Loaded|Instrumented)|WARNING: )' "$log" | tail -80
    echo "FUZZ FINDING in $module $test: the input is saved under $module/src/test/resources"
    failed=1
  fi
done
exit "$failed"
