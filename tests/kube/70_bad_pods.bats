#!/usr/bin/env bats
# Pods made from the rendered Deployment's template with one thing wrong never become
# Ready, and what is wrong is in their log (the entrypoint's exit 3) or their events.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

# bad_pod NAME JQ: a Pod from the Deployment's template (not selected by it), changed by JQ.
bad_pod() {
  kc get deployment mm2-connect -o json | jq --arg n "$1" '{apiVersion: "v1", kind: "Pod",
    metadata: {name: $n, labels: {"app.kubernetes.io/name": "mm2-bad-pod"}},
    spec: (.spec.template.spec | .containers[0].resources.requests.cpu = "10m")}' | jq "$2" >"$W/$1.json"
  kc apply --server-side --field-manager=mm2kit-e2e -f "$W/$1.json" >/dev/null
}

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

@test "a pod whose POD_IP is not its own exits 3, is never Ready, and its log says why" {
  bad_pod mm2-bad-pod-ip '.spec.containers[0].env |= map(if .name == "POD_IP" then {name: "POD_IP", value: "198.18.23.77"} else . end)'
  wait_for 120 exited3 mm2-bad-pod-ip
  run -0 kc get pod mm2-bad-pod-ip -o jsonpath='{.status.conditions[?(@.type=="Ready")].status} {.status.containerStatuses[0].ready}'
  assert_output "False false"
  run -0 crash_log mm2-bad-pod-ip
  assert_line --partial 'POD_IP must be an address of this host, got "198.18.23.77"'
  no_secret "$output"
  wait_for 60 bash -c "$KUBE_BIN/kubectl -n $NS get events --field-selector involvedObject.name=mm2-bad-pod-ip,reason=BackOff -o name | grep -q ."
  run -0 kc delete pod mm2-bad-pod-ip --wait=false
}

@test "a pod without the Secret's JAAS entry exits 3, is never Ready, and its log names the variable" {
  bad_pod mm2-bad-secret '.spec.containers[0].env |= map(if .name == "CONNECT_SASL_JAAS_CONFIG" then .valueFrom.secretKeyRef = {name: "mm2-connect-auth-missing", key: "sasl-jaas-config", optional: true} else . end)'
  wait_for 120 exited3 mm2-bad-secret
  run -0 kc get pod mm2-bad-secret -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}'
  assert_output False
  run -0 crash_log mm2-bad-secret
  assert_line --partial 'CONNECT_SASL_JAAS_CONFIG is not set'
  run -0 kc delete pod mm2-bad-secret --wait=false
}

@test "a pod whose Secret does not exist is never started, and its events name the Secret" {
  bad_pod mm2-no-secret '.spec.containers[0].env |= map(if .valueFrom.secretKeyRef then .valueFrom.secretKeyRef.name = "mm2-connect-auth-missing" else . end)'
  wait_for 60 bash -c "$KUBE_BIN/kubectl -n $NS get events --field-selector involvedObject.name=mm2-no-secret,reason=Failed -o jsonpath='{.items[*].message}' | grep -q ."
  run -0 kc get events --field-selector involvedObject.name=mm2-no-secret,reason=Failed -o jsonpath='{.items[0].message}'
  assert_output 'Error: secret "mm2-connect-auth-missing" not found'
  run -0 kc get pod mm2-no-secret -o jsonpath='{.status.containerStatuses[0].state.waiting.reason} {.status.conditions[?(@.type=="Ready")].status}'
  assert_output "CreateContainerConfigError False"
  run -0 kc delete pod mm2-no-secret --wait=false
}
