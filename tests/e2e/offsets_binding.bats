#!/usr/bin/env bats
# mm2-offsets on the bed (real clusters, real Connect workers, the job in a
# container of the image with the Job's 256 MiB): artifacts of another migration
# refused by every command before Connect is asked; the stale offsets a deleted
# connector of the same name leaves in Connect, refused and then, on request,
# replaced; and the caps: a Kafka answer above receive.message.max.bytes, a plan
# above its cap. The INIs here pin no cluster id: the ids are read live.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

# closing CMD RC: the closing line of a run that sent no REST request.
no_rest() {
  [[ $1 =~ finished\ with\ exit\ code\ $2\ in\ [0-9]+\ ms\ \(0\ ms\ of\ it\ waiting\ on\ purpose\):\ [0-9]+\ Kafka\ requests?,\ 0\ REST\ requests$ ]] ||
    fail "not the closing line of a run without a REST request: $1"
}

# make e2e: tests/cli/offsets_binding.bats refuses another migration's artifacts in every command
# and field in make test; this one adds real clusters' ids to the same refusal.
# bats test_tags=long
@test "an export and a plan of another Flink group are refused by every command, Connect untouched" {
  # Two migrations onto the same connector name and clusters: bnd (group bnd-flink, C=10)
  # and an older one whose group stopped at C=4 (bnd-old). Using the old one's artifacts
  # would skip nothing here but copy 4..9 twice; with the groups the other way round, skip.
  # The old group only commits C=4 (the target holds bnd's copy, so its export finds the
  # target ahead of its C: planned, 6 duplicates); a second copy onto that target would make
  # its tail no copy of the partition, which plan refuses [rule flink-partitioning].
  migration bnd bnd.t 'bnd\\.t' 2 40 0:10,1:10
  d=$MIG
  o=$(oj_dir bnd-old)
  oj_files "$o" bnd 'bnd\\.t'
  sed -i 's/^group.id = .*/group.id = bnd-old-flink/' "$o/migration.ini"
  "${KIT[@]}" commit --bootstrap "$BED_SRC_BOOTSTRAP" --group bnd-old-flink --topic bnd.t --offsets 0:4,1:4
  export_plan "$o"
  old_digest=$PLAN_DIGEST
  want="the plan belongs to another migration: its [flink] group.id is \"bnd-old-flink\", but migration.ini's is \"bnd-flink\"; use the plan made with this INI, or export and plan again [rule binding]"
  cp "$o/export.json" "$d/old-export.json"
  cp "$o/plan.json" "$d/old-plan.json"
  run -1 --separate-stderr oj "$d" plan --config migration.ini --export old-export.json --out plan.json
  assert_equal "${stderr_lines[0]}" "mm2-offsets plan: error: refused: the export belongs to another migration: its [flink] group.id is \"bnd-old-flink\", but migration.ini's is \"bnd-flink\"; use the export made with this INI, or export again [rule binding]"
  no_rest "${stderr_lines[2]}" 1
  [ ! -e "$d/plan.json" ]
  for c in apply verify resume status check accept remove rollback-plan; do
    case $c in
      resume) run -1 --separate-stderr oj "$d" resume --config migration.ini --plan old-plan.json --approve "$old_digest" ;;
      rollback-plan) run -1 --separate-stderr oj "$d" rollback-plan --config migration.ini --plan old-plan.json --out r.csv ;;
      *) run -1 --separate-stderr oj "$d" "$c" --config migration.ini --plan old-plan.json ;;
    esac
    assert_equal "${stderr_lines[0]}" "mm2-offsets $c: error: refused: $want"
    assert_equal "${stderr_lines[1]}" "mm2-offsets $c: error: 1 refusal; Connect was not touched"
    no_rest "${stderr_lines[2]}" 1
  done
  [ ! -e "$d/r.csv" ]
  connector_absent bnd
  # This migration's own artifacts pass the same gate.
  export_plan "$d"
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  assert_equal "$(offsets_json bnd | jq -c 'map(.offset.offset)')" '[9,9]'
}

@test "stale offsets of a deleted connector: refused and the connector deleted again, then replaced with --replace-stale-offsets" {
  migration stl stl.t 'stl\\.t' 2 40 0:10,1:0
  d=$MIG
  export_plan "$d"
  # An earlier connector of that name, deleted: Connect keeps its offsets (15 and 7).
  run -0 rest POST 1 /connectors "$(mirror_connector_json stl 'stl\\.t' STOPPED)"
  assert_line --index 0 201
  wait_for 60 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/stl/status | jq -e '.connector.state == \"STOPPED\" and (.tasks | length == 0)' >/dev/null"
  stale='{"offsets": [{"partition": {"cluster": "source", "topic": "stl.t", "partition": 0}, "offset": {"offset": 15}},
    {"partition": {"cluster": "source", "topic": "stl.t", "partition": 1}, "offset": {"offset": 7}}]}'
  wait_for 60 bash -c "curl -s -o /dev/null -w '%{http_code}' -X PATCH -H 'Content-Type: application/json' --data '$(jq -c . <<<"$stale")' http://$(bed_worker_ip 1):8088/connectors/stl/offsets | grep -qx 200"
  wait_for 30 bash -c "[ \"\$(curl -s http://$(bed_worker_ip 1):8088/connectors/stl/offsets | jq -c '[.offsets[].offset.offset] | sort')\" = '[7,15]' ]"
  run -0 rest DELETE 1 /connectors/stl
  wait_for 30 bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' http://$(bed_worker_ip 1):8088/connectors/stl)\" = 404 ]"

  run -1 --separate-stderr oj "$d" apply --config migration.ini --plan plan.json --backup backup.json
  [[ $stderr == *"creating connector stl STOPPED"* ]] || fail "apply said: $stderr"
  printf '%s\n' "$stderr" | grep -F 'refused:' >"$d/refused.txt" || true
  assert_equal "$(cat "$d/refused.txt")" "mm2-offsets apply: error: refused: stl.t-0: connector stl, just created, holds offset 15 from an earlier connector of that name (Connect keeps a deleted connector's offsets), past the plan's 9: writing the plan copies offsets 10..15 again, 6 records, duplicates if that connector wrote them to this target; to back them up and write the plan, run again with --replace-stale-offsets [rule stale-offsets]
mm2-offsets apply: error: refused: stl.t-1: connector stl, just created, holds offset 7 from an earlier connector of that name (Connect keeps a deleted connector's offsets), past the plan's null (the log start, C=0): writing the plan copies offsets 0..7 again, 8 records, duplicates if that connector wrote them to this target; to back them up and write the plan, run again with --replace-stale-offsets [rule stale-offsets]"
  [[ $stderr == *"mm2-offsets apply: error: 2 refusals; the connector this apply created was deleted again, and the offsets were left as they were (backed up in backup.json)"* ]]
  connector_absent stl
  assert_equal "$(jq -c '[.offsets[] | [.partition, .offset]]' "$d/backup.json")" '[[0,15],[1,7]]'

  run -0 --separate-stderr oj "$d" apply --config migration.ini --plan plan.json --backup backup2.json --replace-stale-offsets
  assert_equal "$(jq -c '[.ok, .replaced_stale_offsets, .backup.file]' <<<"$output")" \
    '[true,[{"topic":"stl.t","partition":0,"stale_offset":15,"plan_offset":9,"copied_again":6},{"topic":"stl.t","partition":1,"stale_offset":7,"plan_offset":null,"copied_again":8}],"backup2.json"]'
  [[ $stderr == *"warning: stl.t-0: writing the plan's 9 over offset 15, which an earlier connector named stl left: offsets 10..15 are copied again, 6 records"* ]]
  assert_equal "$(jq -c '[.offsets[] | [.partition, .offset]]' "$d/backup2.json")" '[[0,15],[1,7]]'
  # Connect now holds the plan: M = 9, and nothing for C = 0.
  assert_equal "$(offsets_json stl | jq -c 'map([.partition.partition, .offset.offset])')" '[[0,9]]'
  run -0 oj "$d" verify --config migration.ini --plan plan.json -q
}

@test "a Kafka answer above receive.message.max.bytes ends export at its first call to see it, with one line, exit 5" {
  d=$(oj_dir cap)
  oj_files "$d" cap 'cap\\.t'
  topics_both cap.t:1
  # 100 partitions more on the source: its metadata answer is then above 2.6 KB (26 bytes a
  # partition at replication factor 1), whatever else the bed holds, and above a lowered cap.
  "${KIT[@]}" create-topics --bootstrap "$BED_SRC_BOOTSTRAP" cap.wide:100 >/dev/null
  sed -i '/^\[source\]/a receive.message.max.bytes = 1600' "$d/migration.ini"
  t0=$SECONDS
  run -5 --separate-stderr oj "$d" export --config migration.ini --out export.json --stable-wait 2
  [ $((SECONDS - t0)) -lt 30 ] || fail "took $((SECONDS - t0)) s: the oversized answer was asked again until the deadline"
  printf '%s\n' "$stderr" | grep -F 'error:' >"$d/error.txt" || true
  assert_equal "$(wc -l <"$d/error.txt")" 1
  [[ $(cat "$d/error.txt") =~ ^mm2-offsets\ export:\ error:\ \[source\]\ [^:]+:\ a\ broker\ answered\ [0-9]+\ bytes,\ above\ receive\.message\.max\.bytes\ \(1600\;\ mm2-offsets\ caps\ it\ at\ 16777216,\ the\ cap\ that\ keeps\ the\ offset\ Job\ within\ its\ 256\ MiB\;\ LIMITS\ in\ mm2-offsets\(1\)\)$ ]] ||
    fail "unexpected: $(cat "$d/error.txt")"
  [ ! -e "$d/export.json" ]
}

@test "a 300 MB plan exits 3 with one line in the Job's 256 MiB container instead of being killed" {
  d=$(oj_dir big)
  oj_files "$d" big 'big\\.t'
  printf '{"kind": "mm2kit.plan/v1", "partitions": [\n' >"$d/plan.json"
  truncate -s 300M "$d/plan.json"
  chmod 0644 "$d/plan.json"
  run -3 --separate-stderr oj "$d" apply --config migration.ini --plan plan.json
  assert_equal "${stderr_lines[0]}" "mm2-offsets apply: error: plan file plan.json is 314572800 bytes, above the cap of 33554432 bytes (the cap that keeps the offset Job within its 256 MiB; LIMITS in mm2-offsets(1)); check that it is the right file"
  connector_absent big
}
