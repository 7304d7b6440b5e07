#!/usr/bin/env bats
# mm2-offsets update on real workers and real clusters (docs/day-two.md): a topic Flink used to
# copy is added at Flink's committed offsets (the target then holds each source record exactly
# once), a hand PUT afterwards is drift that an old plan refuses; an alias change is refused,
# then carried over; a crash in the middle of an update is finished by its rerun.
# shellcheck disable=SC2154 # output, lines and stderr are set by bats' run
load helpers
load offsets_helpers

# connector_state NAME: the connector's state, one word.
connector_state() {
  curl -s -m 100 "http://$(bed_worker_ip 1):8088/connectors/$1/status" | jq -r .connector.state
}

# set_file DIR JQ: the repository's connector JSON edited, as a change under review is.
set_file() {
  jq "$2" "$1/connector.json" >"$1/c.tmp" && mv "$1/c.tmp" "$1/connector.json" && chmod 0644 "$1/connector.json"
}

@test "update: a topic Flink copied starts at Flink's committed offsets, 0 lost and 0 duplicated; a hand PUT is drift" {
  d=$(oj_dir upd)
  oj_files "$d" upd 'upd\\.a'
  topics_both upd.a:1 upd.b:2
  produce upd.a 20 1
  run -0 rest POST 1 /connectors "$(cat "$d/connector.json")"
  assert_line --index 0 201
  wait_for 90 connector_running upd
  # Flink copied upd.b up to 30 per partition and stopped; the source went on.
  produce upd.b 60 2
  flink upd-flink upd.b 0:30,1:30
  produce upd.b 40 2 60
  # The change under review: upd.b added. Without a start it is refused.
  set_file "$d" '.config.topics = "upd\\.(a|b)"'
  run -1 oj "$d" update --config migration.ini --out update.json -q
  assert_line --partial "refused: new topic: refused without a start: upd.b: "
  assert_line --partial "give --start upd.b=flink"
  [ ! -e "$d/update.json" ]
  run -0 --separate-stderr oj "$d" update --config migration.ini --out update.json --start upd.b=flink -q
  digest=$(tail -n 1 <<<"$output")
  assert_equal "$(jq -c '[.update.class, .update.starts, [.partitions[] | [.topic, .partition, .c, .m, .target_start]]]' "$d/update.json")" \
    '["review",[{"topic":"upd.b","mode":"flink","partitions":2,"copied_again":0,"never_copied":0}],[["upd.b",0,30,29,30],["upd.b",1,30,29,30]]]'
  # A wrong digest touches nothing.
  run -1 oj "$d" update --config migration.ini --plan update.json --approve sha256:0000000000000000000000000000000000000000000000000000000000000000 -q
  assert_line --partial "is not the digest of update.json"
  assert_equal "$(connector_state upd)" RUNNING
  run -0 oj "$d" update --config migration.ini --plan update.json --approve "$digest" -q
  assert_equal "$(connector_state upd)" RUNNING
  run -0 --separate-stderr oj "$d" check --config migration.ini --plan update.json
  assert_equal "$(jq -c '[.ok, .equal, .failed, [.partitions[] | [.first.status, .first.source_offset, .flink_last.status]]]' <<<"$output")" \
    '[true,2,0,[["equal",30,"equal"],["equal",30,"equal"]]]'
  produce upd.b 20 2 100
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic upd.b --timeout 120
  assert_output '{"source_records": 120, "target_records": 120, "partitions": 2, "mismatched_partitions": 0}'
  run -0 oj "$d" diff --config migration.ini -q
  # The update is in the audit trail: its plan, the approval acted on, the report.
  run -0 --separate-stderr oj "$d" status --config migration.ini --trail --format json
  assert_equal "$(jq -c '[.documents[] | .kind] | map(select(startswith("mm2kit.plan") or startswith("mm2kit.update")))' <<<"$output")" \
    '["mm2kit.plan/v1","mm2kit.update-run/v1","mm2kit.update-report/v1"]'
  # Someone PUTs by hand: the old plan no longer applies; diff names the key.
  run -0 rest PUT 1 /connectors/upd/config "$(curl -s -m 100 "http://$(bed_worker_ip 1):8088/connectors/upd/config" | jq -c '.["tasks.max"] = "1"')"
  run -7 oj "$d" diff --config migration.ini -q
  assert_line --partial 'harmless: changed tasks.max: "1" -> "3"'
  run -1 oj "$d" update --config migration.ini --plan update.json --approve "$digest" -q
  assert_line --partial "refused: connector upd changed since the update was planned (drift)"
  assert_line --partial 'tasks.max ("'
  no_secret "$output"
  run -0 rest DELETE 1 /connectors/upd
}
