#!/usr/bin/env bash
# The test suite from a fresh clone on a fresh Debian 12 machine, in one command:
#   ./test.sh                  install what the tests use if anything is missing, then mvn -B verify
#   ./test.sh -Dtest=Foo ...   the same, with extra Maven arguments
#   ./test.sh --packages-only  only the install (for running a systest/ or bench/ script by itself)
# The tests drive real peers (dig, unbound, snmpd, named, chromium ...), so the Debian packages they
# start are installed here, with apt-get, when any is missing: this list is the one place they are
# named (CI runs this script too). The container and package tests need docker.io and mmdebstrap,
# installed by their own command (see the README's "Install").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

packages=(
  # clients and peers: dig, kdig, unbound (resolver and prober target), nsd and gdnsd (the e2e
  # test's parent zone, the benchmark's references with knot below), dnsperf (the benchmark),
  # named (BIND views import)
  dnsutils knot-dnsutils unbound nsd gdnsd dnsperf bind9
  # the manual's gslb.yaml(5) page (ConfigReferenceTest); dnstap readers (DnstapLogTest)
  asciidoctor bind9-dnsutils fstrm-bin
  # network namespaces, drop policies, the e2e test's NFQUEUE delay (iptables-legacy) and its builder
  iproute2 nftables iptables gcc libc6-dev libnetfilter-queue-dev
  # health monitors' peers: an FTP server, an SNMP agent; link traffic; scripts' helpers
  python3 python3-pyftpdlib snmpd iperf3 curl util-linux procps
  # load sources' peers: balancers with status pages (nginx stub_status, HAProxy's CSV stats);
  # the load test bed's snmpget and ab
  nginx haproxy snmp apache2-utils
  # the status page, driven by Selenium in headless Chromium
  chromium chromium-driver
  # DNSSEC: key files from other tools (ldns-keygen, ldns-key2ds; dnssec-keygen is bind9's), the
  # e2e test's signed root and com. (dnssec-signzone), delv (bind9-dnsutils) and dnsviz
  ldnsutils dnsviz
  # zone transfers: Knot as a secondary of ours (NSD and BIND 9, the other two, are above); the
  # benchmark's third reference
  knot
)

missing=()
command -v mvn >/dev/null || missing+=(maven)
for p in "${packages[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "test.sh: installing ${missing[*]}" >&2
  sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || { echo "test.sh: run as root, or install: apt-get install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ "${1:-}" == "--packages-only" ]] && exit 0

export JAVA_HOME="${GSLB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if [[ ! -x "$JAVA_HOME/bin/java" ]]; then
  echo "test.sh: Java 25 not found at $JAVA_HOME (set GSLB_JAVA_HOME)" >&2
  exit 1
fi
export PATH="$JAVA_HOME/bin:$PATH"
cd "$here"
exec mvn -B verify "$@"
