#!/usr/bin/env bats
# The cutover on the real cluster: the offset Job from the rendered manifest (its
# ConfigMap and Secret, the reviewed plan as a ConfigMap) runs apply + verify to
# Complete; resume with the plan's digest starts the connector and check passes.
# The producer 10_cluster.bats started keeps writing to the end of the rolling restart
# (40_rollout.bats); the Flink-like copier stopped at C there.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

@test "export and plan in the operator's pod; the plan becomes the ConfigMap the Job mounts" {
  run -0 op export --config /etc/mm2-offsets/migration.ini --out /work/export.json --stable-wait 2 -q
  run -0 --separate-stderr op plan --config /etc/mm2-offsets/migration.ini --export /work/export.json --out /work/plan.json -q
  [[ "$output" =~ ^sha256:[0-9a-f]{64}$ ]] || fail "plan printed no digest: $output"
  printf '%s\n' "$output" >"$W/digest"
  kc exec mm2-operator -- cat /work/plan.json >"$W/plan.json"
  run -0 jq -c '[.partitions[] | [.topic, .partition, .action]]' "$W/plan.json"
  assert_output '[["orders",0,"offset"],["orders",1,"reset"],["orders",2,"offset"],["payments",0,"offset"],["payments",1,"offset"]]'
  run -0 kc create configmap mm2-offsets-plan --from-file=plan.json="$W/plan.json"
}

@test "the offset Job runs apply + verify to Complete and leaves the connector STOPPED at the plan" {
  run -0 kc patch job mm2-offsets-apply --type=merge -p '{"spec":{"suspend":false}}'
  run -0 kc wait --for=condition=Complete job/mm2-offsets-apply --timeout=180s
  run -0 kc get job mm2-offsets-apply -o jsonpath='{.status.succeeded} {.status.failed}'
  assert_output "1 "
  pod=$(kc get pods -l batch.kubernetes.io/job-name=mm2-offsets-apply -o jsonpath='{.items[0].metadata.name}')
  run -0 kc get pod "$pod" -o jsonpath='{.status.phase} {.status.containerStatuses[0].state.terminated.exitCode} {.spec.volumes[0].configMap.name} {.spec.volumes[1].configMap.name}'
  assert_output "Succeeded 0 $(kc get job mm2-offsets-apply -o jsonpath='{.spec.template.spec.volumes[0].configMap.name}') mm2-offsets-plan"
  run -0 --separate-stderr kc logs "$pod"
  no_secret "$output" "$stderr"
  # apply's report, then verify's: pretty-printed JSON on stdout, which the pod's log
  # interleaves line by line with stderr's lines ("mm2-offsets COMMAND: LEVEL: ..."); those
  # dropped by their prefix, the rest is exactly the two reports.
  assert_equal "$(grep -Ev '^mm2-offsets [a-z]+: ' <<<"$output" | jq -sc 'map([.ok, .state, .checked])')" '[[true,"STOPPED",5],[true,"STOPPED",5]]'
  run -0 connector_state "$CONN"
  assert_output "STOPPED 0"
  want=$(jq -c '[.partitions[] | select(.m != null) | [.topic, .partition, .m]]' "$W/plan.json")
  run -0 bash -c "curl -s -m 100 http://$SVC_IP:8088/connectors/$CONN/offsets | jq -c '.offsets | map([.partition.topic, .partition.partition, .offset.offset]) | sort'"
  assert_output "$want"
}

@test "resume with the plan's digest starts the connector and check passes" {
  run -0 --separate-stderr op resume --config /etc/mm2-offsets/migration.ini --plan /work/plan.json --approve "$(cat "$W/digest")"
  no_secret "$output" "$stderr"
  wait_for 120 bash -c "[ \"\$(curl -s -m 10 http://$SVC_IP:8088/connectors/$CONN/status | jq -r '.connector.state, ([.tasks[].state] | unique | join(\",\"))' | tr '\n' ' ')\" = 'RUNNING RUNNING ' ]"
  run -0 --separate-stderr op check --config /etc/mm2-offsets/migration.ini --plan /work/plan.json --timeout 120
  no_secret "$output" "$stderr"
  jq -c '[.partitions[] | {key: "\(.topic)/\(.partition)", value: .target_start}] | from_entries' "$W/plan.json" >"$W/first-from.json"
}
