#!/usr/bin/env bash
# First contact after a start (bench/first-contact.py): a server started fresh, as an operator
# starts it (./gslb serve: the AOT cache of serve in use), then valid questions every millisecond
# while the first malformed datagrams, rate-limited answers, cookies and TCP connections arrive;
# then the same with the AOT cache off (GSLB_AOT=off), to show what it takes away. Loopback is
# exempt from rate limiting but for the /24s the hostile traffic comes from.
#   bash bench/first-contact.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
port=5391
pid=
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
ln -sfn "$here/zones" "$work/zones"
ln -sfn "$here/topology-data" "$work/topology-data"
sed -e "s|^  listen: \[\"127.0.0.1:5353\"\]$|  listen: [\"127.0.0.1:$port\"]\n  rate-limit: {responses-per-second: 20, exempt: [127.0.0.0/24]}|" \
  "$here/gslb-config/src/main/resources/default-config.yaml" >"$work/gslb.yaml"
grep -q "rate-limit" "$work/gslb.yaml" || { echo "first-contact: could not set the rate limit" >&2; exit 1; }
"$here/gslb" --version >/dev/null  # builds if needed
"$here/gslb" serve --help >/dev/null  # records serve's start-up cache after a new build: not in the timing
# A start is timed five times with the cache (fresh state folder each; one start on this 2-core VM
# moves by 10-20 % with what the host does), the median printed; first contact is measured on the
# last of them. Without the cache, once, to show what it takes away.
starts=()
for aot in on on on on on off; do
  rm -rf "$work/var"
  t0=$(date +%s%N)
  GSLB_AOT=$aot "$here/gslb" serve --config "$work/gslb.yaml" --state-dir "$work/var" --admin 127.0.0.1:0 \
    --sync 127.0.0.1:0 >"$work/serve-$aot.log" 2>&1 &
  pid=$!
  t1=$(python3 "$here/bench/first-contact.py" "$port" --first-answer "$pid") || { cat "$work/serve-$aot.log" >&2; exit 1; }
  ms=$(( (t1 - t0) / 1000000 ))
  if [[ $aot == on ]]; then
    starts+=("$ms")
    echo "start ${#starts[@]} with the AOT cache: first answer $ms ms after ./gslb serve"
  fi
  if [[ $aot == off || ${#starts[@]} == 5 ]]; then
    echo
    if [[ $aot == on ]]; then
      median=$(printf '%s\n' "${starts[@]}" | sort -n | sed -n 3p)
      echo "== AOT cache on: first answer $median ms after ./gslb serve (median of 5: ${starts[*]} ms)"
    else
      echo "== AOT cache off: first answer $ms ms after ./gslb serve"
    fi
    python3 "$here/bench/first-contact.py" "$port"
  fi
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
done
