#!/usr/bin/env bash
# bench/kube/cold.sh: what the test Kubernetes cluster's build costs on a fresh machine, the
# part of a cold `make test` that a warm one skips: tests/kube/build.sh (the six Kubernetes
# binaries from the Go module proxy), tests/k8s/crds.sh (controller-gen and the monitoring
# CRDs) and the pause image (tests/kube/cluster.sh: a static C program, buildah), each run with
# an empty cache (MM2KIT_CACHE, the Go module and build caches all in a temporary folder), then
# once more on the cache it filled, as a warm run finds it.  It also checks that the builds
# leave no Go build cache behind (their temporary folders, and `go env GOCACHE` not grown).
#
#   bench/kube/cold.sh [build] [crds] [pause]     the parts to measure (default: all three)
#
# Heavy (a Go build of Kubernetes on both cores, about 6-8 minutes): run it under
# flock /work/heavy.lock.  Downloads about 0.6 GB of modules; the temporary folder (about
# 1.2 GB once built) is removed at the end.  Exit codes: 0 measured, 2 usage, 4 a part failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(build crds pause)
for p in "${parts[@]}"; do
  case $p in build | crds | pause) ;; *) printf 'bench/kube/cold.sh: unknown part "%s" (build, crds or pause)\n' "$p" >&2; exit 2 ;; esac
done

tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/mm2kit-kube-cold.XXXXXX")
PAUSE_TAG=localhost/mm2kit-kube-cold/pause:bench
cleanup() {
  timeout 60 podman rmi -f "$PAUSE_TAG" >/dev/null 2>&1 || true
  timeout 60 buildah rm mm2kit-kube-cold-pause >/dev/null 2>&1 || true
  chmod -R u+w "$tmp" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/cache" "$tmp/tmp"
export MM2KIT_CACHE=$tmp/cache TMPDIR=$tmp/tmp
GO=$(command -v go || echo /usr/local/go/bin/go)
user_gocache=$("$GO" env GOCACHE)
kib() { du -sk "$1" 2>/dev/null | cut -f1 || echo 0; }
user0=$(kib "$user_gocache")

declare -A COLD=() WARM=()
# timed PART LOG COMMAND...: seconds (to 0.1) of COMMAND, its stderr in LOG
timed() {
  local log=$1 t0 t1
  shift
  t0=$(date +%s%N)
  "$@" >/dev/null 2>"$log" || { tail -n 20 "$log" >&2; return 4; }
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'
}

pause() { # the pause image as tests/kube/cluster.sh builds it, under a tag of this bench's
  local w=$tmp/pause c
  mkdir -p "$w"
  cc -static -O2 -Wall -Wextra -Werror -o "$w/pause" "$root/tests/kube/pause.c"
  c=$(timeout 60 buildah from --name mm2kit-kube-cold-pause scratch)
  timeout 60 buildah copy "$c" "$w/pause" /pause >/dev/null
  timeout 60 buildah config --entrypoint '["/pause"]' --cmd '' --user 65535:65535 "$c"
  timeout 120 buildah commit -q "$c" "$PAUSE_TAG" >/dev/null
  timeout 60 buildah rm "$c" >/dev/null
}

printf 'bench/kube/cold.sh: %s, %s cores, cache %s (empty)\n' "$("$GO" env GOVERSION)" "$(nproc)" "$MM2KIT_CACHE" >&2
for p in "${parts[@]}"; do
  case $p in
    build)
      COLD[build]=$(timed "$tmp/build.log" "$root/tests/kube/build.sh") || exit 4
      grep -E '^kube-build:   ' "$tmp/build.log" >&2 || true
      WARM[build]=$(timed "$tmp/build-warm.log" "$root/tests/kube/build.sh") || exit 4
      ;;
    crds)
      COLD[crds]=$(timed "$tmp/crds.log" "$root/tests/k8s/crds.sh") || exit 4
      WARM[crds]=$(timed "$tmp/crds-warm.log" "$root/tests/k8s/crds.sh") || exit 4
      ;;
    pause)
      COLD[pause]=$(timed "$tmp/pause.log" pause) || exit 4
      WARM[pause]=$(timed "$tmp/pause-warm.log" timeout 60 podman image exists "$PAUSE_TAG") || exit 4
      ;;
  esac
  printf 'bench/kube/cold.sh: %s cold %s s, warm %s s\n' "$p" "${COLD[$p]}" "${WARM[$p]}" >&2
done

# No Go build cache left: the builds' temporary folders gone, the user's cache not grown.
left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l)
user1=$(kib "$user_gocache")
echo
printf '| part | cold s | warm s (cached) |\n| --- | ---: | ---: |\n'
total=0
for p in "${parts[@]}"; do
  printf '| %s | %s | %s |\n' "$p" "${COLD[$p]}" "${WARM[$p]}"
  total=$(awk -v a="$total" -v b="${COLD[$p]}" 'BEGIN { printf "%.1f", a + b }')
done
printf '| all | %s | |\n' "$total"
echo
printf 'cache filled: %s MiB (modules %s MiB); Go build cache left behind: %s temporary folder(s), %s (go env GOCACHE) %+d KiB\n' \
  "$(($(kib "$MM2KIT_CACHE") / 1024))" "$(($(kib "$MM2KIT_CACHE/go") / 1024))" "$left" "$user_gocache" "$((user1 - user0))"
[ "$left" = 0 ] || { printf 'bench/kube/cold.sh: a build left its temporary folder: %s\n' "$(ls "$TMPDIR")" >&2; exit 4; }
