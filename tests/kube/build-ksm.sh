#!/usr/bin/env bash
# Builds kube-state-metrics (the cluster add-on that exports the API's view of the pods; the
# alerts MM2WorkerRestartLoop, MM2WorkerTerminationOverdue and MM2WorkerKilledAfterGrace read
# it) from the Go module proxy, once, as build.sh builds the Kubernetes binaries: cached
# under $MM2KIT_CACHE/kube-state-metrics/$KSM_VERSION/bin, a second run only checks it.
# The version is pinned in kube.env and the module's hash here; the module's own go.sum pins
# its dependencies (go install, checked against the checksum database).  The Go build cache
# lives in a temporary folder that is deleted afterwards.
#
#   tests/kube/build-ksm.sh      prints the binary's path on stdout
#
# Exit codes: 0 built or cached, 3 no Go toolchain, 4 the build failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/kube/kube.env
. "$here/kube.env"
log() { printf 'ksm-build: %s\n' "$*" >&2; }
die() { printf 'ksm-build: error: %s\n' "$1" >&2; exit "${2:-4}"; }

bin=$KSM_BIN
module=k8s.io/kube-state-metrics/v2
# The module's hash at $KSM_VERSION as the Go checksum database has it (go.sum's h1: line).
declare -A module_sums=([v2.18.0]=h1:3T0ydK17wNf+uYyxaTMg0vM0lyqWMAv8xDqZjheMdxk=)
GO=$(command -v go || true)
[ -n "$GO" ] || [ ! -x /usr/local/go/bin/go ] || GO=/usr/local/go/bin/go
[ -n "$GO" ] || die "no Go toolchain (go) found; install Go 1.24.5 or newer" 3
# What the binary is built from: the version, this script and the Go toolchain.
stamp=$({ echo "$KSM_VERSION"; cat "$here/build-ksm.sh"; "$GO" env GOVERSION; } | sha256sum | cut -c1-16)
built() { [ -x "$bin/kube-state-metrics" ] && [ "$(cat "$bin/.stamp" 2>/dev/null)" = "$stamp" ]; }
if built; then
  printf '%s\n' "$bin/kube-state-metrics"
  exit 0
fi
want_sum=${module_sums[$KSM_VERSION]:-}
[ -n "$want_sum" ] || die "no module hash recorded for kube-state-metrics $KSM_VERSION (module_sums in $0)"
# One build at a time on this machine (worktrees and CI share the cache).
mkdir -p "$(dirname "$bin")"
exec 9>"$(dirname "$bin")/.lock"
flock 9
if built; then
  printf '%s\n' "$bin/kube-state-metrics"
  exit 0
fi
work=$(mktemp -d "${TMPDIR:-/var/tmp}/mm2kit-ksm-build.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOMODCACHE=$MM2KIT_CACHE/go/mod GOCACHE=$work/gocache GOBIN=$work/bin GOFLAGS=-buildvcs=false \
  CGO_ENABLED=0 GOTOOLCHAIN=local
mkdir -p "$GOMODCACHE" "$work/bin"
log "building kube-state-metrics $KSM_VERSION with $("$GO" env GOVERSION) (cold: about 3.5 minutes on 2 cores)"
t0=$SECONDS
info=$(timeout 600 "$GO" mod download -json "$module@$KSM_VERSION") ||
  die "go mod download $module@$KSM_VERSION failed (is the Go module proxy reachable?)"
sum=$(jq -r .Sum <<<"$info")
[ "$sum" = "$want_sum" ] || die "$module@$KSM_VERSION has hash ${sum:-none}, expected $want_sum"
# The version as the project's own release build stamps it (its Makefile's ldflags).
ld="-s -w -X github.com/prometheus/common/version.Version=$KSM_VERSION"
ld+=" -X github.com/prometheus/common/version.BuildDate=1970-01-01T00:00:00Z"
timeout 1800 nice -n 10 "$GO" install -trimpath -ldflags "$ld" "$module@$KSM_VERSION" ||
  die "go install $module@$KSM_VERSION failed (is the Go module proxy reachable?)"
"$work/bin/kube-state-metrics" version 2>&1 | grep -qF "version $KSM_VERSION" ||
  die "the kube-state-metrics built does not report $KSM_VERSION"
rm -rf "$bin.new" && mv "$work/bin" "$bin.new"
printf '%s\n' "$stamp" >"$bin.new/.stamp"
rm -rf "$bin" && mv "$bin.new" "$bin"
log "built in $((SECONDS - t0)) s, cached in $bin"
printf '%s\n' "$bin/kube-state-metrics"
