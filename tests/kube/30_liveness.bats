#!/usr/bin/env bats
# Liveness asks only "does REST answer": a FAILED connector and the group's
# rebalances (every connector created, resumed or deleted since the workers
# started) never make the kubelet restart a worker.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

@test "no worker restarts for a FAILED connector or a rebalance" {
  # The kubelet restarts after 6 failed liveness probes 10 s apart: wait out that window
  # with the connector FAILED (20_job.bats made it; the cutover rebalanced meanwhile).
  since=$(cat "$W/failed-since")
  wait_for 90 bash -c "[ \$((\$(date +%s) - $since)) -ge 65 ]"
  run -0 connector_state kube-failed
  assert_output --partial FAILED
  for p in $(worker_pods); do
    # The probe the kubelet runs passes; the monitoring check names the FAILED connector.
    run -0 kc exec "$p" -- mm2-probe live --timeout 4
    run -1 kc exec "$p" -- mm2-probe connectors --timeout 10
    assert_output --partial kube-failed
    run -0 kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].restartCount} {.status.conditions[?(@.type=="Ready")].status}'
    assert_output "0 True"
  done
  # Rebalances happened meanwhile: each worker joined the group more than once.
  p=$(worker_pods | head -n 1)
  [ "$(kc logs "$p" | grep -c 'Joined group at generation')" -gt 1 ] || fail "no rebalance was seen on $p"
  run -0 kc get events --field-selector reason=Unhealthy -o jsonpath='{range .items[*]}{.message}{"\n"}{end}'
  refute_output --partial 'Liveness probe failed'
  run -0 rest DELETE "$SVC_IP" /connectors/kube-failed
  assert_line --index 0 204
}
