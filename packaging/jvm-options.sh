# The Java options of every gslb launcher (./gslb of a checkout, /usr/bin/gslb of the Debian
# package and the container image), sourced by them (POSIX sh). gslb_jvm_options ARGS... sets
# GSLB_JVM, the one list of options the launcher passes before $GSLB_JAVA_OPTS (whose options,
# coming later, win).
#
# `serve` gets a bounded heap: without it the JVM takes a quarter of the host's memory (6 GB on
# a 24 GB host) for a server whose table is bounded by probe.max-ldns. The maximum is
#     128 MiB + 512 bytes x probe.max-ldns        (rounded up to a MiB; 617 MiB for the default 1,000,000)
# 128 MiB holds an idle server with the shipped China lists (about 35 MB live after a full GC)
# and a topology rebuilt beside the one in service; 512 bytes covers one LDNS entry with 20 data
# centers (281 bytes, bench/scale-bench.sh; 73 with two) with room for the collector.
# A fixed young generation of a quarter of that (-Xmn; 154 MiB for the default), without the
# parallel collector's adaptive sizing, and what survives one young collection promoted at the
# next (MaxTenuringThreshold=1): the table's entries live as long as the server, its garbage does
# not outlive a collection. While a fresh peer took in two snapshots of 3,000,000 LDNS, adaptive
# sizing grew eden to 1.5 GB and each collection paid the kernel for fresh pages, then shrank eden
# and copied the same entries between survivor spaces: the figures before and after are in
# docs/benchmarks.md (bench/scale-bench.sh, bench/mixed-load.sh).
# Compact object headers (JEP 519: 8-byte headers) for serve: millions of small entries, a
# sixth smaller each; the AOT cache is recorded with the same options. MetaspaceSize: serve's
# classes take about 37 MB of metaspace, and the default first threshold (21 MB) cost two full
# collections (75 ms) during a start without the AOT cache. The parallel collector: its pauses
# on a mixed load of 30,000 queries/s stay under 3 ms (bench/mixed-load.sh); generational ZGC's
# stay under 2 ms, but it starts 0.8 s slower and has no compressed pointers (docs/benchmarks.md).
# max-ldns is read from the `probe:` block of the --config file; absent, 1,000,000.
# jdk.reflect.useNativeAccessorOnly, for every command: since Java 22 the first call of each
# constructor or method through reflection (the settings tables', Jackson's, picocli's) spins
# method-handle classes that the AOT cache does not keep: about 170 at serve's start, 0.15-0.2 s
# of a 2-core VM's 1.9 s to the first answer. Native accessors cost a little more per call; no
# reflective call is on the query path.
# Transparent huge pages for serve's heap where the kernel offers them (`[madvise]` or `[always]`
# in /sys/kernel/mm/transparent_hugepage/enabled; tests point GSLB_THP_SETTING elsewhere): the
# heap's first touches cost a fault per 2 MiB instead of per 4 KiB, which a VM pays dearly: the
# first answer comes sooner; resident memory grows a little under load (docs/benchmarks.md).
# Where the kernel has them off ([never]) the option is left out: the JVM would warn at every
# start.
# GSLB_JAVA_OPTS with -Xmx or -XX:MaxRAM... replaces the computed maximum and young generation.
#
# Every other command is a short-lived client: the serial collector, the C1 compiler only and a
# 256 MiB ceiling start it sooner and keep it small; the JVM's warnings go to stderr, never into
# a command's --json output, and an AOT cache that does not match the jar is ignored silently
# (the launchers add -XX:AOTCache, recorded by `gslb aot-training` with these same options).
gslb_jvm_options() {
  GSLB_JVM="--enable-native-access=ALL-UNNAMED -Djdk.reflect.useNativeAccessorOnly=true"
  if [ "$(gslb_command "$@")" != serve ]; then
    GSLB_JVM="$GSLB_JVM -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx256m"
    GSLB_JVM="$GSLB_JVM -Xlog:disable -Xlog:all=warning:stderr -Xlog:aot*=off:stderr"
    return
  fi
  _gslb_thp=
  read -r _gslb_thp 2>/dev/null <"${GSLB_THP_SETTING:-/sys/kernel/mm/transparent_hugepage/enabled}" || true
  case "$_gslb_thp" in
    *"[always]"* | *"[madvise]"*) GSLB_JVM="$GSLB_JVM -XX:+UseTransparentHugePages" ;;
  esac
  GSLB_JVM="$GSLB_JVM -XX:+UseParallelGC -XX:+UseCompactObjectHeaders -XX:MetaspaceSize=64m"
  GSLB_JVM="$GSLB_JVM -XX:-UseAdaptiveSizePolicy -XX:MaxTenuringThreshold=1"
  case " ${GSLB_JAVA_OPTS:-} " in
    *" -Xmx"* | *" -XX:MaxRAM"*) return ;;
  esac
  _gslb_config=
  while [ $# -gt 0 ]; do
    case "$1" in
      --config) _gslb_config="${2:-}"; [ $# -lt 2 ] || shift ;; # a missing value is picocli's to report
      --config=*) _gslb_config="${1#--config=}" ;;
    esac
    shift
  done
  _gslb_ldns=
  if [ -n "$_gslb_config" ] && [ -r "$_gslb_config" ]; then
    # the first `max-ldns:` indented under a top-level `probe:` line; a comment after it is ignored
    _gslb_ldns="$(awk '/^probe:/ { p = 1; next } /^[^ #]/ { p = 0 }
      p && $1 == "max-ldns:" { print $2; exit }' "$_gslb_config" 2>/dev/null)"
  fi
  case "$_gslb_ldns" in
    '' | *[!0-9]*) _gslb_ldns=1000000 ;;
  esac
  # in MiB, rounded up; $(( )) is 64-bit in dash and bash, and max-ldns is at most 100,000,000
  _gslb_heap=$((128 + (_gslb_ldns * 512 + 1048575) / 1048576))
  GSLB_JVM="$GSLB_JVM -Xmx${_gslb_heap}m -Xmn$((_gslb_heap / 4))m"
}

# The command gslb runs: the first word that is neither gslb's own option (--config FILE,
# --state-dir DIR, which may come before it) nor that option's value.
gslb_command() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --config | --state-dir) [ $# -lt 2 ] || shift ;;
      -*) ;;
      *) echo "$1"; return ;;
    esac
    shift
  done
}
