#!/usr/bin/env bats
# "Stopped", as Connect itself decides it before it takes an offsets write
# (DistributedHerder.modifyConnectorOffsetsChecks: target state STOPPED and no task configs),
# on real workers. The task entries of GET .../status come from the status topic instead: the
# UNASSIGNED record a worker writes as it lets a deleted connector's task go can land after the
# deletion's tombstone, and a new connector of the same name then lists it. Such a stale entry
# must never block a cutover (it once made apply wait two minutes and give up).
# shellcheck disable=SC2154 # output, status and stderr are set by bats' run
load helpers
load offsets_helpers

# settled METHOD WORKER PATH [BODY]: rest, sent again while Connect answers 409 (the rebalance
# after the last change of the group's connectors), for at most 60 s.
settled() {
  local end=$((SECONDS + 60)) out
  while :; do
    out=$(rest "$@")
    if [ "${out%%$'\n'*}" != 409 ] || [ "$SECONDS" -ge "$end" ]; then
      break
    fi
    sleep 1
  done
  printf '%s\n' "$out"
}

# live NAME: "STATE STATUS_TASKS TASK_CONFIGS" as worker 1 answers now.
live() {
  local s t
  s=$(curl -s -m 10 "http://$(bed_worker_ip 1):8088/connectors/$1/status") || return 1
  t=$(curl -s -m 10 "http://$(bed_worker_ip 1):8088/connectors/$1/tasks") || return 1
  printf '%s %s %s\n' "$(jq -r .connector.state <<<"$s")" "$(jq '.tasks | length' <<<"$s")" \
    "$(jq length <<<"$t")"
}

@test "a task status left by a deleted connector of the same name never blocks apply: it goes through, says so, and verify and resume pass" {
  d=$(oj_dir stl)
  oj_files "$d" stl 'stl\\.t'
  topics_both stl.t:1 stl.trial:1
  produce stl.t 50 1
  produce stl.trial 20 1
  flink stl-flink stl.t 0:20
  export_plan "$d"
  # A trial connector of the migration's name (on a topic of its own) runs until its task does,
  # is deleted, and apply creates the real one a second later: until the race leaves the trial's
  # task status behind. Each apply must pass; a run that never met the race proves nothing.
  seen=0
  for try in $(seq 20); do
    run -0 settled POST 1 /connectors "$(mirror_connector_json stl 'stl\\.trial')"
    assert_line --index 0 201
    wait_for 60 connector_running stl || fail "the trial connector did not run (try $try)"
    run -0 settled DELETE 1 /connectors/stl
    assert_line --index 0 204
    sleep 1
    run --separate-stderr oj "$d" apply --config migration.ini --plan plan.json
    [ "$status" -eq 0 ] || fail "apply exited $status on try $try: $stderr; the connector: $(live stl)"
    if [[ "$stderr" == *"stale task status"* ]]; then
      seen=$try
      break
    fi
    run -0 settled DELETE 1 /connectors/stl
  done
  [ "$seen" -gt 0 ] || fail "the deleted connector's task status never outlived it in 20 tries: the race was not reproduced"
  printf '# the stale task status showed on try %s\n' "$seen" >&3
  assert_regex "$stderr" "info: connector stl is STOPPED with no task config \\(1 stale task status: task 0 [A-Z]+ on [0-9.]+:8088\\): stale, Connect keeps no task config behind them; not waited for"
  [[ "$stderr" == *"mm2-offsets apply: info: finished with exit code 0"* ]] || fail "apply said: $stderr"
  # What Connect shows: the new connector STOPPED, its status listing a task, no task config.
  run -0 live stl
  assert_output "STOPPED 1 0"
  run -0 --separate-stderr oj "$d" verify --config migration.ini --plan plan.json
  assert_equal "$(jq -c '[.ok, .state, .tasks, .stale_task_statuses]' <<<"$output")" '[true,"STOPPED",0,1]'
  run -0 oj "$d" status --config migration.ini --plan plan.json
  assert_line --regexp "^1 stale task status with no task config behind them \\(first: task 0 [A-Z]+ on [0-9.]+:8088\\): left by an earlier connector of this name, not counted$"
  run -0 --separate-stderr oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST"
  [[ "$stderr" == *"connector stl RUNNING with 1 tasks RUNNING"* ]] || fail "resume said: $stderr"
  # MM2 started at C = 20: the target holds every source record once.
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic stl.t --timeout 180
  assert_output '{"source_records": 50, "target_records": 50, "partitions": 1, "mismatched_partitions": 0}'
  run -0 settled PUT 1 /connectors/stl/stop
}
