#!/usr/bin/env bash
# The ServiceMonitor and PrometheusRule CRDs (monitoring.coreos.com/v1), generated
# once from the prometheus-operator's published API types
# (github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring) by
# controller-gen (sigs.k8s.io/controller-tools), both at the versions
# tests/k8s/crds/go.mod pins, fetched through the Go module proxy.  make k8s-check
# validates the manifests against them; the test cluster installs them.
#
#   tests/k8s/crds.sh     prints the folder holding the two CRD files
#
# Cached in $MM2KIT_CACHE/crds/<operator version>-<controller-gen version>/, reused only
# while what they were generated from (go.mod, go.sum, this script; its .stamp) is unchanged;
# the Go build cache is a temporary folder, deleted afterwards.
# Exit codes: 0 ready, 3 no Go toolchain, 4 the build or the generation failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mod=$here/crds
: "${MM2KIT_CACHE:=/var/cache/mm2kit}"
die() { printf 'crds: error: %s\n' "$1" >&2; exit "${2:-4}"; }

api=github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring
gen=sigs.k8s.io/controller-tools
api_v=$(awk -v m="$api" '$1 == m {print $2; exit}' "$mod/go.mod")
gen_v=$(awk -v m="$gen" '$1 == m {print $2; exit}' "$mod/go.mod")
{ [ -n "$api_v" ] && [ -n "$gen_v" ]; } || die "tests/k8s/crds/go.mod pins no version of $api or $gen"
out=$MM2KIT_CACHE/crds/prometheus-operator-$api_v-controller-gen-$gen_v
files=(monitoring.coreos.com_servicemonitors.yaml monitoring.coreos.com_prometheusrules.yaml)
stamp=$(cat "$mod/go.mod" "$mod/go.sum" "$here/crds.sh" | sha256sum | cut -c1-16)
if [ -s "$out/${files[0]}" ] && [ -s "$out/${files[1]}" ] && [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
  printf '%s\n' "$out"
  exit 0
fi

GO=$(command -v go || true)
[ -n "$GO" ] || [ ! -x /usr/local/go/bin/go ] || GO=/usr/local/go/bin/go
[ -n "$GO" ] || die "no Go toolchain (go) found; install Go 1.26 or newer" 3
work=$(mktemp -d "${TMPDIR:-/var/tmp}/mm2kit-crds.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOMODCACHE=$MM2KIT_CACHE/go/mod GOCACHE=$work/gocache GOFLAGS="-mod=readonly -buildvcs=false" \
  CGO_ENABLED=0 GOTOOLCHAIN=local
printf 'crds: generating the CRDs of %s %s with controller-gen %s (about 2 minutes, once)\n' "$api" "$api_v" "$gen_v" >&2
cd "$mod"
timeout 600 "$GO" mod download || die "go mod download failed (is the Go module proxy reachable?)"
timeout 1200 nice -n 10 "$GO" build -trimpath -o "$work/controller-gen" "$gen/cmd/controller-gen" ||
  die "go build $gen/cmd/controller-gen failed"
timeout 300 "$work/controller-gen" crd:crdVersions=v1 paths="$api/v1" output:crd:dir="$work/out" ||
  die "controller-gen failed on $api/v1"
mkdir -p "$out.new"
for f in "${files[@]}"; do
  grep -q '^kind: CustomResourceDefinition$' "$work/out/$f" || die "controller-gen wrote no $f"
  cp "$work/out/$f" "$out.new/$f"
done
printf '%s\n' "$stamp" >"$out.new/.stamp"
rm -rf "$out" && mv "$out.new" "$out"
printf '%s\n' "$out"
