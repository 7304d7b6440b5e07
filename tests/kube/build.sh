#!/usr/bin/env bash
# Builds the Kubernetes binaries the test cluster runs (kube-apiserver,
# kube-controller-manager, kube-scheduler, kubelet, kube-proxy, kubectl) from
# the Go module proxy, once: they are cached under
# $MM2KIT_CACHE/kubernetes/$KUBE_VERSION/bin and a second run only checks them.
# The module in tests/kube/build pins every dependency (go.sum); the Go build
# cache lives in a temporary folder that is deleted afterwards (about 3 GB).
#
#   tests/kube/build.sh          prints the bin folder on stdout
#
# Exit codes: 0 built or cached, 3 no Go toolchain, 4 the build failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/kube/kube.env
. "$here/kube.env"
log() { printf 'kube-build: %s\n' "$*" >&2; }
die() { printf 'kube-build: error: %s\n' "$1" >&2; exit "${2:-4}"; }

cmds=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
bin=$KUBE_BIN
GO=$(command -v go || true)
[ -n "$GO" ] || [ ! -x /usr/local/go/bin/go ] || GO=/usr/local/go/bin/go
[ -n "$GO" ] || die "no Go toolchain (go) found; install Go 1.24 or newer" 3
# What the binaries are built from: the inputs' contents (not their paths: this script runs by
# relative and absolute names) and the Go toolchain.
stamp=$({ cat "$here/build/go.sum" "$here/build/go.mod" "$here/build.sh"; "$GO" env GOVERSION; } | sha256sum | cut -c1-16)
have=1
for c in "${cmds[@]}"; do [ -x "$bin/$c" ] || have=0; done
if [ "$have" = 1 ] && [ "$(cat "$bin/.stamp" 2>/dev/null)" = "$stamp" ]; then
  printf '%s\n' "$bin"
  exit 0
fi
work=$(mktemp -d "${TMPDIR:-/var/tmp}/mm2kit-kube-build.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOMODCACHE=$MM2KIT_CACHE/go/mod GOCACHE=$work/gocache GOFLAGS="-mod=readonly -buildvcs=false" \
  CGO_ENABLED=0 GOTOOLCHAIN=local
mkdir -p "$GOMODCACHE" "$work/bin"
log "building Kubernetes $KUBE_VERSION with $("$GO" env GOVERSION) (cold: about 7 minutes on 2 cores)"
mm=${KUBE_VERSION#v}
ld="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld+=" -X $p.gitVersion=$KUBE_VERSION -X $p.gitMajor=${mm%%.*} -X $p.gitMinor=$(cut -d. -f2 <<<"$mm")"
  ld+=" -X $p.gitTreeState=clean -X $p.buildDate=1970-01-01T00:00:00Z"
done
(cd "$here/build" && timeout 600 "$GO" mod download) || die "go mod download failed (is the Go module proxy reachable?)"
for c in "${cmds[@]}"; do
  t0=$SECONDS
  (cd "$here/build" && timeout 1800 nice -n 10 "$GO" build -trimpath -ldflags "$ld" -o "$work/bin/$c" "k8s.io/kubernetes/cmd/$c") ||
    die "go build k8s.io/kubernetes/cmd/$c failed"
  log "  $c in $((SECONDS - t0)) s"
done
"$work/bin/kubectl" version --client -o json | grep -q "\"gitVersion\": \"$KUBE_VERSION\"" ||
  die "the kubectl built does not report $KUBE_VERSION"
mkdir -p "$(dirname "$bin")"
rm -rf "$bin.new" && mv "$work/bin" "$bin.new"
printf '%s\n' "$stamp" >"$bin.new/.stamp"
rm -rf "$bin" && mv "$bin.new" "$bin"
log "cached in $bin"
printf '%s\n' "$bin"
