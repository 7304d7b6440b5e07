#!/usr/bin/env bash
# make compat-source: the offsets acceptance test (the tests tagged compat-offsets in
# tests/e2e/offsets.bats: the cutover, record by record, and its rollback plan) with the
# SOURCE cluster on an older Kafka than Connect, as the Flink job's cluster often is. The
# TARGET and the Connect workers run the newest version of tests/compat/versions; the SOURCE:
#   3.x.y   a KRaft broker from the compat image of that version (built if missing)
#   2.x.y   a ZooKeeper-mode broker: Kafka 2.x's jars from Maven Central (kafka/broker-pom.xml,
#           pinned in tests/bed/kafka/SHA512SUMS), ZooKeeper beside it, in a container of
#           the image (its Java)
#
#   tests/compat/source.sh [VERSION...]     default: 3.6.2 2.8.2
#
# Bed mm2kit-compat-src on 198.18.17.0/24. One line per SOURCE version at the end, and
# build/compat-source/SUMMARY. Exit codes: 0 all passed, 1 one failed, 2 usage, 4 an
# image or a distribution could not be had.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${COMPAT_DIR:-$root/build/compat-source}
usage() { printf 'usage: tests/compat/source.sh [VERSION...]  (default: 3.6.2 2.8.2)\n' >&2; }
case "${1:-}" in -h | --help) usage; exit 0 ;; -*) usage; exit 2 ;; esac
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=(3.6.2 2.8.2)
for v in "${sources[@]}"; do
  [[ "$v" =~ ^[23]\.[0-9]+\.[0-9]+$ ]] || { printf 'compat-source: error: "%s" is not a Kafka 2.x or 3.x version like 2.8.2\n' "$v" >&2; exit 2; }
done
newest=$(awk '/^[0-9]/ { v = $1 } END { print v }' "$here/versions")

export BED_NAME=mm2kit-compat-src BED_OCTET=17
mkdir -p "$out"
: >"$out/SUMMARY"
image() { # VERSION: the compat image of that Kafka version, built when missing
  local img=localhost/mm2kit-compat/mm2:kafka-$1
  if ! podman image exists "$img" || [ "$1" = "$newest" ]; then
    printf 'compat-source: building %s\n' "$img" >&2
    KAFKA_VERSION=$1 IMAGE=$img "$root/tests/bed/image.sh" >"$out/image-$1.log" 2>&1 ||
      { cat "$out/image-$1.log" >&2; return 4; }
  fi
  printf '%s' "$img"
}
# The newest image is built from this tree every run (the workers run its mm2-offsets).
target_image=$(image "$newest") || exit 4
rc=0
for v in "${sources[@]}"; do
  dir=$out/$v
  rm -rf "$dir"
  mkdir -p "$dir"
  t0=$SECONDS
  env=(IMAGE="$target_image" BED_DIR="$dir")
  case "$v" in
    2.*)
      eval "$(KAFKA_VERSION=$v "$root/tests/bed/kafka-dist.sh")" || { rc=4; continue; }
      mkdir -p "$dir/kafka-$v"
      tar -xzf "$KAFKA_TGZ" -C "$dir/kafka-$v" --strip-components=1 --no-same-owner
      chmod -R a+rX "$dir/kafka-$v"
      env+=(BED_SRC_ZK_HOME="$dir/kafka-$v")
      ;;
    *)
      src_image=$(image "$v") || { rc=4; continue; }
      env+=(BED_SRC_IMAGE="$src_image")
      ;;
  esac
  printf 'compat-source: SOURCE Kafka %s, TARGET and Connect %s\n' "$v" "$newest" >&2
  if env "${env[@]}" "$root/tests/run-bats" --filter-tags compat-offsets "$root/tests/e2e/offsets.bats" >"$dir/bats.log" 2>&1; then
    res=passed
  else
    res=FAILED
    [ "$rc" -eq 0 ] && rc=1
  fi
  # What the SOURCE broker said it was (AppInfoParser), from the log the bed kept.
  seen=$(grep -ohm1 'Kafka version: [0-9.]*' "$dir/logs/$BED_NAME-source.log" 2>/dev/null || echo 'Kafka version: ?')
  printf 'source %-8s %-6s %s in %d s (the SOURCE broker logged "%s")\n' "$v" "$res" "$(tail -n 1 "$dir/bats.log")" \
    $((SECONDS - t0)) "$seen" | tee -a "$out/SUMMARY" >&2
  [ "$res" = passed ] || grep -E '^(not ok|#)' "$dir/bats.log" | head -n 40 >&2
done
cat "$out/SUMMARY"
exit "$rc"
