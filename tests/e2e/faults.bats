#!/usr/bin/env bats
# The fault matrix's mm2-offsets fault in make test (make faults, tests/faults/run.sh), on the
# e2e bed: the PATCH's answer lost between the Job and Connect.  Its replication fault, the
# TARGET broker SIGKILLed while MM2 replicates, is make faults-short, on the matrix's own bed.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers
# shellcheck source=tests/faults/faultlib.bash
. "$E2E_ROOT/tests/faults/faultlib.bash"

teardown() {
  timeout 60 podman rm -f -t 0 "$BED_NAME-job-apply" >/dev/null 2>&1 || true
}

# make e2e and make faults (the fault matrix runs mm2-offsets under faults).
# bats test_tags=long
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
