#!/usr/bin/env bats
# The bed's smoke test: 3 workers of the image replicate a multi-partition
# topic with MirrorSourceConnector, and the target holds exactly the source's
# records, field by field, per partition.
load helpers

# make compat runs this file on every Kafka version (tests/compat/run.sh).
# bats file_tags=compat

TOPIC=smoke.orders
PARTITIONS=6
COUNT=${BED_SMOKE_RECORDS:-3000}

@test "a MirrorSourceConnector on 3 workers copies every record exactly, per partition" {
  local t0=$SECONDS
  run -0 "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" "$TOPIC:$PARTITIONS"
  run -0 "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" "$TOPIC:$PARTITIONS"
  run -0 "$BED" kit produce --bootstrap "$BED_SRC_BOOTSTRAP" --topic "$TOPIC" --count "$COUNT" --partitions "$PARTITIONS"
  assert_output "$COUNT"

  run -0 rest POST 2 /connectors "$(mirror_connector_json smoke 'smoke\\.orders')"
  assert_line --index 0 201

  # Waits until the target caught up, then compares keys (null too), values
  # (tombstones too), headers and timestamps record by record.
  run -0 "$BED" kit compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic "$TOPIC" --timeout 180
  assert_output "{\"source_records\": $COUNT, \"target_records\": $COUNT, \"partitions\": $PARTITIONS, \"mismatched_partitions\": 0}"

  run -0 rest GET 1 /connectors/smoke/status
  assert_line --partial '"connector":{"state":"RUNNING"'
  # one line for the bed-smoke target to print
  echo "bed-smoke: replicated $COUNT/$COUNT records across $PARTITIONS partitions in $((SECONDS - t0)) s" >"$BED_DIR/bed-smoke.line"
}

@test "the comparison fails when the target holds a record the source does not" {
  run -0 rest PUT 1 /connectors/smoke/stop
  # A record written straight to the target, as a second writer would.
  run -0 "$BED" kit produce --bootstrap "$BED_TGT_BOOTSTRAP" --topic "$TOPIC" --count 1 --start 999999 --partitions 1
  run -1 "$BED" kit compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic "$TOPIC" --timeout 30
  assert_output --partial '"mismatched_partitions": 1'
  assert_line --partial "partition 0: source has"
}
