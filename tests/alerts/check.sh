#!/usr/bin/env bash
# make alerts-check: the alerts exactly as kustomize renders them.
#   1. the PrometheusRule's groups from `kubectl kustomize k8s/base` into a
#      Prometheus rule file (rules-from-kustomize.py), `promtool check rules`;
#   2. `promtool test rules` on rules_test.yaml beside it;
#   3. the same for the test overlay (tests/alerts/overlay), which may change
#      nothing but shorten every `for`;
#   4. every panel query of the dashboard (k8s/dashboards/) parsed by promtool
#      as a recording rule.
# Usage: check.sh PYTHON OUT_DIR   (PYTHON has PyYAML: the lint venv)
# Exit codes: 0 all good, 1 a check failed, 2 usage, 3 a tool is missing.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: check.sh PYTHON OUT_DIR" >&2; exit 2; }
py=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
for t in kubectl promtool "$py"; do
  command -v "$t" >/dev/null || { echo "alerts-check: $t is not installed; run 'make deps'" >&2; exit 3; }
done
mkdir -p "$out"
kubectl kustomize "$root/k8s/base" >"$out/base.yaml"
"$py" "$here/rules-from-kustomize.py" <"$out/base.yaml" >"$out/rules.yaml"
echo "  PROMTOOL check rules (k8s/base)"
promtool check rules "$out/rules.yaml" >"$out/check.log" 2>&1 || { cat "$out/check.log" >&2; exit 1; }
echo "  PROMTOOL test rules tests/alerts/rules_test.yaml"
cp "$here/rules_test.yaml" "$out/rules_test.yaml"
(cd "$out" && promtool test rules rules_test.yaml) >"$out/test.log" 2>&1 || { cat "$out/test.log" >&2; exit 1; }
grep -q '^  SUCCESS' "$out/test.log" || { cat "$out/test.log" >&2; exit 1; }

echo "  PROMTOOL check rules (tests/alerts/overlay: only the for's shortened)"
kubectl kustomize "$here/overlay" >"$out/overlay.yaml"
"$py" "$here/rules-from-kustomize.py" --same-as "$out/base.yaml" --settable mm2:replication_latency_threshold_ms <"$out/overlay.yaml" >"$out/e2e-rules.yaml"
promtool check rules "$out/e2e-rules.yaml" >"$out/check-e2e.log" 2>&1 || { cat "$out/check-e2e.log" >&2; exit 1; }

echo "  PROMTOOL dashboard queries (k8s/dashboards)"
for d in "$root"/k8s/dashboards/*.json; do
  "$py" "$here/dashboard-queries.py" --rules "$d" >"$out/dashboard-$(basename "$d" .json).rules.yaml"
  promtool check rules "$out/dashboard-$(basename "$d" .json).rules.yaml" >"$out/check-dash.log" 2>&1 ||
    { echo "alerts-check: a panel query of $d does not parse:" >&2; cat "$out/check-dash.log" >&2; exit 1; }
done
