#!/usr/bin/env bats
# mm2-offsets update (day two, docs/day-two.md) against tests/fakes/fake_connect.py and the fake
# Kafka clusters of offsets_helpers.bash: the command line, each refusal before anything is
# written, and a plan of a topic added with its start. Applying a plan is proven on real workers
# (tests/e2e/update.bats).
# shellcheck disable=SC2154 # bats' run --separate-stderr sets stderr
load offsets_helpers

file_edit() { json_edit "$WORK/connector.json" "c = d['config']; $1"; }

@test "update: the command line: plan or apply, never both, and a start is TOPIC=MODE" {
  run -2 offsets update --config "$INI"
  assert_line --index 0 "$E update: error: give --out FILE to plan an update, or --plan FILE --approve DIGEST to apply an approved one"
  run -2 offsets update --config "$INI" --plan u.json --out u.json --approve sha256:00
  assert_line --index 0 "$E update: error: --plan applies a plan: --out, --start and --carry-over belong to planning it"
  run -2 offsets update --config "$INI" --plan u.json
  assert_line --index 0 --partial "$E update: error: --approve DIGEST is required with --plan"
  run -2 offsets update --config "$INI" --out u.json --approve sha256:00
  assert_line --index 0 "$E update: error: --approve needs --plan FILE"
  run -2 offsets update --config "$INI" --out u.json --start audit
  assert_line --index 0 "$E update: error: --start must be TOPIC=MODE, got \"audit\""
  run -2 offsets update --config "$INI" --out u.json --start audit=sideways
  assert_line --index 0 "$E update: error: --start audit: the mode must be flink, earliest, latest or stored, got \"sideways\""
  run -2 offsets update --config "$INI" --out u.json --start audit=latest --start audit=earliest
  assert_line --index 0 "$E update: error: --start audit given twice"
  [ ! -e u.json ]
}

@test "update: a connector equal to its file has nothing to update: exit 0, no plan" {
  start_fake offsets-running
  run -0 --separate-stderr offsets update --config "$INI" --out "$WORK/u.json"
  assert_output ""
  assert_equal "${stderr_lines[0]}" "$E update: info: connector mirror-source equals $WORK/connector.json: nothing to update"
  [ ! -e "$WORK/u.json" ]
}

@test "update: a new alias without --carry-over, --carry-over without one, a --start of no new topic: refused, nothing written" {
  start_fake offsets-running
  file_edit "c['source.cluster.alias'] = 'src2'"
  run -1 offsets update --config "$INI" --out "$WORK/u.json" -q
  assert_line --regexp '^mm2-offsets update: error: refused: source.cluster.alias: every stored source offset is keyed by this alias.*; give --carry-over to carry every stored offset over to the new key \(stop the connector first\), or keep the old value$'
  assert_line "$E update: error: 1 refusal; no plan was written"
  file_edit "c['source.cluster.alias'] = 'src'; c['tasks.max'] = '8'"
  run -1 offsets update --config "$INI" --out "$WORK/u.json" --carry-over --start audit=earliest -q
  assert_line "$E update: error: refused: --carry-over: no change of this update moves offsets"
  assert_line "$E update: error: refused: --start audit: not a topic this change adds"
  [ ! -e "$WORK/u.json" ]
}

@test "update: a topic added is refused without a start, and planned from the log start with --start TOPIC=earliest" {
  start_kafka source:orders:10,10,10 source:payments:5 source:audit:3,3 target:orders:0
  start_fake offsets-running
  planned_offsets
  file_edit "c['topics'] = 'orders,payments,audit'"
  run -1 offsets update --config "$INI" --out "$WORK/u.json" -q
  assert_line --partial "$E update: error: refused: new topic: refused without a start: audit: "
  assert_line --partial "give --start audit=flink (from Flink's committed offsets, if Flink copied it), =earliest or =latest"
  [ ! -e "$WORK/u.json" ]
  run -0 --separate-stderr offsets update --config "$INI" --out "$WORK/u.json" --start audit=earliest
  assert_output --regexp '^sha256:[0-9a-f]{64}$'
  assert_equal "$(json_get "$WORK/u.json" "[d['kind'], d['update']['class'], d['update']['starts'], [[e['topic'], e['partition'], e['c'], e['action']] for e in d['partitions']]]")" \
    '["mm2kit.plan/v1", "review", [{"topic": "audit", "mode": "earliest", "partitions": 2, "copied_again": 0, "never_copied": 0}], [["audit", 0, 0, "reset"], ["audit", 1, 0, "reset"]]]'
  # The cutover's steps refuse it: it starts two partitions of a running connector, not a migration.
  run -3 offsets apply --config "$INI" --plan "$WORK/u.json" -q
  assert_line --index 0 "$E apply: error: $WORK/u.json is an update's plan (mm2-offsets update), not the cutover's: apply it with update --plan, prove it with check --plan"
}
