#!/usr/bin/env bats
# Pods made from the rendered Deployment's template with one thing wrong (10_cluster.bats
# created them while the workers started, a minute before) never become Ready, and what
# is wrong is in their log (the entrypoint's exit 3) or their events.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

# crash_log NAME: the log of the container's last run (the kubelet keeps one dead container:
# in CrashLoopBackOff it is the current one's, while restarting the previous one's).
crash_log() {
  kc logs "$1" 2>/dev/null
  kc logs --previous "$1" 2>/dev/null
  return 0
}

# exited3 NAME: the container's last run ended with exit code 3.
exited3() {
  [ "$(kc get pod "$1" -o jsonpath='{.status.containerStatuses[0].lastState.terminated.exitCode}')" = 3 ]
}

# never_ready NAME: the pod is not Ready and its container not ready, a minute after it was made.
never_ready() {
  run -0 kc get pod "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status} {.status.containerStatuses[0].ready}'
  assert_output "False false"
}

@test "a pod whose POD_IP is not its own exits 3, is never Ready, and its log says why" {
  wait_for 120 exited3 mm2-bad-pod-ip
  never_ready mm2-bad-pod-ip
  run -0 kc get pod mm2-bad-pod-ip -o jsonpath='{.status.containerStatuses[0].restartCount}'
  [ "$output" -ge 1 ] || fail "restartCount $output: the kubelet did not start it again"
  run -0 crash_log mm2-bad-pod-ip
  assert_line --partial 'POD_IP must be an address of this host, got "198.18.23.77"'
  no_secret "$output"
  wait_for 60 bash -c "$KUBE_BIN/kubectl -n $NS get events --field-selector involvedObject.name=mm2-bad-pod-ip,reason=BackOff -o name | grep -q ."
  run -0 kc delete pod mm2-bad-pod-ip --wait=false
}

@test "a pod without the Secret's JAAS entry exits 3, is never Ready, and its log names the variable" {
  wait_for 120 exited3 mm2-bad-secret
  never_ready mm2-bad-secret
  run -0 crash_log mm2-bad-secret
  assert_line --partial 'CONNECT_SASL_JAAS_CONFIG is not set'
  run -0 kc delete pod mm2-bad-secret --wait=false
}

@test "a pod whose Secret does not exist is never started, and its events name the Secret" {
  wait_for 60 bash -c "$KUBE_BIN/kubectl -n $NS get events --field-selector involvedObject.name=mm2-no-secret,reason=Failed -o jsonpath='{.items[*].message}' | grep -q ."
  run -0 kc get events --field-selector involvedObject.name=mm2-no-secret,reason=Failed -o jsonpath='{.items[0].message}'
  assert_output 'Error: secret "mm2-connect-auth-missing" not found'
  run -0 kc get pod mm2-no-secret -o jsonpath='{.status.containerStatuses[0].state.waiting.reason} {.status.conditions[?(@.type=="Ready")].status} {.status.containerStatuses[0].restartCount}'
  assert_output "CreateContainerConfigError False 0"
  run -0 kc delete pod mm2-no-secret --wait=false
}
