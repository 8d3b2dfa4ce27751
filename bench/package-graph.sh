#!/usr/bin/env bash
# Prints the dependencies between the dev.gslb packages of the main code ("package -> package"),
# then the package cycles among them, from the compiled classes (jdeps of the JDK).
# Compile first: mvn -B -o -pl gslb-cli -am compile
# Usage: bench/package-graph.sh [module ...]   (default: every module with target/classes)
set -euo pipefail
cd "$(dirname "$0")/.."
JDEPS=${JAVA_HOME:+$JAVA_HOME/bin/}jdeps
if [ $# -eq 0 ]; then
    set -- $(ls -d gslb-*/target/classes 2>/dev/null | cut -d/ -f1)
fi
[ $# -gt 0 ] || { echo "no compiled module: run mvn compile first" >&2; exit 1; }
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for m in "$@"; do
    [ -d "$m/target/classes/dev" ] || { echo "$m: not compiled" >&2; exit 1; }
    # jdeps -verbose:package prints "   from -> to   where"; keep dev.gslb on both sides
    "$JDEPS" -verbose:package -filter:none --multi-release 25 -e 'dev\.gslb\..*' "$m/target/classes" 2>/dev/null |
        awk '$2 == "->" && $1 ~ /^dev\.gslb/ && $3 ~ /^dev\.gslb/ && $1 != $3 { print $1 " -> " $3 }'
done | sort -u >"$edges"
echo "# package -> package ($(wc -l <"$edges") edges)"
cat "$edges"
echo "# cycles (packages that reach each other)"
# strongly connected components of more than one package (Tarjan), one per line
awk '
    { n[$1]; n[$3]; adj[$1] = adj[$1] " " $3 }
    function visit(v,    i, k, w, ws) {
        idx[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
        k = split(adj[v], ws, " ")
        for (i = 1; i <= k; i++) { w = ws[i]
            if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
            else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
        }
        if (low[v] == idx[v]) {
            comp = ""; size = 0
            do { w = stack[sp--]; on[w] = 0; comp = comp (size++ ? " <-> " : "") w } while (w != v)
            if (size > 1) { print comp; found++ }
        }
    }
    END { for (v in n) if (!(v in idx)) visit(v); if (!found) print "none" }
' "$edges"
