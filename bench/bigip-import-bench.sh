#!/usr/bin/env bash
# Figures of `gslb import bigip` on a generated F5 configuration of 50,000 lines (or $1): parse
# time, whole import, checking what it wrote, bytes allocated, heap the parsed file holds; five
# runs in a JVM of 128 MiB heap, the first cold. The file is kept at /tmp/bigip-50k.conf for
# timing the command itself: time ./gslb import bigip /tmp/bigip-50k.conf --dry-run > /dev/null
#   bash bench/bigip-import-bench.sh [LINES]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$here/bench/run-test-main.sh" gslb-config -Xmx128m -- \
  dev.gslb.config.bigip.BigIpImportFigures "${1:-50000}" /tmp/bigip-50k.conf
