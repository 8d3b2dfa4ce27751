#!/usr/bin/env bash
# An A/B of serve's start between jars: each jar gets its own AOT cache (recorded as ./gslb
# records serve's, with the same Java options), then the jars take turns starting on a fresh state
# folder with the embedded configuration (the example zone, the shipped China lists), timed to the
# first answer as first-contact.sh times it. The order alternates each round: on this 2-core VM the
# second start of a pair was often 0.1-0.15 s faster than the first, whichever jar it was. Prints
# each jar's median and mean, and the CPU its process had used when it first answered: the main
# thread, the C2 and C1 compilers, and all threads (the start is CPU-bound on two cores, so the
# CPU says what a change took out when the host's noise hides it in the times).
#   bash bench/start-ab.sh ROUNDS JAR...        (e.g. bash bench/start-ab.sh 12 /tmp/old.jar gslb-cli/target/gslb.jar)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:?rounds}"
shift
[[ $# -ge 1 ]] || { echo "start-ab: name one jar or more" >&2; exit 2; }
export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
work="$(mktemp -d)"
port=5392
pid=
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
. "$here/packaging/jvm-options.sh"
gslb_jvm_options serve # the embedded configuration (its files found through gslb.home), on --listen's port
jars=()
for j in "$@"; do
  n=${#jars[@]}
  cp "$j" "$work/$n.jar"
  # shellcheck disable=SC2086 # GSLB_JVM is a list of options
  "$JAVA_HOME/bin/java" $GSLB_JVM -Dgslb.home="$here" -XX:AOTCacheOutput="$work/$n.aot" -jar "$work/$n.jar" \
    aot-training --serve >"$work/$n.training" 2>&1 || { cat "$work/$n.training" >&2; exit 1; }
  jars+=("$n")
done
cpu() { # pid: "main/C2/C1/all" CPU ms so far
  python3 - "$1" <<'EOF'
import glob, os, sys
pid = sys.argv[1]; main = c2 = c1 = 0
for t in glob.glob(f"/proc/{pid}/task/*"):
    try:
        name = open(t + "/comm").read().strip(); ran = int(open(t + "/schedstat").read().split()[0]) // 1000000
    except OSError:
        continue
    if name == "java": main += ran
    elif name.startswith("C2 "): c2 += ran
    elif name.startswith("C1 "): c1 += ran
s = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
print(f"{main}/{c2}/{c1}/{(int(s[11]) + int(s[12])) * 1000 // os.sysconf('SC_CLK_TCK')}")
EOF
}
declare -A ms cpus
for r in $(seq "$rounds"); do
  order=("${jars[@]}")
  (( r % 2 == 0 )) && order=($(printf '%s\n' "${jars[@]}" | tac))
  for n in "${order[@]}"; do
    rm -rf "$work/var"
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    "$JAVA_HOME/bin/java" $GSLB_JVM -XX:AOTCache="$work/$n.aot" -Dgslb.home="$here" -jar "$work/$n.jar" serve \
      --listen "127.0.0.1:$port" --state-dir "$work/var" --admin 127.0.0.1:0 --sync 127.0.0.1:0 >"$work/$n.log" 2>&1 &
    pid=$!
    t1=$(python3 "$here/bench/first-contact.py" "$port" --first-answer "$pid") || { cat "$work/$n.log" >&2; exit 1; }
    cpus[$n]+="$(cpu "$pid") "
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
    ms[$n]+="$(( (t1 - t0) / 1000000 )) "
  done
done
for n in "${jars[@]}"; do
  j=$(( n + 1 ))
  printf '%s: first answer median %s ms, mean %s ms (%s)\n' "${!j}" \
    "$(printf '%s\n' ${ms[$n]} | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')" \
    "$(printf '%s\n' ${ms[$n]} | awk '{s += $1} END {printf "%d", s / NR}')" "${ms[$n]% }"
  printf '  CPU at the first answer, mean ms: main %s, C2 %s, C1 %s, all threads %s\n' \
    $(printf '%s\n' ${cpus[$n]} | awk -F/ '{a += $1; b += $2; c += $3; d += $4} END {printf "%d %d %d %d", a / NR, b / NR, c / NR, d / NR}')
done
