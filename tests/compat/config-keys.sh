#!/usr/bin/env bash
# Every connector key mm2kit requires, reads or ships in a connector JSON, checked against the
# keys each Kafka version reads, as that version's own classes define them
# (tests/compat/ConfigKeys.java, run with the version's jars): a key no version reads is a
# setting that does nothing, which an operator takes for a safety setting that does something.
#
#   tests/compat/config-keys.sh [--table FILE] [VERSION...]   default: every version in
#                                                             tests/compat/versions
#
# The keys: mm2-offsets' own (build/tests/connector-keys, from lib/mm2_connector.c) and every
# key of the connector JSONs the project ships (k8s/**/connector.json, docker/mm2/connectors).
# A key is read by a version when its MirrorSourceConnector or Connect's source connector config
# defines it, or when it is a prefixed client key (source.cluster.X, target.cluster.X,
# source.consumer.X, ...; MirrorConnectorConfig hands them to the clients) whose X that client
# defines. The exceptions, each with the versions that read it, are the table below; any other
# key a version does not read fails. --table FILE writes the key-by-version table (Markdown) for
# docs/kafka-versions.md.
#
# Exit codes: 0 every key read where expected, 1 a key not read, 2 usage, 4 a version's jars or
# Java could not be had.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prog=config-keys
build=${MM2_BUILD:-$root/build}
: "${MM2KIT_CACHE:=/var/cache/mm2kit}"
export MM2KIT_CACHE

# Keys read only from a version on (KIP-1031's switch came with 3.9), or only up to one
# (KIP-629's blacklist names were removed in 4.0): "KEY FIRST LAST", "-" for open.
ranges='emit.offset-syncs.enabled 3.9 -
topics.blacklist - 3.9'

table=''
if [ "${1:-}" = --table ]; then
  table=${2:?--table needs a file}
  shift 2
fi
case "${1:-}" in -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; -*) printf '%s: error: unknown option %s\n' "$prog" "$1" >&2; exit 2 ;; esac
versions=("$@")
[ ${#versions[@]} -gt 0 ] || mapfile -t versions < <(awk '/^[0-9]/ { print $1 }' "$here/versions")
command -v java >/dev/null || { printf '%s: error: java is not installed; run make deps\n' "$prog" >&2; exit 4; }
[ -x "$build/tests/connector-keys" ] || { printf '%s: error: %s/tests/connector-keys is missing; run make %s/tests/connector-keys\n' "$prog" "$build" "${build#"$root"/}" >&2; exit 4; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The keys, each once, sorted.
{
  "$build/tests/connector-keys"
  for f in "$root"/k8s/base/offsets/connector.json "$root"/k8s/overlays/*/offsets/connector.json \
    "$root"/docker/mm2/connectors/*.json; do
    python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["config"]))' "$f" ||
      { printf '%s: error: %s is not a connector JSON\n' "$prog" "$f" >&2; exit 4; }
  done
} | sort -u >"$work/keys"

# 3.9 <= 4.0 as numbers of two parts.
ver_le() { awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, "."); split(b, y, "."); exit !(x[1] < y[1] || (x[1] == y[1] && x[2] <= y[2])) }'; }
# Whether a version is expected to read key: 0 yes, 1 no (outside its range).
expected() { # KEY VERSION
  local first last
  read -r first last < <(awk -v k="$1" '$1 == k { print $2, $3 }' <<<"$ranges")
  [ -n "${first:-}" ] || return 0
  { [ "$first" = - ] || ver_le "$first" "$2"; } && { [ "$last" = - ] || ver_le "$2" "$last"; }
}
# The prefixes MirrorConnectorConfig hands to a client with the prefix cut, and the clients.
prefixes='source.cluster. consumer,producer,admin
target.cluster. consumer,producer,admin
source.consumer. consumer
target.consumer. consumer
source.producer. producer
target.producer. producer
source.admin. admin
target.admin. admin'
# Whether the names of one version ($work/names.V) read key.
reads() { # KEY NAMES-FILE
  local k=$1 n=$2 pre clients c
  grep -qxF "connector $k" "$n" && return 0
  while read -r pre clients; do
    [ "${k#"$pre"}" != "$k" ] || continue
    for c in ${clients//,/ }; do grep -qxF "$c ${k#"$pre"}" "$n" && return 0; done
  done <<<"$prefixes"
  return 1
}

rc=0
for v in "${versions[@]}"; do
  [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { printf '%s: error: "%s" is not a Kafka version like 3.6.2\n' "$prog" "$v" >&2; exit 2; }
  vars=$(KAFKA_VERSION=$v "$root/tests/bed/kafka-dist.sh") || { printf '%s: error: Kafka %s could not be assembled\n' "$prog" "$v" >&2; exit 4; }
  tgz=$(sed -n 's/^KAFKA_TGZ=//p' <<<"$vars")
  eval "tgz=$tgz"
  mkdir -p "$work/$v"
  tar -xzf "$tgz" -C "$work/$v" --wildcards '*/libs/*' ||
    { printf '%s: error: %s holds no libs/\n' "$prog" "$tgz" >&2; exit 4; }
  java -cp "$(echo "$work/$v"/*/libs)/*" "$here/ConfigKeys.java" >"$work/names.$v" 2>"$work/java.$v" ||
    { cat "$work/java.$v" >&2; printf '%s: error: ConfigKeys.java failed on Kafka %s\n' "$prog" "$v" >&2; exit 4; }
  rm -rf "${work:?}/$v"
  bad=0
  while read -r k; do
    if reads "$k" "$work/names.$v"; then
      r='read'
      expected "$k" "$v" || { r="READ, outside its range in $0"; bad=1; }
    elif expected "$k" "$v"; then
      r="NOT READ"
      bad=1
    else
      r=ignored
    fi
    printf '%s\t%s\t%s\n' "$k" "$v" "$r" >>"$work/results"
    case "$r" in read | ignored) ;; *) printf '%s: Kafka %s: %s: %s\n' "$prog" "$v" "$k" "$r" >&2 ;; esac
  done <"$work/keys"
  if [ "$bad" = 0 ]; then
    printf '%s: Kafka %s reads every one of the %d keys where expected\n' "$prog" "$v" "$(wc -l <"$work/keys")"
  else
    rc=1
  fi
done

if [ -n "$table" ]; then
  {
    printf '| key |'
    printf ' %s |' "${versions[@]}"
    printf '\n| --- |'
    printf ' --- |%.0s' "${versions[@]}"
    printf '\n'
    while read -r k; do
      printf "| \`%s\` |" "$k"
      for v in "${versions[@]}"; do
        r=$(awk -F'\t' -v k="$k" -v v="$v" '$1 == k && $2 == v { print $3 }' "$work/results")
        case "$r" in read) printf ' yes |' ;; ignored) printf ' ignored |' ;; *) printf ' **%s** |' "$r" ;; esac
      done
      printf '\n'
    done <"$work/keys"
  } >"$table"
fi
exit "$rc"
