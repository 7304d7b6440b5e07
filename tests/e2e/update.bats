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

# src2_at NAME OFFSETS: the connector's stored offsets under the alias src2 are OFFSETS.
src2_at() {
  [ "$(offsets_json "$1" | jq -c '[.[] | select(.partition.cluster == "src2") | .offset.offset]')" = "$2" ]
}

# end_is BOOTSTRAP TOPIC N: partition 0 of the one-partition TOPIC ends at N.
end_is() {
  [ "$("${KIT[@]}" ends --bootstrap "$1" --topic "$2")" = "{\"0\": $3}" ]
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

# make e2e: the alias change and the crash (make test runs the topic added above).
# bats test_tags=long
@test "update: a new alias is refused, then carried over with the connector stopped; a crash mid-update is finished by its rerun" {
  d=$(oj_dir ual)
  oj_files "$d" ual 'ual\\.t'
  topics_both ual.t:2
  produce ual.t 40 2
  run -0 rest POST 1 /connectors "$(cat "$d/connector.json")"
  assert_line --index 0 201
  wait_for 90 connector_running ual
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic ual.t --timeout 120
  assert_output '{"source_records": 40, "target_records": 40, "partitions": 2, "mismatched_partitions": 0}'
  set_file "$d" '.config["source.cluster.alias"] = "src2"'
  # Refused without --carry-over: every partition would start from auto.offset.reset.
  run -1 oj "$d" update --config migration.ini --out update.json -q
  assert_line --partial "refused: source.cluster.alias: "
  assert_line --partial "give --carry-over"
  # With it, but running: the offsets would move under it.
  run -1 oj "$d" update --config migration.ini --out update.json --carry-over -q
  assert_line --partial "refused: --carry-over needs the connector stopped"
  run -0 oj "$d" stop --config migration.ini -q
  run -0 --separate-stderr oj "$d" update --config migration.ini --out update.json --carry-over -q
  digest=$(tail -n 1 <<<"$output")
  assert_equal "$(jq -c '[.update.class, .update.carry_over, [.partitions[] | [.topic, .partition, .c, .target_start]]]' "$d/update.json")" \
    '["moves-offsets",{"from_alias":"source","to_alias":"src2"},[["ual.t",0,20,20],["ual.t",1,20,20]]]'
  produce ual.t 20 2 40
  # A crash: the update SIGKILLed as soon as it has asked Connect to stop the connector, before
  # the offsets, the config and the resume.
  OJ_NAME=ual-crash oj "$d" update --config migration.ini --plan update.json --approve "$digest" 2>"$d/crash.err" &
  pid=$!
  for _ in $(seq 1 2400); do
    ! grep -q 'PUT /connectors/ual/stop' "$d/crash.err" || break
    sleep 0.05
  done
  podman kill --signal KILL ual-crash >/dev/null
  wait "$pid" || true
  grep -q 'PUT /connectors/ual/stop' "$d/crash.err" || fail "no stop: $(cat "$d/crash.err")"
  [ "$(connector_state ual)" != RUNNING ] || fail "the crash came after resume: $(cat "$d/crash.err")"
  run -7 oj "$d" diff --config migration.ini -q
  # The rerun finishes it; MM2 goes on under the new alias from where it was.
  run -0 oj "$d" update --config migration.ini --plan update.json --approve "$digest"
  assert_equal "$(connector_state ual)" RUNNING
  run -0 --separate-stderr oj "$d" check --config migration.ini --plan update.json
  assert_equal "$(jq -c '[.ok, .equal, .failed]' <<<"$output")" '[true,2,0]'
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic ual.t --timeout 120
  assert_output '{"source_records": 60, "target_records": 60, "partitions": 2, "mismatched_partitions": 0}'
  # Connect stores MM2's progress under the new key (at its next offset flush).
  wait_for 120 src2_at ual '[29,29]'
  run -0 oj "$d" diff --config migration.ini -q
  run -0 rest DELETE 1 /connectors/ual
}

# make update-e2e (and make e2e): the other change classes, one update each.
# bats test_tags=long
@test "update, each change class: harmless applied; a topic removed, then added back from its stored offsets, and refused once the target moved; earliest and latest with their cost" {
  d=$(oj_dir ucl)
  oj_files "$d" ucl 'ucl\\.(a|b)'
  topics_both ucl.a:1 ucl.b:1 ucl.c:1 ucl.d:1
  # The Flink group's rows (docs/acls.md, "always"): a topic added is judged on its offsets.
  "${KIT[@]}" grant --name "flink group=ucl-flink" >/dev/null
  produce ucl.a 10 1
  produce ucl.b 10 1
  run -0 rest POST 1 /connectors "$(cat "$d/connector.json")"
  assert_line --index 0 201
  wait_for 90 connector_running ucl
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic ucl.b --timeout 120
  # harmless: tasks.max, no start needed, no offset written.
  set_file "$d" '.config["tasks.max"] = "2"'
  run -0 --separate-stderr oj "$d" update --config migration.ini --out h.json -q
  assert_equal "$(jq -c '[.update.class, (.partitions | length)]' "$d/h.json")" '["harmless",0]'
  run -0 oj "$d" update --config migration.ini --plan h.json --approve "$output" -q
  run -0 oj "$d" diff --config migration.ini -q
  # ucl.b removed: its stored offset is recorded in the plan and stays in Connect.
  set_file "$d" '.config.topics = "ucl\\.a"'
  run -0 --separate-stderr oj "$d" update --config migration.ini --out r.json -q
  assert_equal "$(jq -c '.update.topics_removed' "$d/r.json")" '[{"topic":"ucl.b","stored_offsets":[{"partition":0,"offset":9}]}]'
  run -0 oj "$d" update --config migration.ini --plan r.json --approve "$output" -q
  produce ucl.b 5 1 10
  # Added back: it resumes from its stored offset; the 5 records written meanwhile are copied.
  set_file "$d" '.config.topics = "ucl\\.(a|b)"'
  run -1 oj "$d" update --config migration.ini --out s.json -q
  assert_line --partial "=earliest or =latest or =stored"
  run -0 --separate-stderr oj "$d" update --config migration.ini --out s.json --start ucl.b=stored -q
  assert_equal "$(jq -c '[.partitions[] | [.topic, .c, .target_start]]' "$d/s.json")" '[["ucl.b",10,10]]'
  s_digest=$output
  # Someone writes to the target topic before the update runs: the start would no longer be proven.
  "${KIT[@]}" produce --bootstrap "$BED_TGT_BOOTSTRAP" --topic ucl.b --count 1 --partitions 1 --start 900 >/dev/null
  run -1 oj "$d" update --config migration.ini --plan s.json --approve "$s_digest" -q
  assert_line --partial "refused: ucl.b-0: the target ucl.b moved since the plan (its end 11, planned 10)"
  run -1 oj "$d" update --config migration.ini --out s2.json --start ucl.b=stored -q
  assert_line --partial "refused: ucl.b-0: a start at stored is refused: the target's last record is not the copy of the source record at its stored offset 9: the target moved since MM2 last copied it"
  # earliest and latest, with what they cost, on topics Flink copied part of.
  produce ucl.c 30 1
  produce ucl.d 30 1
  flink ucl-flink ucl.c 0:20
  flink ucl-flink ucl.d 0:20
  set_file "$d" '.config.topics = "ucl\\.(a|c|d)"'
  run -0 --separate-stderr oj "$d" update --config migration.ini --out e.json --start ucl.c=earliest --start ucl.d=latest
  assert_equal "$(jq -c '[.update.starts[] | [.topic, .mode, .copied_again, .never_copied]]' "$d/e.json")" '[["ucl.c","earliest",20,0],["ucl.d","latest",0,10]]'
  # The cost of each, said on stderr before anything is approved.
  assert_equal "$(grep -c "ucl.c-0: a start at earliest copies 20 records again (from the log start 0 to Flink's committed offset 20: Flink copied them)" <<<"$stderr")" 1
  assert_equal "$(grep -c "ucl.d-0: a start at latest never copies the 10 records from Flink's committed offset 20 to the log end 30" <<<"$stderr")" 1
  e_digest=$(tail -n 1 <<<"$output")
  run -0 oj "$d" update --config migration.ini --plan e.json --approve "$e_digest" -q
  produce ucl.d 5 1 30
  # ucl.c: Flink's 20, then all 30 again; ucl.d: Flink's 20, then only what came after the update.
  wait_for 120 end_is "$BED_TGT_BOOTSTRAP" ucl.c 50
  wait_for 120 end_is "$BED_TGT_BOOTSTRAP" ucl.d 25
  run -0 rest DELETE 1 /connectors/ucl
}
