#!/usr/bin/env bats
# The record audit of the rolling restart (40_rollout.bats started it when the producer
# stopped; it ran while 50_pdb.bats evicted a pod, a clean stop like the rollout's, and before
# 60_kill.bats kills a JVM): every source record is looked up on the target and compared field
# by field.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

@test "the rolling restart lost and duplicated no record" {
  wait_for 420 test -s "$W/audit.rc" || fail "the audit did not end: $(cat "$W/audit.err" 2>/dev/null)"
  run -0 cat "$W/audit.rc"
  assert_output 0
  run -0 jq -c '.totals | {lost, duplicates, mismatched}' "$W/audit.json"
  assert_output '{"lost":0,"duplicates":0,"mismatched":0}'
  run -0 jq -e '.complete == true and .totals.source > 1000' "$W/audit.json"
}
