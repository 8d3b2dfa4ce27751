# The end-to-end scripts' common part, sourced by e2e-test.sh and e2e-load-test.sh: the results
# and their summary, processes started in network namespaces, a router namespace with one /24 link
# to each other namespace, and stop_all, which the caller's cleanup runs. The caller sets `work`
# (its scratch folder) and `namespaces` (every namespace it makes, deleted by stop_all).
pids=()
results=()
failed=0

say() { printf '\n== %s\n' "$*"; }
pass() { results+=("PASS  $1"); echo "PASS  $1"; }
fail() { results+=("FAIL  $1"); echo "FAIL  $1"; failed=$((failed + 1)); }
in_ns() { local ns="$1"; shift; ip netns exec "$ns" "$@"; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# Stops everything that runs in the test's namespaces (what bg started and whatever those forked:
# nsd's children, a server's helpers), then deletes the namespaces: deleting a namespace does not
# stop its processes.
stop_all() {
  local ns left
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for ns in "${namespaces[@]}"; do ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null; done
  for _ in $(seq 1 30); do
    left=""
    for ns in "${namespaces[@]}"; do left+="$(ip netns pids "$ns" 2>/dev/null)"; done
    [[ -z "$left" ]] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  for ns in "${namespaces[@]}"; do ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null; done
  for ns in "${namespaces[@]}"; do ip netns del "$ns" 2>/dev/null; done
  pids=()
}

bg() { # log, namespace, command...: start in the background, remember the pid (never in a subshell:
       # the pid would be lost to cleanup); a working directory is given with `env -C DIR`
  local log="$1" ns="$2"; shift 2
  ip netns exec "$ns" "$@" >"$work/$log" 2>&1 &
  pids+=($!)
}

router() { # namespace: the router every link joins, forwarding between them
  router_ns="$1"
  ip netns add "$router_ns"
  in_ns "$router_ns" sysctl -qw net.ipv4.ip_forward=1
  in_ns "$router_ns" ip link set lo up
}
link() { # namespace, subnet number: 198.18.N.2 on its isp0, the router's 198.18.N.1 its default route
  local ns="$1" n="$2"
  ip netns add "$ns"
  ip link add "r-$ns" netns "$router_ns" type veth peer name "isp0" netns "$ns"
  in_ns "$router_ns" ip addr add "198.18.$n.1/24" dev "r-$ns"
  in_ns "$router_ns" ip link set "r-$ns" up
  in_ns "$ns" ip addr add "198.18.$n.2/24" dev isp0
  in_ns "$ns" ip link set isp0 up
  in_ns "$ns" ip link set lo up
  in_ns "$ns" ip route add default via "198.18.$n.1"
}

summary() { # test's name: prints every result, exits non-zero if one failed
  printf '\n== summary\n'
  printf '%s\n' "${results[@]}"
  echo "$1: $(( ${#results[@]} - failed )) passed, $failed failed"
  [[ $failed -eq 0 ]]
}
