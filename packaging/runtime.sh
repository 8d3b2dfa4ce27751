#!/usr/bin/env bash
# The Java runtime the package and the image ship: jlink of the JDK at $1 into $2, with only the
# modules the server needs (the list `jdeps --print-module-deps` gave for gslb.jar; run it again
# when a dependency changes), plus jdk.jcmd and jdk.zipfs for operators' diagnostics and the sync
# group's bundles. Run by the Maven build.
set -euo pipefail
jdk="$1"
out="$2"
modules=java.base,java.compiler,java.desktop,java.instrument,java.naming,java.net.http,java.scripting,java.sql
modules+=,jdk.httpserver,jdk.jfr,jdk.management,jdk.net,jdk.unsupported,jdk.jcmd,jdk.zipfs
rm -rf "$out"
mkdir -p "$(dirname "$out")"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress zip-6 --output "$out"
echo "runtime: $out ($(du -sh "$out" | cut -f1))"
