#!/usr/bin/env bats
# The short form of the fault matrix (make faults, tests/faults/run.sh) on the e2e bed: the
# worst broker fault for replication (the TARGET, where Connect's internal topics and MM2's
# producer live, SIGKILLed) and the worst network fault for the migration Job (the PATCH's
# answer lost).  The bed's brokers keep their logs across a restart (setup_suite).
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers
# shellcheck source=tests/faults/faultlib.bash
. "$E2E_ROOT/tests/faults/faultlib.bash"

teardown() {
  [ -z "${FT_CTL:-}" ] || touch "$FT_CTL/stop"
  [ -z "${FT_PRODUCER:-}" ] || wait "$FT_PRODUCER" 2>/dev/null || true
  timeout 60 podman rm -f -t 0 "$BED_NAME-job-apply" >/dev/null 2>&1 || true
}

@test "the TARGET broker SIGKILLed while MM2 replicates: started again, every source record reaches the target with its fields" {
  run -0 "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" ft.t:4
  run -0 "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" ft.t:4
  run -0 rest POST 1 /connectors "$(mirror_connector_json ft 'ft\\.t')"
  assert_line --index 0 201
  FT_CTL=$BED_DIR/faults-ctl
  rm -rf "$FT_CTL"
  mkdir -p "$FT_CTL"
  "$BED" kit produce-loop --bootstrap "$BED_SRC_BOOTSTRAP" --topics ft.t:4 --rate 30 --control "$FT_CTL" \
    >"$FT_CTL/producer.out" 2>"$FT_CTL/producer.log" 3>&- &
  FT_PRODUCER=$!
  wait_for 120 fl_running ft 1 2 3
  sleep 5
  run -0 fl_broker_restart "$BED_TGT" kill
  assert_output --regexp '^[0-9]+ 137$'
  run -0 "$BED" kit wait --bootstrap "$BED_TGT_BOOTSTRAP" --timeout 110
  # The producer keeps writing while Connect and MM2 find their broker again.
  sleep 10
  touch "$FT_CTL/stop"
  wait "$FT_PRODUCER" || fail "the producer failed: $(cat "$FT_CTL/producer.log")"
  FT_PRODUCER=
  # Every record written before, during and after the kill, compared field by field.
  run -0 --separate-stderr "$BED" kit audit --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --topics ft.t --final --timeout 240
  assert_equal "$(jq -c '.totals | [.lost, .mismatched, .unknown]' <<<"$output")" '[0,0,0]'
  echo "# $(jq -c '.totals | {source, lost, duplicates}' <<<"$output") across a TARGET SIGKILL" >&3
  [ "$(jq '.totals.source' <<<"$output")" -gt 600 ] || fail "too few records to prove anything: $output"
  wait_for 120 fl_running ft 1 2 3
  # Its tasks would only load the bed for the tests after this one.
  run -0 rest DELETE 1 /connectors/ft
}

@test "the PATCH's answer lost between the Job and Connect: apply exits 4, the offsets are the plan's, and the rerun ends verified" {
  d=$(oj_dir cut)
  oj_files "$d" cut 'cut\\.t'
  sed -i -e 's/^request.timeout.seconds = .*/request.timeout.seconds = 10/' -e 's/^retry.budget.seconds = .*/retry.budget.seconds = 30/' "$d/migration.ini"
  topics_both cut.t:3
  produce cut.t 60 3
  flink cut-flink cut.t 0:10,1:20,2:0
  export_plan "$d"
  fl_job_start "$d" apply "$(bed_worker_ip 1)" 1 apply --config migration.ini --plan plan.json
  fl_patch_cut apply answer
  touch "$d/apply.go"
  run -0 fl_job_wait apply 120
  assert_output 4
  run -0 grep -E '^mm2-offsets apply: error: PATCH /connectors/cut/offsets: ' "$d/apply.err"
  # Connect did write them: the Job could not know, and says so with its exit code.
  run -0 fl_offsets_equal_plan cut "$d/plan.json" 1
  run -0 --separate-stderr oj "$d" apply --config migration.ini --plan plan.json --backup backup-rerun.json
  assert_equal "$(jq -c '[.ok, .state, .checked]' <<<"$output")" '[true,"STOPPED",3]'
  [[ "$stderr" == *"the connector's offsets already equal the plan; nothing to PATCH"* ]] || fail "rerun said: $stderr"
  # The rerun's backup holds what the cut PATCH wrote: exactly the plan.
  assert_equal "$(jq -c '[.offsets[] | [.topic, .partition, .offset]] | sort' "$d/backup-rerun.json")" \
    '[["cut.t",0,9],["cut.t",1,19]]'
  run -0 oj "$d" verify --config migration.ini --plan plan.json -q
}
