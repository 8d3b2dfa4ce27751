#!/usr/bin/env bash
# The images the container tests start from, made from Debian's packages with no registry:
#   gslb-base:bookworm   mmdebstrap --variant=minbase bookworm, plus libcap2-bin (the Dockerfile's
#                        BASE in CI; with debian:bookworm-slim the Dockerfile installs it)
#   gslb-tools:bookworm  the same plus Debian's unbound, dnsutils, systemd, procps and man-db: the tests' resolver,
#                        and the root the Debian package is installed into and its unit checked in
# An image that exists already is kept. Needs a running dockerd and mmdebstrap; run as root.
#   bash packaging/base-images.sh
set -euo pipefail
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
make_image() {
  local name="$1"
  shift
  if docker image inspect "$name" >/dev/null 2>&1; then
    echo "$name: present"
    return
  fi
  local start=$SECONDS
  mmdebstrap --quiet --variant=minbase "$@" bookworm "$tmp/base.tar"
  docker import "$tmp/base.tar" "$name" >/dev/null
  rm -f "$tmp/base.tar"
  echo "$name: made in $((SECONDS - start)) s"
}
make_image gslb-base:bookworm --include=libcap2-bin
make_image gslb-tools:bookworm --include=libcap2-bin,unbound,dnsutils,systemd,procps,man-db
