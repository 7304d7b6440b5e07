#!/usr/bin/env bats
# kubectl rollout restart while the producer writes: the Deployment controller replaces
# the pods one at a time (maxSurge 1, maxUnavailable 0, gated on readiness), every old pod
# exits 143 inside its grace period, and no record is lost or duplicated (the record audit
# runs in the background; 55_audit.bats asserts on it).
# jq programs are single-quoted on purpose: their $names are jq's.
# shellcheck disable=SC2016,SC2154 # output and stderr are set by bats' run
load helpers

@test "a rolling restart replaces one pod at a time, each old pod exits 143 in its grace period, and no record is lost or duplicated" {
  run -0 all_ready 3
  old_rs=$(kc get replicasets -l app.kubernetes.io/component=worker -o jsonpath='{.items[0].metadata.name}')
  mapfile -t old_uids < <(kc get pods -l app.kubernetes.io/component=worker -o jsonpath='{range .items[*]}{.metadata.uid}{"\n"}{end}')
  # The newest event so far: the rollout's are those after it.
  rv=$(kc get events -o json | jq '[.items[].metadata.resourceVersion | tonumber] | max // 0')
  # The workers' pods as the API lists them, then every change to them.
  timeout 600 "$KUBE_BIN/kubectl" -n "$NS" get pods -l app.kubernetes.io/component=worker --watch \
    --output-watch-events -o json >"$W/rollout-watch.json" 2>"$W/rollout-watch.err" 3>&- &
  watch=$!
  sleep 1
  run -0 kc rollout restart deployment/mm2-connect
  run -0 kc rollout status deployment/mm2-connect --timeout=480s
  run -0 all_ready 3
  sleep 3
  kill "$watch" 2>/dev/null || true
  wait "$watch" 2>/dev/null || true
  new_rs=$(kc get deployment mm2-connect -o json | jq -r '.metadata.annotations["deployment.kubernetes.io/revision"] as $r | $r')
  # The controller's own record: scale the new ReplicaSet up by one, the old down by one.
  run -0 bash -c "$KUBE_BIN/kubectl -n $NS get events --field-selector involvedObject.kind=Deployment,involvedObject.name=mm2-connect,reason=ScalingReplicaSet -o json |
    jq -r --argjson rv $rv '[.items[] | select((.metadata.resourceVersion | tonumber) > \$rv)] | sort_by(.metadata.resourceVersion | tonumber) | .[].message'"
  new=$(kc get replicasets -l app.kubernetes.io/component=worker -o json | jq -r --arg old "$old_rs" '.items[] | select(.metadata.name != $old) | .metadata.name')
  assert_equal "$output" "Scaled up replica set $new from 0 to 1
Scaled down replica set $old_rs from 3 to 2
Scaled up replica set $new from 1 to 2
Scaled down replica set $old_rs from 2 to 1
Scaled up replica set $new from 2 to 3
Scaled down replica set $old_rs from 1 to 0"
  # From the first new pod on: never fewer than 3 Ready pods that are not being deleted,
  # never more than 4 such pods.
  old=$(printf '%s\n' "${old_uids[@]}" | jq -Rsc 'split("\n") | map(select(. != ""))')
  run -0 jq -s -r --argjson old "$old" 'reduce .[] as $e ({pods: {}, started: false, minready: 99, maxpods: 0};
      .pods[$e.object.metadata.uid] = (if $e.type == "DELETED" or $e.object.metadata.deletionTimestamp then null
        else ([$e.object.status.conditions[]? | select(.type == "Ready") | .status][0] == "True") end)
      | .pods |= with_entries(select(.value != null))
      | .started = (.started or ($old | index($e.object.metadata.uid) | not))
      | if .started then .minready = ([.minready, ([.pods[] | select(.)] | length)] | min)
          | .maxpods = ([.maxpods, (.pods | length)] | max) else . end)
    | "\(.minready) \(.maxpods)"' "$W/rollout-watch.json"
  assert_output "3 4"
  # Each old pod's end as the kubelet first reported it: its worker exited 143 (SIGTERM)
  # before the deadline the API set when it was deleted (deletionTimestamp = delete + grace
  # period; the API moves it to the end once the kubelet is done).
  for u in "${old_uids[@]}"; do
    run -0 jq -s -r --arg u "$u" '[.[] | select(.object.metadata.uid == $u and .object.status.containerStatuses[0].state.terminated)] | first
      | .object | [.metadata.deletionGracePeriodSeconds, .status.containerStatuses[0].state.terminated.exitCode,
        (.status.containerStatuses[0].state.terminated.finishedAt <= .metadata.deletionTimestamp)] | map(tostring) | join(" ")' "$W/rollout-watch.json"
    assert_output "60 143 true"
  done
  # The producer stops; every source record is looked up on the target, in the background
  # while 50_pdb.bats runs (an eviction is a clean stop too); 55_audit.bats reads the result.
  touch "$W/ctl/stop"
  wait_for 60 jq -e '.final == true' "$W/ctl/state.json"
  kit 60 ends --bootstrap "$BED_SRC_BOOTSTRAP" --topic orders | jq -c 'with_entries(.key = "orders/" + .key)' >"$W/ends-o.json"
  kit 60 ends --bootstrap "$BED_SRC_BOOTSTRAP" --topic payments | jq -c 'with_entries(.key = "payments/" + .key)' >"$W/ends-p.json"
  jq -s add "$W/ends-o.json" "$W/ends-p.json" >"$W/ends.json"
  rm -f "$W/audit.rc"
  BEDKIT_SASL_USERNAME=$BED_ADMIN_USER BEDKIT_SASL_PASSWORD=$BED_ADMIN_PASSWORD detach bash -c '
    timeout 400 "$1" "$2" audit --source "$3" --target "$4" --topics orders,payments --ends "$5/ends.json" \
      --plan "$5/plan.json" --first-from "$5/first-from.json" --final --timeout 300 >"$5/audit.json" 2>"$5/audit.err"
    echo $? >"$5/audit.rc"' audit "$MM2KIT_CACHE/venv/bin/python3" "$ROOT/tests/bed/bedkit.py" \
    "$BED_SRC_BOOTSTRAP" "$BED_TGT_BOOTSTRAP" "$W"
  [ -n "$new_rs" ]
}
