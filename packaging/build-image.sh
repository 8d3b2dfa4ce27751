#!/usr/bin/env bash
# Builds the container image gslb:VERSION (also tagged gslb:latest) from this checkout, after
# `mvn package`. BASE is the image to build on: debian:bookworm-slim by default; CI, with no
# registry, passes gslb-base:bookworm (made by packaging/base-images.sh).
#   bash packaging/build-image.sh [BASE]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${1:-debian:bookworm-slim}"
jar="$here/gslb-cli/target/gslb.jar"
[[ -f "$jar" && -x "$here/gslb-cli/target/dist/runtime/bin/java" ]] \
  || { echo "build-image: run mvn package first" >&2; exit 1; }
version="$(unzip -p "$jar" dev/gslb/cli/version.properties | sed -n 's/^version=//p')"
docker build --quiet --build-arg BASE="$base" -t "gslb:$version" -t gslb:latest "$here" >/dev/null
echo "gslb:$version (gslb:latest) on $base: $(docker image inspect -f '{{.Size}}' gslb:latest | awk '{printf "%.0f MB", $1/1e6}')"
