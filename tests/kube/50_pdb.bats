#!/usr/bin/env bats
# The PodDisruptionBudget (maxUnavailable 1): with every worker Ready a first eviction is
# granted; a second is refused with 429 until the first one's replacement is Ready, and
# then granted: asked as a dry run (the API server takes the same decision on the budget,
# then deletes nothing), so that no second replacement has to start.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

# evict POD [QUERY]: the Eviction API's HTTP status for POD (what kubectl drain calls).
evict() {
  local p=$KUBE_DIR/pki
  curl -s -m 30 -o "$W/evict-$1.json" -w '%{http_code}' --cacert "$p/ca.crt" --cert "$p/admin.crt" --key "$p/admin.key" \
    -H 'Content-Type: application/json' -X POST "https://$KUBE_NODE_IP:$KUBE_API_PORT/api/v1/namespaces/$NS/pods/$1/eviction${2:-}" \
    -d "{\"apiVersion\": \"policy/v1\", \"kind\": \"Eviction\", \"metadata\": {\"name\": \"$1\", \"namespace\": \"$NS\"}}"
}

@test "a first eviction is granted, a second refused with 429 until the replacement is Ready" {
  run -0 all_ready 3
  wait_for 30 bash -c "[ \"\$($KUBE_BIN/kubectl -n $NS get pdb mm2-connect -o jsonpath='{.status.currentHealthy} {.status.disruptionsAllowed}')\" = '3 1' ]"
  mapfile -t pods < <(worker_pods)
  run -0 evict "${pods[0]}"
  assert_output 201
  run -0 evict "${pods[1]}"
  assert_output 429
  run -0 jq -r '.message' "$W/evict-${pods[1]}.json"
  assert_output "Cannot evict pod as it would violate the pod's disruption budget."
  run -0 kc get pdb mm2-connect -o jsonpath='{.status.disruptionsAllowed}'
  assert_output 0
  # Still refused while the replacement starts (its JVM needs some seconds before it is Ready).
  wait_for 30 bash -c "$KUBE_BIN/kubectl -n $NS get pods -l app.kubernetes.io/component=worker -o json | jq -e '[.items[] | select(.metadata.deletionTimestamp == null)] | length == 3'"
  run -0 evict "${pods[1]}"
  assert_output 429
  run -0 evict "${pods[1]}" '?dryRun=All'
  assert_output 429
  wait_for 240 all_ready 3
  wait_for 30 bash -c "[ \"\$($KUBE_BIN/kubectl -n $NS get pdb mm2-connect -o jsonpath='{.status.currentHealthy} {.status.disruptionsAllowed}')\" = '3 1' ]"
  run -0 evict "${pods[1]}" '?dryRun=All'
  assert_output 201
  # A dry run: the pod is still there, not being deleted, and the budget unchanged.
  run -0 kc get pod "${pods[1]}" -o jsonpath='{.metadata.deletionTimestamp}|{.status.conditions[?(@.type=="Ready")].status}'
  assert_output "|True"
  run -0 kc get pdb mm2-connect -o jsonpath='{.status.disruptionsAllowed}'
  assert_output 1
  run -0 all_ready 3
}
