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
  # A liveness probe in flight when the JVM dies fails once (its connection is reset): that
  # failure is the kill's own, so the counters are read on both sides of the kill.
  read -r _ bad0 < <(liveness_counts "$p")
  run -0 timeout 60 ctr -a "$KUBE_DIR/containerd/containerd.sock" -n k8s.io tasks kill -s SIGKILL "$cid"
  wait_for 120 bash -c "[ \"\$($KUBE_BIN/kubectl -n $NS get pod $p -o jsonpath='{.status.containerStatuses[0].restartCount}')\" = 1 ]"
  run -0 kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].lastState.terminated.exitCode} {.status.containerStatuses[0].lastState.terminated.reason}'
  assert_output "137 Error"
  wait_for 240 all_ready 3
  run -0 kc get pod "$p" -o jsonpath='{.status.podIP} {.status.containerStatuses[0].restartCount}'
  assert_output "$ip 1"
  # The new JVM in the same pod joined the group under the same advertised address.
  wait_for 60 bash -c "$KUBE_BIN/kubectl -n $NS logs $p | grep -qF 'clientId=connect-$ip:8088, groupId=$group] Joined group'"
  # At most the one probe that was in flight at the kill failed, on the lost connection; an
  # exec into the dead container "errored", which restarts nothing.
  read -r _ bad1 < <(liveness_counts "$p")
  kill_bad=$((bad1 - bad0))
  [ "$kill_bad" -le 1 ] || fail "$p: $kill_bad liveness probes failed around the kill, at most the one in flight may"
  echo "$bad1" >"$W/killed_bad"
  run -0 kc get events --field-selector "involvedObject.name=$p,reason=Unhealthy" -o jsonpath='{range .items[*]}{.message}{"\n"}{end}'
  failed=$(grep -c 'Liveness probe failed' <<<"$output" || true)
  [ "$failed" -le "$kill_bad" ] || fail "$p: liveness failures beyond the kill's own: $output"
  if [ "$failed" -gt 0 ]; then
    grep 'Liveness probe failed' <<<"$output" | grep -qvE 'Connection reset by peer|Connection refused|Empty reply' &&
      fail "$p: a liveness failure that is not the killed JVM's lost connection: $output"
  fi
  true
}

@test "through the whole run no liveness probe failed, and only the killed worker restarted" {
  # The FAILED connector of 10_cluster.bats stood through the rolling restart, the eviction
  # and the kill: the kubelet's counters of the pods now, and every event of the run.
  run -0 connector_state kube-failed
  assert_output --partial FAILED
  killed=$(cat "$W/killed")
  for p in $(worker_pods); do
    read -r ok bad < <(liveness_counts "$p")
    want=0 allowed=0
    [ "$p" = "$killed" ] && want=1 allowed=$(cat "$W/killed_bad")
    [ "$bad" = "$allowed" ] && [ "$ok" -gt 0 ] || fail "$p: liveness probes passed $ok, failed $bad (the kill's own: $allowed)"
    run -0 kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].restartCount}'
    assert_output "$want"
  done
  run -0 kc get events --field-selector reason=Unhealthy -o jsonpath='{range .items[*]}{.involvedObject.name} {.message}{"\n"}{end}'
  # Besides the killed JVM's own: a pod the rolling restart replaced may be probed once more
  # after SIGTERM, when Connect has already closed REST (it stops REST first) and before the
  # JVM exits: "Connection refused" of a pod that is gone now is that, and nothing else is.
  local now line
  now=" $(worker_pods | tr '\n' ' ')"
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    [[ $line == "$killed "* ]] && continue
    [[ $now != *" ${line%% *} "* && $line == *"Connection refused"* ]] && continue
    fail "a liveness failure that neither the kill nor a replaced pod's shutdown explains: $line"
  done < <(grep "Liveness probe failed" <<<"$output" || true)
  run -0 rest DELETE "$SVC_IP" /connectors/kube-failed
  assert_line --index 0 204
}
