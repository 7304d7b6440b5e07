#!/usr/bin/env bats
# mm2-offsets accept on real clusters: after a real cutover (export, plan, apply, resume) every
# line of the acceptance list holds; then two real reasons make it fail, each named by its line:
# a MirrorHeartbeatConnector on the Connect cluster, and a target topic's config changed after
# export. The bed, the job's container and Flink's stand-in are offsets.bats' (offsets_helpers).
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

# The lines of a report as "N name holds", one a line.
lines_of() {
  jq -r '.lines[] | "\(.line) \(.name) \(.holds)"' <<<"$1"
}

@test "accept after a real cutover: every line of the acceptance list holds, with its evidence, in JSON and Markdown" {
  d=$(oj_dir acpt)
  oj_files "$d" acpt 'acpt\\.orders'
  topics_both acpt.orders:2
  produce acpt.orders 200 2
  flink acpt-flink acpt.orders 0:40,1:100
  export_plan "$d"
  # export recorded the target topic's configs, and the plan carries them.
  assert_equal "$(jq -r '.topics[0].target_configs["cleanup.policy"]' "$d/plan.json")" delete
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  run -0 oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST" -q
  # The source goes on being written after the cutover.
  produce acpt.orders 60 2 200
  run -0 --separate-stderr oj "$d" accept --config migration.ini --plan plan.json --observe 10 \
    --report accept.json --markdown accept.md
  no_secret "$output" "$stderr"
  [[ "$stderr" == *"accepted: every line of the acceptance list holds (Markdown in accept.md)"* ]] ||
    fail "accept said: $stderr"
  assert_equal "$(jq -S . "$d/accept.json")" "$(jq -S . <<<"$output")"
  assert_equal "$(jq -c '[.kind, .ok, .plan_digest == "'"$PLAN_DIGEST"'", (.migration | type)]' <<<"$output")" \
    '["mm2kit.accept/v1",true,true,"object"]'
  run -0 lines_of "$output"
  assert_output "1 imported true
2 started true
3 complete true
4 running true
5 alone true
6 topics true"
  # Nothing missing after the boundary, counted record by record: C..W on each partition.
  assert_equal "$(jq -c '[.partitions[] | [.from, .source_records == .target_records, .compared == .source_records]]' "$d/accept.json")" \
    '[[40,true,true],[100,true,true]]'
  assert_equal "$(jq -r '.lines[1].evidence' "$d/accept.json")" \
    "2 partitions: MM2's first record equals the source's at C (or the first after it) on 2; 0 had no source record after C before the watermark"
  run -0 grep -c '^| [1-6] | .* | yes | ' "$d/accept.md"
  assert_output 6
  run -0 grep -F -- '- verdict: **accepted: every line holds**' "$d/accept.md"
}

# make e2e (make test runs the passing run; the lines' refusals are unit-tested in test_accept.c).
# bats test_tags=long
@test "accept fails, naming the line and its fix, for a MirrorHeartbeatConnector on the Connect cluster and a target topic's config changed after export" {
  d=$BED_DIR/offsets/acpt
  [ -f "$d/plan.json" ] && [ "$(rest GET 1 /connectors/acpt | head -n 1)" = 200 ] ||
    skip "needs the first test's cutover, on this bed"
  # A heartbeat connector beside the cutover's, created STOPPED: listed, nothing written.
  body=$(jq -c '{name: "acpt-heartbeat", initial_state: "STOPPED", config: {
    "connector.class": "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector",
    "source.cluster.alias": "source", "target.cluster.alias": "target", "tasks.max": "1",
    "source.cluster.bootstrap.servers": .config["source.cluster.bootstrap.servers"],
    "target.cluster.bootstrap.servers": .config["target.cluster.bootstrap.servers"]}}' "$d/connector.json")
  run -0 rest POST 1 /connectors "$body"
  assert_line --index 0 201
  was=$(jq -r '.topics[0].target_configs["retention.ms"]' "$d/plan.json")
  "${KIT[@]}" alter-config --bootstrap "$BED_TGT_BOOTSTRAP" --topic acpt.orders --config retention.ms=3600000
  run -1 --separate-stderr oj "$d" accept --config migration.ini --plan plan.json --observe 5 \
    --markdown failed.md
  rest DELETE 1 /connectors/acpt-heartbeat >/dev/null
  "${KIT[@]}" alter-config --bootstrap "$BED_TGT_BOOTSTRAP" --topic acpt.orders --config "retention.ms=$was"
  run -0 lines_of "$output"
  assert_output "1 imported true
2 started true
3 complete true
4 running true
5 alone false
6 topics false"
  [[ "$stderr" == *"line 5 (alone) does not hold: connector acpt-heartbeat is a MirrorHeartbeatConnector on the Connect cluster (Kafka "*"); mm2-offset-syncs.target.internal on the source: absent; mm2-offset-syncs.target.internal on the target: absent; fix: delete it (DELETE /connectors/acpt-heartbeat)"* ]] ||
    fail "accept said: $stderr"
  [[ "$stderr" == *"line 6 (topics) does not hold: 1 of 1 target topics changed since export: target topic acpt.orders retention.ms was $was at export, is 3600000 now"* ]] ||
    fail "accept said: $stderr"
  run -0 grep -F -- '- verdict: **NOT accepted**' "$d/failed.md"
  run -0 grep -F -- '- line 5 (alone): delete it' "$d/failed.md"
}
