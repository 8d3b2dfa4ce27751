#!/usr/bin/env bash
# Builds target/gslb_VERSION_amd64.deb from what `mvn package` left in gslb-cli/target: the jar,
# the jlink'ed runtime and the man pages (AsciiDoc from picocli's ManPageGenerator, and
# gslb.yaml(5) from ConfigReference, turned into troff here by Debian's asciidoctor); the
# completion script (`gslb completion`) and the CLI's AOT cache (JEP 483: the classes a command
# loads, loaded and linked ahead) are made here with the runtime the package ships, which must be
# the one that reads the cache. dpkg-deb, not jpackage:
# jpackage puts everything under /opt and cannot make /etc/gslb/gslb.yaml a conffile.
#   bash packaging/build-deb.sh        (needs asciidoctor and dpkg-deb; run after mvn package)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dist="$here/gslb-cli/target/dist"
jar="$here/gslb-cli/target/gslb.jar"
for need in "$jar" "$dist/runtime/bin/java" "$dist/man/gslb.adoc" "$dist/man5/gslb.yaml.adoc"; do
  [[ -e "$need" ]] || { echo "build-deb: $need is missing: run mvn package first" >&2; exit 1; }
done
version="$(unzip -p "$jar" dev/gslb/cli/version.properties | sed -n 's/^version=//p')"
debver="${version/-/\~}" # 0.1.0-SNAPSHOT sorts before 0.1.0 as 0.1.0~SNAPSHOT
out="$here/target"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
mkdir -p "$out"

install -d "$root/opt/gslb/lib" "$root/opt/gslb/bin" "$root/usr/bin" "$root/etc/gslb/zones" "$root/etc/gslb/monitor-programs" \
  "$root/lib/systemd/system" "$root/usr/share/bash-completion/completions" \
  "$root/usr/share/zsh/vendor-completions" "$root/usr/share/man/man1" "$root/usr/share/man/man5" "$root/usr/share/doc/gslb" \
  "$root/usr/share/gslb" "$root/DEBIAN"
cp -a "$dist/runtime" "$root/opt/gslb/runtime"
install -m 644 "$jar" "$root/opt/gslb/lib/gslb.jar"
install -m 755 "$here/packaging/gslb" "$root/opt/gslb/bin/gslb"
install -m 644 "$here/packaging/jvm-options.sh" "$root/opt/gslb/lib/jvm-options.sh"
ln -s /opt/gslb/bin/gslb "$root/usr/bin/gslb"
install -m 644 "$here/packaging/gslb.yaml" "$root/etc/gslb/gslb.yaml"
install -m 644 "$here/zones/example.com.zone" "$root/etc/gslb/zones/example.com.zone"
install -m 644 "$here/packaging/deb/gslb.service" "$root/lib/systemd/system/gslb.service"
java=("$root/opt/gslb/runtime/bin/java" -Xlog:disable -Xlog:all=warning:stderr)
"${java[@]}" -jar "$root/opt/gslb/lib/gslb.jar" completion bash >"$root/usr/share/bash-completion/completions/gslb"
# zsh runs the bash completion through bashcompinit
printf '#compdef gslb\nautoload -U +X bashcompinit && bashcompinit\nsource /usr/share/bash-completion/completions/gslb\n' \
  >"$root/usr/share/zsh/vendor-completions/_gslb"
# The training run (gslb aot-training): the admin keys, a refused connection, the API's records. The
# cache names the jar by its file name, size and time: installed as /opt/gslb/lib/gslb.jar it
# still matches (dpkg keeps the time); a cache that does not is ignored, silently.
# Recorded with the options /usr/bin/gslb gives a command (jvm-options.sh), as the cache wants.
. "$here/packaging/jvm-options.sh"
gslb_jvm_options aot-training
# shellcheck disable=SC2086 # GSLB_JVM is a list of options
"$root/opt/gslb/runtime/bin/java" $GSLB_JVM -Dgslb.home=/etc/gslb \
  -XX:AOTCacheOutput="$root/opt/gslb/lib/gslb.aot" -jar "$root/opt/gslb/lib/gslb.jar" \
  --config "$here/packaging/gslb.yaml" aot-training --admin 127.0.0.1:9 >/dev/null 2>&1 || true
[[ -f "$root/opt/gslb/lib/gslb.aot" ]] || { echo "build-deb: the AOT cache was not made" >&2; exit 1; }
# serve's own cache: a server on loopback ports of the system's choosing, from a temporary state
# folder, with the checkout's zone and lists (gslb aot-training --serve), asked and stopped.
gslb_jvm_options serve
# shellcheck disable=SC2086 # GSLB_JVM is a list of options
"$root/opt/gslb/runtime/bin/java" $GSLB_JVM -Dgslb.home="$here" \
  -XX:AOTCacheOutput="$root/opt/gslb/lib/gslb-serve.aot" -jar "$root/opt/gslb/lib/gslb.jar" \
  aot-training --serve >/dev/null 2>&1 || true
[[ -f "$root/opt/gslb/lib/gslb-serve.aot" ]] || { echo "build-deb: serve's AOT cache was not made" >&2; exit 1; }
chmod 644 "$root/opt/gslb/lib/gslb.aot" "$root/opt/gslb/lib/gslb-serve.aot"
asciidoctor --backend manpage --destination-dir "$root/usr/share/man/man1" "$dist"/man/*.adoc
asciidoctor --backend manpage --destination-dir "$root/usr/share/man/man5" "$dist"/man5/gslb.yaml.adoc
gzip -9n "$root"/usr/share/man/man1/*.1 "$root"/usr/share/man/man5/*.5
cp -a "$here/topology-data" "$root/usr/share/gslb/topology-data"
install -D -m 644 "$here/packaging/grafana/gslb-dashboard.json" "$root/usr/share/gslb/grafana/gslb-dashboard.json"
install -m 644 "$here/LICENSE" "$root/usr/share/doc/gslb/copyright"
install -m 644 "$here/NOTICE" "$root/usr/share/doc/gslb/NOTICE"
install -m 755 "$here"/packaging/deb/{postinst,prerm,postrm} "$root/DEBIAN/"
printf '/etc/gslb/gslb.yaml\n/etc/gslb/zones/example.com.zone\n' >"$root/DEBIAN/conffiles"
cat >"$root/DEBIAN/control" <<CONTROL
Package: gslb
Version: $debver
Architecture: amd64
Maintainer: gslb authors <gslb@example.org>
Depends: libc6, zlib1g, passwd, procps
Section: net
Priority: optional
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Homepage: https://example.org/gslb
Description: authoritative GSLB / smart-DNS server
 Answers each resolver with the virtual server of the data center best for it,
 measured by probing the resolver from every data center (an F5 3-DNS / BIG-IP
 DNS replacement), with topology from ISP address lists and peer sync between
 instances. Ships its own Java runtime under /opt/gslb.
CONTROL
deb="$out/gslb_${debver}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb ($(du -h "$deb" | cut -f1))"
