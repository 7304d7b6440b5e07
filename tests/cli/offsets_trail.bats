#!/usr/bin/env bats
# mm2-offsets' audit trail from the command line (mm2-offsets(1), AUDIT TRAIL): what status
# --trail and record refuse before they reach Kafka. The trail on real clusters is
# tests/e2e/trail.bats.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

@test "status --restore without --trail, and --trail with --plan, are usage errors" {
  run -2 offsets status --config "$INI" --restore "$WORK/r"
  assert_output "$E status: error: --restore DIR goes with --trail
$(try status)"
  run -2 offsets status --config "$INI" --trail --plan "$WORK/plan.json"
  assert_output "$E status: error: --trail reads the trail, not a plan: leave --plan out
$(try status)"
  run -2 offsets status --trail
  assert_output "$E status: error: --config FILE is required (the migration INI file)
$(try status)"
}

@test "record refuses with the trail off, a file that is no artifact, a broken seal and another migration's plan, before it reaches Kafka" {
  make_plan
  run -3 offsets record --config "$INI" --file "$WORK/plan.json"
  assert_line "$E record: error: [trail] enabled = false in $INI: there is no trail to record in"
  ini_set enabled true
  printf 'not an artifact\n' >"$WORK/notes.txt"
  run -3 offsets record --config "$INI" --file "$WORK/notes.txt"
  assert_line "$E record: error: $WORK/notes.txt is neither a JSON artifact of mm2-offsets nor rollback-plan's CSV (TOPIC,PARTITION,OFFSET lines)"
  printf '{"kind": "mm2kit.plan/v1", "x": 1}\n' >"$WORK/fake.json"
  run -3 offsets record --config "$INI" --file "$WORK/fake.json"
  assert_line "$E record: error: the file $WORK/fake.json has no valid \"digest\""
  printf '{"kind": "mm2kit.notes/v1"}\n' >"$WORK/other.json"
  run -3 offsets record --config "$INI" --file "$WORK/other.json"
  assert_line "$E record: error: $WORK/other.json is not an artifact or report of mm2-offsets (no known \"kind\"): only those and rollback-plan's CSV are recorded"
  # the plan of another connector
  json_edit "$WORK/plan.json" 'd["connector"]["name"] = "other"'
  "$MM2_BUILD/tests/seal-artifact" "$WORK/plan.json" >/dev/null
  run -1 offsets record --config "$INI" --file "$WORK/plan.json"
  assert_line "$E record: error: refused: $WORK/plan.json is of connector other and Flink group flink-copy, not of this INI file's migration (connector mirror-source, group flink-copy) [rule binding]"
}

@test "a [trail] section with a bad value is refused with the others, naming key, value and range" {
  ini_add trail "replication.factor = 0" "topic = a b"
  run -3 offsets status --config "$INI" --trail
  assert_line "$E status: error: $INI: [trail] replication.factor must be 1 to 32767 (leave it out for the broker's default.replication.factor), got \"0\""
  assert_line --partial "$E status: error: $INI: [trail] topic \"a b\" is not a Kafka topic name"
}
