#!/usr/bin/env bats
# A worker whose JVM dies (SIGKILL to the container's process, from the node) is restarted
# by the kubelet in the same pod, and rejoins the group.  Then the end of 30_liveness.bats'
# watch: no liveness probe failed in the whole run.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

@test "the kubelet restarts a worker whose JVM was killed, and it rejoins the group" {
  run -0 all_ready 3
  p=$(worker_pods | head -n 1)
  echo "$p" >"$W/killed"
  ip=$(pod_ip "$p")
  group=$(kc get configmap mm2-connect-env -o jsonpath='{.data.CONNECT_GROUP_ID}')
  cid=$(kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].containerID}')
  cid=${cid#containerd://}
  run -0 timeout 60 ctr -a "$KUBE_DIR/containerd/containerd.sock" -n k8s.io tasks kill -s SIGKILL "$cid"
  wait_for 120 bash -c "[ \"\$($KUBE_BIN/kubectl -n $NS get pod $p -o jsonpath='{.status.containerStatuses[0].restartCount}')\" = 1 ]"
  run -0 kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].lastState.terminated.exitCode} {.status.containerStatuses[0].lastState.terminated.reason}'
  assert_output "137 Error"
  wait_for 240 all_ready 3
  run -0 kc get pod "$p" -o jsonpath='{.status.podIP} {.status.containerStatuses[0].restartCount}'
  assert_output "$ip 1"
  # The new JVM in the same pod joined the group under the same advertised address.
  wait_for 60 bash -c "$KUBE_BIN/kubectl -n $NS logs $p | grep -qF 'clientId=connect-$ip:8088, groupId=$group] Joined group'"
  # (A liveness exec into the dead container "errored", which restarts nothing; none failed.)
  run -0 kc get events --field-selector "involvedObject.name=$p,reason=Unhealthy" -o jsonpath='{range .items[*]}{.message}{"\n"}{end}'
  refute_output --partial 'Liveness probe failed'
}

@test "through the whole run no liveness probe failed, and only the killed worker restarted" {
  # The FAILED connector of 10_cluster.bats stood through the rolling restart, the eviction
  # and the kill: the kubelet's counters of the pods now, and every event of the run.
  run -0 connector_state kube-failed
  assert_output --partial FAILED
  killed=$(cat "$W/killed")
  for p in $(worker_pods); do
    read -r ok bad < <(liveness_counts "$p")
    [ "$bad" = 0 ] && [ "$ok" -gt 0 ] || fail "$p: liveness probes passed $ok, failed $bad"
    want=0
    [ "$p" = "$killed" ] && want=1
    run -0 kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].restartCount}'
    assert_output "$want"
  done
  run -0 kc get events --field-selector reason=Unhealthy -o jsonpath='{range .items[*]}{.message}{"\n"}{end}'
  refute_output --partial 'Liveness probe failed'
  run -0 rest DELETE "$SVC_IP" /connectors/kube-failed
  assert_line --index 0 204
}
