#!/usr/bin/env bash
# kube-router for the test cluster only, in firewall-only mode (its network policy controller:
# --run-firewall=true --run-router=false --run-service-proxy=false), so that the NetworkPolicy
# objects of k8s/base are enforced there (the CNI bridge plugin enforces none). Built once with
# Go from the Go module proxy into $MM2KIT_CACHE/kube-router/VERSION/bin and reused.
#
# Why these versions: the module proxy serves kube-router v2 at v2.1.0 only. That release pins
# golang.org/x/net v0.21.0 (GO-2024-2687, HTTP/2 CONTINUATION flood, fixed in v0.23.0), so
# x/net is raised to the newest release the proxy serves, and the other modules below with it
# (the Go vulnerability database flags them at kube-router's own pins; docs/netpol-notes.md
# lists what was checked). Its service proxy has an advisory of its own (GHSA-phqm-jgc3-qf8g);
# it is never run (--run-service-proxy=false), and the test cluster keeps kube-proxy.
#
#   scripts/kube-router.sh             build unless built; print the binary's path on stdout
#   scripts/kube-router.sh --path      print where the binary is (built or not)
#   scripts/kube-router.sh --version   print the pinned kube-router version
# Env: MM2KIT_CACHE (default /var/cache/mm2kit); GO (default: go on PATH, else /usr/local/go/bin/go);
# KUBE_ROUTER_GOCACHE, a Go build cache to reuse (default: a temporary one, deleted afterwards).
#
# Exit codes: 0 built (or already built), 2 usage, 3 no suitable Go, 4 the build failed.
set -euo pipefail

version=v2.1.0
module=github.com/cloudnativelabs/kube-router/v2
# The module's hash as the Go checksum database has it (go.sum's h1: line for the zip).
module_sum=h1:xWsptKtmZ44L+NjwFKoFAFlVdxCz8fka9A/eYJe95Ok=
# Raised over kube-router's go.mod (module@version). go get raises what these need with them
# (golang.org/x/net v0.63.0 brings x/sys, x/text, x/term, x/mod, x/tools and go 1.26).
raise=(
  golang.org/x/net@v0.63.0
)

prog=kube-router-build
cache=${MM2KIT_CACHE:-/var/cache/mm2kit}
top=$cache/kube-router
bin=$top/$version/bin

log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { printf '%s: error: %s\n' "$prog" "$1" >&2; exit "${2:-4}"; }

case "${1:-}" in
  --path) printf '%s\n' "$bin/kube-router"; exit 0 ;;
  --version) printf '%s\n' "$version"; exit 0 ;;
  '') ;;
  *) die "unknown argument $1 (use --path, --version or none)" 2 ;;
esac

GO=${GO:-$(command -v go || true)}
[ -n "$GO" ] || [ ! -x /usr/local/go/bin/go ] || GO=/usr/local/go/bin/go
if [ -z "$GO" ] || ! command -v "$GO" >/dev/null; then
  die "no Go toolchain found (set GO, or install Go 1.26 or newer)" 3
fi
gover=$("$GO" env GOVERSION) || die "$GO env GOVERSION failed" 3
case "$gover" in
  go1.2[6-9]* | go1.[3-9][0-9]*) ;;
  *) die "$gover is too old: golang.org/x/net ${raise[0]#*@} needs Go 1.26 or newer" 3 ;;
esac

# What the binary is built from: this script (the pins) and the Go toolchain.
stamp=$({ cat "$0"; printf '%s\n' "$gover"; } | sha256sum | cut -c1-16)
built() { [ -x "$bin/kube-router" ] && [ "$(cat "$bin/.stamp" 2>/dev/null)" = "$stamp" ]; }
if built; then
  log "kube-router $version already built ($bin/kube-router)"
  printf '%s\n' "$bin/kube-router"
  exit 0
fi

mkdir -p "$top" || die "cannot create $top"
# One build at a time on this machine (worktrees and CI share the cache).
exec 9>"$top/.lock"
flock 9
if built; then
  printf '%s\n' "$bin/kube-router"
  exit 0
fi

work=$(mktemp -d "$top/build.XXXXXX") || die "cannot create a build folder under $top"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOMODCACHE=$top/mod GOCACHE=${KUBE_ROUTER_GOCACHE:-$work/gocache} GOFLAGS=-buildvcs=false \
  GOTOOLCHAIN=local CGO_ENABLED=0 GOOS=linux
buildlog=$top/build-$version.log
: >"$buildlog"
start=$SECONDS

log "1/5 fetching $module@$version (module cache $GOMODCACHE)"
info=$(timeout 600 "$GO" mod download -json "$module@$version" 2>>"$buildlog") ||
  die "go mod download $module@$version failed (is the Go module proxy reachable? log: $buildlog)"
src=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"$info")
sum=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p' <<<"$info")
[ "$sum" = "$module_sum" ] || die "$module@$version has hash ${sum:-none}, expected $module_sum"
[ -f "$src/go.mod" ] || die "$module@$version was downloaded without its source (no $src/go.mod)"

log "2/5 raising ${raise[*]} over its go.mod"
if ! cp -R "$src" "$work/src" || ! chmod -R u+w "$work/src"; then die "cannot copy $src into $work"; fi
cd "$work/src"
cp go.mod "$work/go.mod.orig"
timeout 600 "$GO" get "${raise[@]}" >>"$buildlog" 2>&1 || die "go get ${raise[*]} failed (log: $buildlog)"
for r in "${raise[@]}"; do
  have=$("$GO" list -m -f '{{.Version}}' "${r%@*}") || die "go list -m ${r%@*} failed"
  [ "$have" = "${r#*@}" ] || die "${r%@*} resolved to $have, not ${r#*@}"
done
timeout 600 "$GO" mod verify >>"$buildlog" 2>&1 || die "go mod verify failed (log: $buildlog)"

log "3/5 building cmd/kube-router with $gover (cold: several minutes on 2 cores; log: $buildlog)"
ld="-s -w -X $module/pkg/version.Version=$version -X $module/pkg/version.BuildDate=1970-01-01T00:00:00Z"
timeout 1800 nice -n 10 "$GO" build -mod=readonly -trimpath -ldflags "$ld" -o "$work/bin/kube-router" \
  ./cmd/kube-router >>"$buildlog" 2>&1 || die "go build $module/cmd/kube-router failed (log: $buildlog)"

log "4/5 checking the binary"
out=$("$work/bin/kube-router" --version 2>&1) || die "kube-router --version failed: $out"
grep -q "version $version," <<<"$out" || die "kube-router --version does not report $version: $out"
# What was changed, for whoever reads the cache: kube-router's go.mod against the one built.
diff -u "$work/go.mod.orig" go.mod >"$work/bin/go.mod.diff" || true
cp go.mod go.sum "$work/bin/"

log "5/5 installing into $bin"
printf '%s\n' "$stamp" >"$work/bin/.stamp"
mkdir -p "$(dirname "$bin")"
rm -rf "$bin.old"
[ ! -e "$bin" ] || mv "$bin" "$bin.old"
mv "$work/bin" "$bin" || die "cannot move the binary into $bin"
rm -rf "$bin.old"
log "built kube-router $version in $((SECONDS - start)) s ($(du -h "$bin/kube-router" | cut -f1))"
printf '%s\n' "$bin/kube-router"
