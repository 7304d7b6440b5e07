#!/usr/bin/env bats
# Liveness asks only "does REST answer": a FAILED connector and the group's rebalances
# (every connector created, resumed or deleted since the workers started) never make the
# kubelet restart a worker.  The kubelet's own probe counters (/metrics/probes, through the
# API server) say how many liveness probes ran and that none failed: a restart takes
# failureThreshold (6) failures in a row.  The FAILED connector stays through the rolling
# restart, the eviction and the kill; 60_kill.bats looks again at the end.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

# probed_since POD SUCCESSFUL N: POD's liveness probes passed at least N more times than
# SUCCESSFUL, and none failed.
probed_since() {
  local ok bad
  read -r ok bad < <(liveness_counts "$1")
  [ "$bad" = 0 ] && [ "$ok" -ge $(($2 + $3)) ]
}

@test "no worker restarts for a FAILED connector or a rebalance" {
  run -0 connector_state kube-failed
  assert_output --partial FAILED
  # Every worker's liveness probe passed at least twice with the connector FAILED (10 s
  # apart) and never failed.
  while read -r p ok bad; do
    assert_equal "$bad" 0
    wait_for 40 probed_since "$p" "$ok" 2 || fail "$p: liveness probes (passed failed) $(liveness_counts "$p"), $ok passed when the connector failed"
  done <"$W/liveness-at-failed"
  for p in $(worker_pods); do
    # The probe the kubelet runs passes; the monitoring check names the FAILED connector.
    run -0 kc exec "$p" -- mm2-probe live --timeout 4 "${BED_PROBE_AUTH[@]}"
    run -1 kc exec "$p" -- mm2-probe connectors --timeout 10 "${BED_PROBE_AUTH[@]}"
    assert_output --partial kube-failed
    run -0 kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].restartCount} {.status.conditions[?(@.type=="Ready")].status}'
    assert_output "0 True"
  done
  # Rebalances happened meanwhile (the cutover's connector created, stopped and resumed):
  # each worker joined the group more than once.
  for p in $(worker_pods); do
    [ "$(kc logs "$p" | grep -c 'Joined group at generation')" -gt 1 ] || fail "no rebalance was seen on $p"
  done
  run -0 kc get events --field-selector reason=Unhealthy -o jsonpath='{range .items[*]}{.message}{"\n"}{end}'
  refute_output --partial 'Liveness probe failed'
}
