# DNSSEC in the end-to-end test, sourced by e2e-test.sh after namespaces.sh: the test internet's
# root and com. signed with keys made at test time, com. holding example.com's DS, both GSLB
# instances signing example.com online with one KSK and ZSK, and the checks that real validators
# (unbound, delv, dnsviz) accept every kind of answer, and refuse one signed with a wrong key.
# Uses the caller's work, e2e, in_ns, bg, pass, fail. Keys live only in $work and $e2e/keys (both
# deleted by the cleanup; keys/ is ignored by git): no key is ever committed. The instances' keys are
# outside their state folder (var/) on purpose: files a shared configuration names must be.

dnssec_keygen() { # key folder, zone[, -f KSK]: an ECDSA P-256 key pair in BIND's format; prints its base name
  mkdir -p "$1"
  dnssec-keygen -q -a ECDSAP256SHA256 -K "$1" "${@:3}" "$2"
}

# Keys for ., com. and example.com (plus a second ZSK for the negative check); the DS of each
# child in its parent; root.zone.signed and com.zone.signed for NSD (nsd.conf serves those);
# the root's KSK as the resolvers' trust anchor: root.key for unbound (a DNSKEY line) and
# anchors.conf for delv (BIND's trust-anchors clause). The instances read example.com's keys from
# $e2e/keys (cnc.yaml and tel.yaml name the same files: the zones section is shared).
dnssec_zones() {
  local keys="$work/keys" z ksk
  for z in . com example.com; do
    ksk=$(dnssec_keygen "$keys/$z" "$z" -f KSK) && dnssec_keygen "$keys/$z" "$z" >/dev/null \
      || { echo "cannot make the keys of $z"; exit 1; }
    case $z in
      com) dnssec-dsfromkey -2 "$keys/$z/$ksk.key" >> "$work/root.zone" ;;
      example.com) dnssec-dsfromkey -2 "$keys/$z/$ksk.key" >> "$work/com.zone"
                   example_ksk="$ksk" ;;
      .) root_ksk="$keys/$z/$ksk.key" ;;
    esac
  done
  for z in com root; do  # root.zone is the zone "."
    dnssec-signzone -q -S -d "$work" -K "$keys/${z/root/.}" -o "${z/root/.}" -f "$work/$z.zone.signed" "$work/$z.zone" >/dev/null \
      || { echo "cannot sign $z.zone"; exit 1; }
  done
  grep -v '^;' "$root_ksk" > "$work/root.key"
  awk '!/^;/ { k = ""; for (i = 7; i <= NF; i++) k = k $i
               printf "trust-anchors {\n  . static-key %s %s %s \"%s\";\n};\n", $4, $5, $6, k }' \
    "$root_ksk" > "$work/anchors.conf"
  example_zsk=$(ls "$keys/example.com" | grep -v "$example_ksk" | head -1); example_zsk="${example_zsk%.*}"
  wrong_ksk=$(dnssec_keygen "$work/keys/wrong" example.com -f KSK)
  install -d -m 700 "$e2e/keys"
  install -m 600 "$keys/example.com/$example_ksk.private" "$e2e/keys/ksk.private"
  install -m 644 "$keys/example.com/$example_ksk.key" "$e2e/keys/ksk.key"
  echo "keys: . KSK $(basename "$root_ksk" .key) (the trust anchor), example.com KSK $example_ksk" \
       "(its DS in com.); the ZSK is the instances' own; a wrong KSK $wrong_ksk kept for the negative check"
}

dnssec_keys_at() { # instance address: its DNSKEY RRset, sorted
  in_ns ldns dig +short +time=1 +tries=1 @"$1" example.com DNSKEY | sort
}
dnssec_signer_at() { # instance address: the key tag of the wide IP's RRSIG there
  in_ns ldns dig +dnssec +time=1 +tries=1 @"$1" www.example.com A | awk '$4 == "RRSIG" { print $11; exit }'
}

# Each instance made its own ZSK at start; paired, they keep one set (the older, by the keys'
# timings) over the sync connection, before any resolver asks.
dnssec_one_key_set() {
  local cnc tel
  for _ in $(seq 1 40); do
    cnc="$(dnssec_keys_at 198.18.2.2)"; tel="$(dnssec_keys_at 198.18.3.2)"
    [[ -n "$cnc" && "$cnc" == "$tel" ]] && break; sleep 0.25
  done
  if [[ -n "$cnc" && "$cnc" == "$tel" ]]; then pass "DNSSEC keys: paired, both instances publish one DNSKEY set ($(wc -l <<<"$cnc") keys)"
  else fail "DNSSEC keys: both instances publish one DNSKEY set (dc-cnc '$cnc', dc-tel '$tel')"; fi
}

# A ZSK roll by pre-publication, started on dc-cnc: dc-tel takes the new key over the sync
# connection, both publish it, after the DNSKEY TTL (2 s) both sign with it; then every check again.
dnssec_zsk_roll() {
  local before cnc tel new signed
  before="$(dnssec_signer_at 198.18.2.2)"
  gslb_in cnc dnssec roll example.com zsk
  for _ in $(seq 1 40); do
    cnc="$(dnssec_keys_at 198.18.2.2)"; tel="$(dnssec_keys_at 198.18.3.2)"
    [[ $(wc -l <<<"$cnc") -eq 3 && "$cnc" == "$tel" ]] && break; sleep 0.25
  done
  new="$(gslb_in cnc dnssec status example.com | awk '$2 == "zsk" && $1 != "'"$before"'" { print $1; exit }')"
  signed=""
  for _ in $(seq 1 40); do
    [[ -n "$new" && "$(dnssec_signer_at 198.18.2.2)" == "$new" && "$(dnssec_signer_at 198.18.3.2)" == "$new" ]] && { signed=yes; break; }
    sleep 0.25
  done
  if [[ $(wc -l <<<"$cnc") -eq 3 && "$cnc" == "$tel" && $signed == yes ]]; then
    pass "DNSSEC ZSK roll: started on dc-cnc, the new ZSK $new published by both, then signing on both (was $before)"
  else fail "DNSSEC ZSK roll: the new ZSK published and signing on both (dc-cnc $(wc -l <<<"$cnc") keys, dc-tel $(wc -l <<<"$tel"), same: $([[ "$cnc" == "$tel" ]] && echo yes || echo no); new '$new' signing: '${signed:-no}', was $before)"; fi
  sleep 3 # the DNSKEY TTL (2 s): the resolvers' cached DNSKEY sets hold the new key
  dnssec_validated "after a ZSK roll"
}

# Two more validating resolvers in namespace ldns, each sent to one instance only (a stub zone:
# the chain of trust still comes from the root), so that "from either instance" does not depend on
# which NS unbound prefers: 198.18.4.2 port 5301 asks dc-cnc, port 5302 asks dc-tel.
dnssec_pinned_resolvers() {
  local dc port addr
  for dc in "cnc 5301 198.18.2.2" "tel 5302 198.18.3.2"; do
    read -r dc port addr <<<"$dc"
    sed -e "s/^  interface: .*/  interface: 198.18.4.2@$port/" -e "s/unbound1\.log/unbound-$dc.log/" \
      "$e2e/unbound1.conf" > "$work/unbound-$dc.conf"
    printf 'stub-zone:\n  name: "example.com"\n  stub-addr: %s\n' "$addr" >> "$work/unbound-$dc.conf"
    bg "unbound-$dc.out" ldns env -C "$work" unbound -d -c "$work/unbound-$dc.conf"
  done
}

# The resolvers the checks ask: label, namespace, address, port.
dnssec_resolvers=(
  "unbound1 ldns 198.18.4.2 53"
  "unbound2 ldns2 198.18.5.2 53"
  "unbound-to-dc-cnc ldns 198.18.4.2 5301"
  "unbound-to-dc-tel ldns 198.18.4.2 5302"
)
# What they are asked: name, type, expected shape (answer: records; empty: NODATA or denial).
dnssec_questions=(
  "www.example.com A answer"           # the wide IP
  "example.com SOA answer"             # static
  "ns-cnc.example.com A answer"        # static
  "www.example.com AAAA empty"         # NODATA at an A-only wide IP
  "ns-tel.example.com TXT empty"       # NODATA at a static name
  "no-such-name.example.com A empty"   # a name that does not exist (compact denial: NOERROR unless CO)
)

dnssec_ask() { # namespace, address, port, name, type, shape: prints nothing when validated, else what came back
  local out status flags n
  out="$(in_ns "$1" dig +dnssec +time=2 +tries=2 -p "$3" @"$2" "$4" "$5" 2>&1)"
  status=$(sed -n 's/.*status: \([A-Z]*\),.*/\1/p' <<<"$out")
  flags=$(sed -n 's/^;; flags: \([a-z ]*\);.*/\1/p' <<<"$out")
  n=$(sed -n 's/.*ANSWER: \([0-9]*\),.*/\1/p' <<<"$out")
  if [[ " $flags " == *" ad "* ]] && { [[ $6 == answer && $status == NOERROR && ${n:-0} -gt 0 ]] \
       || [[ $6 == empty && ( $status == NOERROR || $status == NXDOMAIN ) && $n == 0 ]]; }; then return; fi
  echo "$4 $5: ${status:-no answer} flags '${flags}' answers ${n:-?}"
}

# Every question through every resolver has the AD bit; then delv, validating itself from the
# root's key through the pinned resolvers, says "fully validated"; then dnsviz over the zone.
dnssec_validated() { # when (words for the pass/fail lines)
  local when="$1" r label ns addr port q bad out
  for r in "${dnssec_resolvers[@]}"; do
    read -r label ns addr port <<<"$r"
    bad=""
    for q in "${dnssec_questions[@]}"; do
      out="$(dnssec_ask "$ns" "$addr" "$port" $q)"
      [[ -n "$out" ]] && bad+="${bad:+; }$out"
    done
    if [[ -z "$bad" ]]; then
      pass "DNSSEC $when: $label validates (ad) the wide IP, the static SOA and A, NODATA at both, the NXDOMAIN"
    else fail "DNSSEC $when: $label validates every answer ($bad)"; fi
  done
  for port in 5301 5302; do
    bad=""
    for q in "${dnssec_questions[@]}"; do
      set -- $q
      out="$(in_ns ldns delv -a "$work/anchors.conf" +root @198.18.4.2 -p "$port" "$1" "$2" 2>&1)"
      [[ "$out" == *"fully validated"* ]] || bad+="${bad:+; }$1 $2: $(grep -m1 -E '^;' <<<"$out")"
    done
    if [[ -z "$bad" ]]; then pass "DNSSEC $when: delv from the root's key says fully validated for all six (via port $port's instance)"
    else fail "DNSSEC $when: delv fully validated via port $port ($bad)"; fi
  done
  dnssec_dnsviz "$when"
}

# dnsviz asks every server of the chain itself (both instances for example.com) and analyses the
# chain from the root's key; `dnsviz print` marks errors with E: and bogus data with ! (grok needs a
# newer pygraphviz than Debian 12's). Prints its warnings; prints nothing, returns 0, when all is well.
dnssec_dnsviz_errors() { # output file
  in_ns ldns dnsviz probe -A -a . -x .:a.root-servers.net=198.18.1.2 -o "$1.json" \
    example.com www.example.com ns-cnc.example.com 2>/dev/null || { echo "dnsviz probe failed"; return 1; }
  dnsviz print -t "$work/root.key" -r "$1.json" -o "$1" 2>&1 || { echo "dnsviz print failed"; return 1; }
  grep -E '^ *W:' "$1" | sort -u | sed 's/^ */dnsviz warning: /' >&2
  grep -qE '^example\.com \[\.\] \[\.\]' "$1" || { echo "example.com is not secure: $(grep -m1 '^example\.com' "$1")"; return 1; }
  grep -E '^ *E:|\[[^]]*!' "$1" | sed 's/^ *//' | sort -u | head -5 | grep . && return 1
  return 0
}

dnssec_dnsviz() { # when
  local out
  if out="$(dnssec_dnsviz_errors "$work/dnsviz-$(date +%s%N)")"; then
    pass "DNSSEC $1: dnsviz probe + print from the root's key: example.com secure at both instances, no error"
  else fail "DNSSEC $1: dnsviz reports no error ($(tr '\n' ' ' <<<"$out"))"; fi
}

# The checks must be able to fail: dc-tel is restarted with a KSK of its own, one the DS in com.
# does not name. Key files travel with the shared configuration and keys over the sync
# connection, so the pair's sync is cut first (its port dropped in dc-tel's namespace): dc-tel
# then signs with a key dc-cnc never got, as a peer that lacks the pair's keys would. Its DNSKEY
# set matches no DS: its answers are bogus (SERVFAIL), dc-cnc's still validate; delv fails the
# same; dnsviz, asking both instances, sees the DNSKEY sets disagree. Run last: dc-tel keeps it.
dnssec_wrong_key_fails() { # command that restarts dc-tel
  local cnc tel out
  in_ns ldns dig +dnssec -p 5302 @198.18.4.2 example.com DNSKEY >/dev/null   # into the resolver's cache
  in_ns dc-tel nft -f - <<'NFT'
table inet cut-sync {
  chain in { type filter hook input priority 0; tcp dport 8054 drop; tcp sport 8054 drop; }
  chain out { type filter hook output priority 0; tcp dport 8054 drop; tcp sport 8054 drop; }
}
NFT
  install -m 600 "$work/keys/wrong/$wrong_ksk.private" "$e2e/keys/wrong-ksk.private"
  install -m 644 "$work/keys/wrong/$wrong_ksk.key" "$e2e/keys/wrong-ksk.key"
  sed 's|ksk-file: keys/ksk.private,|ksk-file: keys/wrong-ksk.private,|' "$e2e/tel.yaml" >"$e2e/tel-wrong.yaml"
  "$@" "$e2e/tel-wrong.yaml"
  for _ in $(seq 1 40); do  # until dc-tel answers again
    tel="$(in_ns ldns dig +short +time=1 +tries=1 @198.18.3.2 example.com DNSKEY | sort)"; [[ -n "$tel" ]] && break; sleep 0.25
  done
  cnc="$(in_ns ldns dig +short @198.18.2.2 example.com DNSKEY | sort)"
  if [[ -n "$tel" && "$tel" != "$cnc" && "$tel" == *"$(awk '!/^;/ { print $NF }' "$work/keys/wrong/$wrong_ksk.key")"* ]]; then
    pass "DNSSEC wrong key: dc-tel restarted with another KSK publishes it (its DNSKEY set differs from dc-cnc's)"
  else fail "DNSSEC wrong key: dc-tel publishes the wrong KSK (dc-cnc '$cnc', dc-tel '$tel')"; fi
  # Each failure must be dc-tel's alone: the same question through dc-cnc still validates.
  sleep 6   # the wide IP's TTL (5 s): the resolvers ask the instances again
  out="$(dnssec_ask ldns 198.18.4.2 5301 www.example.com A answer)"
  tel="$(in_ns ldns dig +dnssec +time=2 +tries=1 -p 5302 @198.18.4.2 www.example.com A 2>&1 | grep -m1 -o 'status: [A-Z]*')"
  if [[ -z "$out" && "$tel" == "status: SERVFAIL" ]]; then
    pass "DNSSEC wrong key: unbound answers SERVFAIL for dc-tel's wide-IP answer (bogus: no DS names its KSK); dc-cnc's validates"
  else fail "DNSSEC wrong key: SERVFAIL for dc-tel's answer only (via dc-tel: '$tel'; via dc-cnc: '${out:-validated}')"; fi
  out="$(in_ns ldns delv -a "$work/anchors.conf" +root @198.18.4.2 -p 5302 www.example.com A 2>&1)"
  cnc="$(in_ns ldns delv -a "$work/anchors.conf" +root @198.18.4.2 -p 5301 www.example.com A 2>&1)"
  if [[ "$out" != *"fully validated"* && "$cnc" == *"fully validated"* ]]; then
    pass "DNSSEC wrong key: delv does not validate dc-tel's answer ($(grep -m1 '^;' <<<"$out")); dc-cnc's is fully validated"
  else fail "DNSSEC wrong key: delv fails dc-tel's answer only (dc-tel: $(grep -m1 '^;' <<<"$out"); dc-cnc: $(grep -m1 '^;' <<<"$cnc"))"; fi
  out="$(dnssec_dnsviz_errors "$work/dnsviz-wrong" 2>/dev/null)"
  if [[ "$out" == *"E:"* || "$out" == *"!]"* ]]; then  # an error, or data dnsviz marks bogus (!), found by asking both
    pass "DNSSEC wrong key: dnsviz reports the error ($(head -1 <<<"$out"))"
  else fail "DNSSEC wrong key: dnsviz reports an error of dc-tel's key (got '${out:-no error}')"; fi
}
