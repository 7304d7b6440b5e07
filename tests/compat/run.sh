#!/usr/bin/env bash
# make compat: the worker image built from each Kafka version's jars (pinned by
# tests/bed/kafka/SHA512SUMS), and on each, on a bed of its own (mm2kit-compat,
# 198.18.16.0/24), the tests tagged "compat": the smoke test (bed_smoke.bats),
# the entrypoint e2e (worker.bats), the escape hatches closed per version (escape.bats) and
# the offsets acceptance test (the cutover and its rollback plan in offsets.bats); and before them, that the version reads every
# connector key the project sets or reads (config-keys.sh).  What differs per version is in
# docs/kafka-versions.md.
#
#   tests/compat/run.sh [--short] [VERSION...]     default: every version in tests/compat/versions
#
# --short (make test's compat-short) runs the offsets tests only (offsets.bats and preflight.bats):
# the smoke test's record-by-record comparison is the offsets acceptance test's too, and the
# entrypoint e2e (worker.bats) and escape.bats run on the newest version in make e2e; make
# compat runs them all.
# On every version but the newest, preflight's mixed-versions test (preflight.bats, tag
# compat-mixed): a worker of the newest image joins the group, and preflight refuses.
#
# One line per version at the end, and build/compat/SUMMARY.  Every version
# runs even when one fails.  Exit codes: 0 all passed, 1 a version failed,
# 2 usage, 4 an image could not be built.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${COMPAT_DIR:-$root/build/compat}

usage() { printf 'usage: tests/compat/run.sh [--short] [VERSION...]  (versions: %s)\n' "$(awk '/^[0-9]/ { printf "%s ", $1 }' "$here/versions")" >&2; }
files=("$root/tests/e2e/bed_smoke.bats" "$root/tests/e2e/worker.bats" "$root/tests/e2e/escape.bats"
  "$root/tests/e2e/offsets.bats" "$root/tests/e2e/preflight.bats")
if [ "${1:-}" = --short ]; then
  files=("${files[@]:3}")
  shift
fi
case "${1:-}" in -h | --help) usage; exit 0 ;; -*) usage; exit 2 ;; esac

versions=("$@")
[ ${#versions[@]} -gt 0 ] || mapfile -t versions < <(awk '/^[0-9]/ { print $1 }' "$here/versions")
for v in "${versions[@]}"; do
  [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { printf 'compat: error: "%s" is not a Kafka version like 3.6.2\n' "$v" >&2; usage; exit 2; }
done
# The bats tags a version runs: "compat", and for a version mm2-offsets refuses, the test of
# that refusal instead of the offsets acceptance test; on a version older than the newest,
# "compat-mixed" too: a worker of the newest image (MIXED_IMAGE) joins that version's group,
# and preflight must refuse the two builds.
newest=$(awk '/^[0-9]/ { v = $1 } END { print v }' "$here/versions")
tags_for() { # VERSION
  if awk -v v="$1" '$1 == v && / offsets=unsupported/ { f = 1 } END { exit !f }' "$here/versions"; then
    printf '%s\n' --filter-tags 'compat,!compat-offsets' --filter-tags compat-unsupported
  else
    printf '%s\n' --filter-tags compat
  fi
  [ "$1" = "$newest" ] || printf '%s\n' --filter-tags compat-mixed
}

# Everything this target owns is named mm2kit-compat*, on 198.18.16.0/24.
export BED_NAME=mm2kit-compat BED_OCTET=16
mkdir -p "$out"
# The other build of the mixed-versions test: the newest Kafka's image, built once (cached).
export MIXED_IMAGE=localhost/mm2kit/mm2:dev
for v in "${versions[@]}"; do
  [ "$v" != "$newest" ] || continue
  if ! IMAGE=$MIXED_IMAGE KAFKA_VERSION=$newest "$root/tests/bed/image.sh" >"$out/mixed-image.log" 2>&1; then
    cat "$out/mixed-image.log" >&2
    printf 'compat: error: the newest image (%s), the mixed-versions test'"'"'s other build, did not build\n' "$MIXED_IMAGE" >&2
    exit 4
  fi
  break
done
: >"$out/SUMMARY"
rc=0
for v in "${versions[@]}"; do
  image=localhost/mm2kit-compat/mm2:kafka-$v
  dir=$out/$v
  rm -rf "$dir"
  mkdir -p "$dir"
  t0=$SECONDS
  printf 'compat: Kafka %s: building %s\n' "$v" "$image" >&2
  if ! KAFKA_VERSION=$v IMAGE=$image "$root/tests/bed/image.sh" >"$dir/image.log" 2>&1; then
    cat "$dir/image.log" >&2
    printf 'compat: error: the image for Kafka %s did not build; see %s\n' "$v" "$dir/image.log" >&2
    printf '%-8s image failed\n' "$v" >>"$out/SUMMARY"
    rc=4
    continue
  fi
  t_image=$((SECONDS - t0))
  printf 'compat: Kafka %s: image in %d s; the compat tests on bed %s\n' "$v" "$t_image" "$BED_NAME" >&2
  # The connector keys the project sets or reads, against this version's own config definitions.
  if "$here/config-keys.sh" "$v" >"$dir/keys.log" 2>&1; then
    keys='keys read'
  else
    keys='KEYS NOT READ'
    [ "$rc" -eq 0 ] && rc=1
    cat "$dir/keys.log" >&2
  fi
  mapfile -t tags < <(tags_for "$v")
  if IMAGE=$image BED_DIR=$dir BED_KAFKA_VERSION=$v "$root/tests/run-bats" "${tags[@]}" "${files[@]}" >"$dir/bats.log" 2>&1; then
    res=passed
  else
    res=FAILED
    [ "$rc" -eq 0 ] && rc=1
  fi
  printf '%-8s %-6s %s, %s in %d s (image %d s)\n' "$v" "$res" "$(tail -n 1 "$dir/bats.log")" "$keys" $((SECONDS - t0)) "$t_image" |
    tee -a "$out/SUMMARY" >&2
  [ "$res" = passed ] || grep -E '^(not ok|#)' "$dir/bats.log" | head -n 40 >&2
done
printf 'compat: summary (%s)\n' "$out/SUMMARY" >&2
cat "$out/SUMMARY"
exit "$rc"
