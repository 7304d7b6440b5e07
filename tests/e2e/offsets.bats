#!/usr/bin/env bats
# mm2-offsets on real clusters: a real SOURCE and TARGET (KRaft), 3 real
# Connect workers of the image running MirrorSourceConnector, the job itself
# in a container of the image as the Kubernetes Job runs it, and a Flink-like
# copier whose group offsets are committed with librdkafka.  Each test owns
# its topics, group and connector, so the tests do not see each other.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

# A test that starts background clients leaves their pids in CHURNERS and
# their stop file in CHURN_STOP; they end here even when the test failed.
teardown() {
  if [ -n "${CHURN_STOP:-}" ]; then
    touch "$CHURN_STOP"
    kill "${CHURNERS[@]}" 2>/dev/null || true
    wait "${CHURNERS[@]}" 2>/dev/null || true
  fi
}

# The Kafka version of the bed's Connect workers (their kafka-clients jar).
connect_kafka_version() {
  podman exec "$(bed_worker_name 1)" sh -c 'ls /opt/kafka/libs | sed -n "s/^kafka-clients-\([0-9.]*\)\.jar$/\1/p"'
}

# PLAN entries as "topic/partition c m action" lines.
plan_lines() {
  jq -r '.partitions[] | "\(.topic)/\(.partition) \(.c) \(.m) \(.action)"' "$1/plan.json"
}

# The acceptance test make compat runs on every Kafka version mm2-offsets supports
# (tests/compat/run.sh).
# bats test_tags=compat,compat-offsets
@test "cutover: MM2 resumes every partition at C and the target holds each source record exactly once" {
  d=$(oj_dir acc)
  oj_files "$d" acc 'acc\\.orders,acc\\.payments'
  topics_both acc.orders:3 acc.payments:2
  produce acc.orders 300 3
  produce acc.payments 200 2 0 2
  # C in the middle, C = 0 and C = log end (100 records per partition).
  flink acc-flink acc.orders 0:40,1:0,2:100
  flink acc-flink acc.payments 0:70,1:100
  export_plan "$d"
  [[ "$PLAN_DIGEST" =~ ^sha256:[0-9a-f]{64}$ ]]
  run -0 plan_lines "$d"
  assert_output "acc.orders/0 40 39 offset
acc.orders/1 0 null reset
acc.orders/2 100 99 offset
acc.payments/0 70 69 offset
acc.payments/1 100 99 offset"

  run -0 --separate-stderr oj "$d" apply --config migration.ini --plan plan.json
  no_secret "$output" "$stderr"
  assert_equal "$(jq -c '[.ok, .state, .tasks, .checked, .mismatches]' <<<"$output")" '[true,"STOPPED",0,5,[]]'
  if [[ "$(connect_kafka_version)" == 3.6.* ]]; then # no initial_state: the placeholder, stopped
    [[ "$stderr" == *"Connect 3.6."*" has no initial_state (Kafka 3.7, KIP-980): creating connector acc with topics \"mm2kit/placeholder\", which no topic matches, then stopping it"* ]] ||
      fail "apply said: $stderr"
    [[ "$stderr" == *"connector acc STOPPED with zero tasks; writing the plan's config"* ]] || fail "apply said: $stderr"
  else
    [[ "$stderr" == *"creating connector acc STOPPED"* ]] || fail "apply said: $stderr"
  fi
  # Connect holds exactly the plan: M = C - 1, and nothing for C = 0.
  assert_equal "$(offsets_json acc | jq -c 'map([.partition.topic, .partition.partition, .offset.offset])')" \
    '[["acc.orders",0,39],["acc.orders",2,99],["acc.payments",0,69],["acc.payments",1,99]]'
  run -0 oj "$d" verify --config migration.ini --plan plan.json -q

  run -0 --separate-stderr oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST"
  [[ "$stderr" == *"connector acc RUNNING with"*"tasks RUNNING"* ]] || fail "resume said: $stderr"
  # The source keeps being written after the cutover, as producers do.
  produce acc.orders 150 3 300
  produce acc.payments 100 2 200 2
  # Per partition, the target equals the source record for record (keys, null
  # keys, tombstones, headers, timestamps): nothing missing at the boundary,
  # nothing copied twice.
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic acc.orders --timeout 180
  assert_output '{"source_records": 450, "target_records": 450, "partitions": 3, "mismatched_partitions": 0}'
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic acc.payments --timeout 180
  assert_output '{"source_records": 300, "target_records": 300, "partitions": 2, "mismatched_partitions": 0}'

  run -0 --separate-stderr oj "$d" check --config migration.ini --plan plan.json --report check.json
  assert_equal "$(jq -c '[.ok, .equal, .pending, .failed]' <<<"$output")" '[true,5,0,0]'
  assert_equal "$(jq -c '[.partitions[] | [.first.status, .first.source_offset, (.flink_last.status // "-")]]' <<<"$output")" \
    '[["equal",40,"equal"],["equal",0,"-"],["equal",100,"equal"],["equal",70,"equal"],["equal",100,"equal"]]'
  run -0 --separate-stderr oj "$d" status --config migration.ini --plan plan.json --format json
  assert_equal "$(jq -c '[.state, .tasks_failed]' <<<"$output")" '["RUNNING",0]'
}

# bats test_tags=compat,compat-offsets
@test "rollback after MM2 ran: stop, rollback-plan gives Flink C = M + 1, and Flink restarted there loses and repeats nothing" {
  d=$BED_DIR/offsets/acc
  [ -f "$d/plan.json" ] || skip "needs the cutover test's connector"
  # MM2 ran: remove (the rollback before MM2 ran) refuses and leaves it running.
  run -1 --separate-stderr oj "$d" remove --config migration.ini --plan plan.json
  [[ "$stderr" == *"nothing was removed: if MM2 ran, run stop, then rollback-plan"* ]] || fail "remove said: $stderr"
  # stop: PUT stop, wait until no task runs or is configured, report the offsets it holds.
  run -0 --separate-stderr oj "$d" stop --config migration.ini --report stop.json
  [[ "$stderr" == *"connector acc is RUNNING with "*" PUT /connectors/acc/stop"* ]] || fail "stop said: $stderr"
  [[ "$stderr" == *"connector acc STOPPED with no task; it holds 5 source offsets"* ]] || fail "stop said: $stderr"
  assert_equal "$(jq -c '[.kind, .connector, .state_before, .state, ([.offsets[] | [.topic, .partition, .offset]])]' <<<"$output")" \
    '["mm2kit.stop/v1","acc","RUNNING","STOPPED",[["acc.orders",0,149],["acc.orders",1,149],["acc.orders",2,149],["acc.payments",0,149],["acc.payments",1,149]]]'
  assert_equal "$(jq -S . "$d/stop.json")" "$(jq -S . <<<"$output")"
  run -0 rest GET 1 /connectors/acc/status
  assert_equal "$(sed 1d <<<"$output" | jq -c '[.connector.state, (.tasks | length)]')" '["STOPPED",0]'
  # A second stop changes nothing and says so.
  run -0 --separate-stderr oj "$d" stop --config migration.ini
  [[ "$stderr" == *"connector acc is already STOPPED: not touched"* ]] || fail "stop said: $stderr"
  # MM2 copied everything: M = log end - 1 everywhere, so C = log end.
  # Its refusal names the state it saw: kept in the failure (it exited 1 once on Kafka 4.0.2 right
  # after worker 1 said STOPPED with no task, and passed again; the cause is not known yet).
  run oj "$d" rollback-plan --config migration.ini --out rollback.csv --commit
  [ "$status" -eq 0 ] || fail "rollback-plan exited $status: $output; status: $(curl -s "http://$(bed_worker_ip 1):8088/connectors/acc/status")"
  run -0 cat "$d/rollback.csv"
  assert_output "acc.orders,0,150
acc.orders,1,150
acc.orders,2,150
acc.payments,0,150
acc.payments,1,150"
  run -0 "${KIT[@]}" committed --bootstrap "$BED_SRC_BOOTSTRAP" --group acc-flink --topic acc.orders
  assert_output '{"0": 150, "1": 150, "2": 150}'
  # The producers go on; Flink's stand-in starts again from its committed offsets (C = M + 1)
  # and copies on: the target holds each source record exactly once.
  produce acc.orders 90 3 450
  produce acc.payments 60 2 300 2
  run -0 "${KIT[@]}" flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group acc-flink --topic acc.orders --upto 0:180,1:180,2:180 --from-committed
  run -0 "${KIT[@]}" flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group acc-flink --topic acc.payments --upto 0:180,1:180 --from-committed
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic acc.orders --timeout 180
  assert_output '{"source_records": 540, "target_records": 540, "partitions": 3, "mismatched_partitions": 0}'
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic acc.payments --timeout 180
  assert_output '{"source_records": 360, "target_records": 360, "partitions": 2, "mismatched_partitions": 0}'
}

@test "a partition without a committed offset is refused, nothing is written and Connect is not touched" {
  d=$(oj_dir miss)
  oj_files "$d" miss 'miss\\.t'
  topics_both miss.t:2
  produce miss.t 20 2
  flink miss-flink miss.t 0:5
  run -0 oj "$d" export --config migration.ini --out export.json --stable-wait 2 -q
  run -1 oj "$d" plan --config migration.ini --export export.json --out plan.json
  assert_line "mm2-offsets plan: error: refused: miss.t-1: group miss-flink has no committed offset; MM2 would start at auto.offset.reset and copy the whole partition again (or skip it with latest): find where Flink stopped [rule no-offset]"
  assert_line "mm2-offsets plan: error: 1 refusal; no plan written"
  [ ! -e "$d/plan.json" ]
  connector_absent miss
}

@test "C below the log start is refused as expired data, and --accept-loss records the loss" {
  d=$(oj_dir del)
  oj_files "$d" del 'del\\.t'
  topics_both del.t:1
  produce del.t 100 1
  flink del-flink del.t 0:10
  run -0 "${KIT[@]}" delete-records --bootstrap "$BED_SRC_BOOTSTRAP" --topic del.t --before 0:50
  run -0 oj "$d" export --config migration.ini --out export.json --stable-wait 2 -q
  run -1 oj "$d" plan --config migration.ini --export export.json --out plan.json
  assert_line "mm2-offsets plan: error: refused: del.t-0: committed offset C=10 is below the log start 50: 40 records expired before MM2 could copy them; restore them from elsewhere, or record the loss with --accept-loss del.t:0 [rule expired]"
  [ ! -e "$d/plan.json" ]
  run -0 oj "$d" plan --config migration.ini --export export.json --out plan.json --accept-loss del.t:0
  assert_line "mm2-offsets plan: warning: del.t-0: accepting the loss of 40 expired records (C=10, log start 50)"
  assert_equal "$(jq -c '[.partitions[0].action, .partitions[0].m, .partitions[0].lost, .summary.records_lost]' "$d/plan.json")" '["accept-loss",null,40,40]'
  connector_absent del
}

@test "C beyond the log end is refused" {
  d=$(oj_dir end)
  oj_files "$d" end 'end\\.t'
  topics_both end.t:1
  produce end.t 50 1
  run -0 "${KIT[@]}" commit --bootstrap "$BED_SRC_BOOTSTRAP" --group end-flink --topic end.t --offsets 0:80
  run -0 oj "$d" export --config migration.ini --out export.json --stable-wait 2 -q
  run -1 oj "$d" plan --config migration.ini --export export.json --out plan.json
  assert_line "mm2-offsets plan: error: refused: end.t-0: committed offset C=80 is beyond the log end 50: not a position in this partition (topic recreated? wrong cluster?); check the group and cluster [rule beyond-end]"
  [ ! -e "$d/plan.json" ]
  connector_absent end
}

@test "an open transaction on the target (a Flink EXACTLY_ONCE sink) is refused" {
  d=$(oj_dir txn)
  oj_files "$d" txn 'txn\\.t'
  topics_both txn.t:1
  produce txn.t 30 1
  flink txn-flink txn.t 0:30
  # Three records in a transaction left open; the broker aborts it after 120 s.
  run -0 "${KIT[@]}" txn-open --bootstrap "$BED_TGT_BOOTSTRAP" --topic txn.t --count 3 --txn-id txn-e2e --txn-timeout-ms 120000
  run -0 oj "$d" export --config migration.ini --out export.json --stable-wait 2 -q
  # 30 records Flink copied, 3 in the open transaction (its marker comes with the commit or abort).
  assert_equal "$(jq -c '.partitions[0] | [.target_hw, .target_lso]' "$d/export.json")" '[[33,33],[30,30]]'
  run -1 oj "$d" plan --config migration.ini --export export.json --out plan.json
  assert_line --partial "refused: txn.t-0: on the target, the last stable offset 30 is below the high watermark 33: a transaction is open"
  assert_line --partial "[rule open-transaction]"
  [ ! -e "$d/plan.json" ]
  connector_absent txn
}

@test "a committed offset that moves between the two reads is refused" {
  d=$(oj_dir mov)
  oj_files "$d" mov 'mov\\.t'
  topics_both mov.t:1
  produce mov.t 40 1
  flink mov-flink mov.t 0:10
  oj "$d" export --config migration.ini --out export.json --stable-wait 6 -q >"$d/export.out" 2>&1 &
  pid=$!
  sleep 3
  # Flink is still running: it commits again between the reads.
  run -0 "${KIT[@]}" commit --bootstrap "$BED_SRC_BOOTSTRAP" --group mov-flink --topic mov.t --offsets 0:20
  wait "$pid" || fail "export failed: $(cat "$d/export.out")"
  run -1 oj "$d" plan --config migration.ini --export export.json --out plan.json
  assert_line --regexp "^mm2-offsets plan: error: refused: mov.t-0: the committed offset of group mov-flink moved from 10 to 20 between the two reads [0-9]+ ms apart: Flink \(or another client of the group\) is still committing; stop it, then export again \[rule offset-moved\]$"
  [ ! -e "$d/plan.json" ]
  connector_absent mov
}

@test "a topic the connector would replicate but the plan does not cover is refused by apply" {
  d=$(oj_dir unp)
  oj_files "$d" unp 'unp\\..*'
  topics_both unp.a:2
  produce unp.a 20 2
  flink unp-flink unp.a 0:10,1:10
  export_plan "$d"
  # A new topic matching the filter appears after the plan: MM2 would copy it from earliest.
  topics_both unp.b:3
  run -1 oj "$d" apply --config migration.ini --plan plan.json
  assert_line "mm2-offsets apply: error: refused: topic unp.b (3 partitions): the connector replicates it but the plan has no entry for it; MM2 would copy it from the earliest offset, a full duplicate: export and plan again, or narrow \"topics\" [rule unplanned]"
  assert_line "mm2-offsets apply: error: 1 refusal; Connect was not changed"
  connector_absent unp
}

@test "a source alias that differs from the plan's is refused by apply" {
  d=$(oj_dir ali)
  oj_files "$d" ali 'ali\\.t'
  topics_both ali.t:1
  produce ali.t 20 1
  flink ali-flink ali.t 0:10
  export_plan "$d"
  jq '.config["source.cluster.alias"] = "src2"' "$d/connector.json" >"$d/c2" && mv "$d/c2" "$d/connector.json"
  chmod 0644 "$d/connector.json"
  run -1 oj "$d" apply --config migration.ini --plan plan.json
  assert_line "mm2-offsets apply: error: refused: the plan belongs to another migration: its offsets are keyed by source.cluster.alias \"source\", but connector.json sets \"src2\" (MM2 ignores offsets under another alias); use the plan made with this INI, or export and plan again [rule binding]"
  connector_absent ali
}

@test "apply against the wrong target cluster is refused" {
  d=$(oj_dir wtc)
  oj_files "$d" wtc 'wtc\\.t'
  topics_both wtc.t:1
  produce wtc.t 20 1
  flink wtc-flink wtc.t 0:10
  export_plan "$d"
  src_id=$(jq -r .source_cluster_id "$d/plan.json")
  tgt_id=$(jq -r .target_cluster_id "$d/plan.json")
  # [target] now names the SOURCE cluster.
  sed -i "/^\[target\]/,/^\[connect\]/ s/^bootstrap.servers = .*/bootstrap.servers = $BED_SRC_BOOTSTRAP/" "$d/migration.ini"
  run -1 oj "$d" apply --config migration.ini --plan plan.json
  assert_line "mm2-offsets apply: error: refused: the plan belongs to another migration: its target cluster id is \"$tgt_id\", but the [target] cluster of migration.ini has id \"$src_id\"; use the plan made with this INI, or export and plan again [rule binding]"
  # With the ids pinned, the plan matches the INI: the cluster it reaches is still checked.
  sed -i "/^\[source\]/a cluster.id = $src_id" "$d/migration.ini"
  sed -i "/^\[target\]/a cluster.id = $tgt_id" "$d/migration.ini"
  run -1 oj "$d" apply --config migration.ini --plan plan.json
  assert_line "mm2-offsets apply: error: refused: the [target] cluster is $src_id but the plan was made for $tgt_id [rule wrong-target]"
  connector_absent wtc
}

# A connector created outside mm2-offsets with the plan's own config, then paused or left running.
foreign_connector() { # DIR NAME STATE
  run -0 rest POST 1 /connectors "$(cat "$1/connector.json")"
  assert_line --index 0 201
  wait_for 90 connector_running "$2"
  if [ "$3" = PAUSED ]; then
    run -0 rest PUT 1 "/connectors/$2/pause"
    wait_for 60 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/$2/status | jq -e '.connector.state == \"PAUSED\"' >/dev/null"
  fi
}

@test "a PAUSED connector is refused (PAUSED is not STOPPED) and left as it was" {
  d=$(oj_dir pau)
  oj_files "$d" pau 'pau\\.t'
  topics_both pau.t:1
  produce pau.t 20 1
  flink pau-flink pau.t 0:10
  export_plan "$d"
  foreign_connector "$d" pau PAUSED
  before=$(offsets_json pau)
  run -1 oj "$d" apply --config migration.ini --plan plan.json
  assert_line "mm2-offsets apply: error: refused: connector pau is PAUSED with 1 task, not STOPPED (PAUSED is not STOPPED: its tasks still exist); offsets can only be written to a STOPPED connector: PUT /connectors/pau/stop, check that its offsets have not moved past the plan, then run again [rule connector-state]"
  run -0 curl -s "http://$(bed_worker_ip 1):8088/connectors/pau/status"
  assert_equal "$(jq -r .connector.state <<<"$output")" PAUSED
  assert_equal "$(offsets_json pau)" "$before"
}

@test "a RUNNING connector, its task configured, is refused by apply, verify and rollback-plan and left running" {
  d=$(oj_dir run)
  oj_files "$d" run 'run\\.t'
  topics_both run.t:1
  produce run.t 20 1
  flink run-flink run.t 0:10
  export_plan "$d"
  foreign_connector "$d" run RUNNING
  run -1 oj "$d" apply --config migration.ini --plan plan.json
  assert_line "mm2-offsets apply: error: refused: connector run is RUNNING with 1 task, not STOPPED; offsets can only be written to a STOPPED connector: PUT /connectors/run/stop, check that its offsets have not moved past the plan, then run again [rule connector-state]"
  # verify and rollback-plan judge it the same way: its offsets still move.
  run -1 --separate-stderr oj "$d" verify --config migration.ini --plan plan.json
  assert_equal "${stderr_lines[0]}" "mm2-offsets verify: error: mismatch: connector run is RUNNING with 1 task, not STOPPED; the offsets move until the connector is stopped: PUT /connectors/run/stop, then verify again [rule connector-state]"
  assert_equal "$(jq -c '[.ok, .state, .tasks, .stale_task_statuses]' <<<"$output")" '[false,"RUNNING",1,0]'
  run -1 oj "$d" rollback-plan --config migration.ini --out rollback.csv
  assert_line "mm2-offsets rollback-plan: error: refused: connector run is RUNNING with 1 task, not STOPPED; the offsets move until the connector is stopped: PUT /connectors/run/stop, then run rollback-plan again [rule connector-state]"
  [ ! -e "$d/rollback.csv" ]
  wait_for 30 connector_running run
}

@test "a connector that has run past the plan is refused: re-applying the old plan would rewind it" {
  d=$(oj_dir prg)
  oj_files "$d" prg 'prg\\.t'
  topics_both prg.t:1
  produce prg.t 20 1
  flink prg-flink prg.t 0:10
  export_plan "$d"
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  run -0 oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST" -q
  produce prg.t 30 1 20
  # MM2 commits its offsets every offset.flush.interval.ms (10 s).
  wait_for 90 bash -c "[ \"\$(curl -s http://$(bed_worker_ip 1):8088/connectors/prg/offsets | jq '.offsets[0].offset.offset')\" = 49 ]"
  run -0 rest PUT 1 /connectors/prg/stop
  wait_for 60 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/prg/status | jq -e '.connector.state == \"STOPPED\" and (.tasks | length == 0)' >/dev/null"
  before=$(offsets_json prg)
  run -1 oj "$d" apply --config migration.ini --plan plan.json
  assert_line "mm2-offsets apply: error: refused: prg.t-0: connector prg has offset 49, past the plan's 9: it has run since the export, and this plan would rewind it and copy 40 records again; export and plan again [rule progressed]"
  assert_equal "$(offsets_json prg)" "$before"
}

@test "Flink restarted between verify and the approval: resume refuses, naming what moved, and MM2 stays STOPPED" {
  d=$(oj_dir rst)
  oj_files "$d" rst 'rst\\.t'
  topics_both rst.t:2
  produce rst.t 40 2
  flink rst-flink rst.t 0:10,1:12
  export_plan "$d"
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  # Someone starts the Flink job again (the stand-in copies from each partition's start again,
  # up to the offsets given) and it commits: rst.t-0 to 15, rst.t-1 at 12 as before.
  flink rst-flink rst.t 0:15,1:12
  run -1 --separate-stderr oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST"
  assert_equal "${stderr_lines[0]}" "mm2-offsets resume: info: re-checking the plan's facts: clusters, topics, partitions, log start"
  assert_equal "${stderr_lines[1]}" "mm2-offsets resume: info: re-checking that Flink is still stopped: group rst-flink (members, committed offsets) and the target's log ends"
  assert_equal "${stderr_lines[2]}" "mm2-offsets resume: error: refused: rst.t-0: group rst-flink committed 15 now, 10 at export: Flink (or something with its group) committed since, so it ran again; stop it, then export and plan again [rule flink-moved]"
  assert_equal "${stderr_lines[3]}" "mm2-offsets resume: error: refused: rst.t-0 on the target: the high watermark is 25 and the last stable offset 25 now, both 10 at export: something wrote to it since (Flink's sink running again?); MM2 would write beside it: stop the writer, then export and plan again [rule target-moved]"
  assert_equal "${stderr_lines[4]}" "mm2-offsets resume: error: refused: rst.t-1 on the target: the high watermark is 24 and the last stable offset 24 now, both 12 at export: something wrote to it since (Flink's sink running again?); MM2 would write beside it: stop the writer, then export and plan again [rule target-moved]"
  assert_equal "${stderr_lines[5]}" "mm2-offsets resume: error: 3 refusals; the connector was not resumed"
  # Nothing was started, and Connect still holds the plan's offsets.
  run -0 rest GET 1 /connectors/rst/status
  assert_equal "$(sed 1d <<<"$output" | jq -c '[.connector.state, (.tasks | length)]')" '["STOPPED",0]'
  assert_equal "$(offsets_json rst | jq -c 'map([.partition.partition, .offset.offset])')" '[[0,9],[1,11]]'
}

@test "rollback before MM2 ran: remove deletes the connector and its offsets, and Flink goes on from its own offsets without a gap or a repeat" {
  d=$(oj_dir rmv)
  oj_files "$d" rmv 'rmv\\.t'
  topics_both rmv.t:2
  produce rmv.t 40 2
  flink rmv-flink rmv.t 0:10,1:12
  export_plan "$d"
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  run -0 --separate-stderr oj "$d" remove --config migration.ini --plan plan.json --report remove.json
  [[ "$stderr" == *"DELETE /connectors/rmv/offsets"*"DELETE /connectors/rmv"*"connector rmv and its 2 source offsets deleted; Flink resumes from its own group offsets"* ]] ||
    fail "remove said: $stderr"
  assert_equal "$(jq -c '[.kind, .connector, ([.offsets_deleted[] | [.topic, .partition, .offset]]), .plan_digest, .migration.flink_group_id]' <<<"$output")" \
    "[\"mm2kit.remove/v1\",\"rmv\",[[\"rmv.t\",0,9],[\"rmv.t\",1,11]],\"$PLAN_DIGEST\",\"rmv-flink\"]"
  assert_equal "$(jq -S . "$d/remove.json")" "$(jq -S . <<<"$output")"
  connector_absent rmv
  # A connector created again under the name starts from nothing of the removed one's.
  run -0 rest POST 1 /connectors "$(mirror_connector_json rmv 'rmv\\.t' STOPPED)"
  assert_line --index 0 201
  wait_for 60 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/rmv/status | jq -e '.connector.state == \"STOPPED\"' >/dev/null"
  assert_equal "$(offsets_json rmv)" '[]'
  run -0 rest DELETE 1 /connectors/rmv
  # Run again: nothing to remove.
  run -0 --separate-stderr oj "$d" remove --config migration.ini --plan plan.json
  [[ "$stderr" == *"connector rmv does not exist: nothing to remove"* ]] || fail "remove said: $stderr"
  # Flink starts again from its committed offsets while the source goes on.
  produce rmv.t 20 2 40
  run -0 "${KIT[@]}" flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group rmv-flink --topic rmv.t --upto 0:30,1:30 --from-committed
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic rmv.t --timeout 120
  assert_output '{"source_records": 60, "target_records": 60, "partitions": 2, "mismatched_partitions": 0}'
}

@test "apply retries the real HTTP 409s of a concurrent config change and still verifies" {
  # Not in make test: whether an apply meets a rebalance window is chance
  # (none in 12 rounds, or a follower answering 500 for two minutes, both
  # seen on a fresh bed).  make e2e-churn runs it; the retry path itself is
  # covered exactly by tests/cli/offsets.bats against fake_connect.
  [ "${MM2_E2E_CHURN:-0}" = 1 ] || skip "chance-driven: make e2e-churn runs it"
  CHURN_STOP=$BED_DIR/offsets/churn.stop
  rm -f "$CHURN_STOP"
  # Another client creating and deleting connectors through worker 2: each
  # change makes the workers expect a rebalance, and until it has run
  # DistributedHerder answers with 409, or 500 outside its request handler,
  # "Request cannot be completed because a rebalance is expected".  The
  # window is short, so a fresh connector is applied up to 12 times; one
  # retried apply proves the path.  The client pauses 0.5 s after each change:
  # without pauses a rebalance was always expected on the bed, and apply then
  # ended after its retry budget with exit 4 (right, but not this test).
  CHURNERS=()
  (
    n=0
    while [ ! -e "$CHURN_STOP" ]; do
      n=$((n + 1))
      curl -s -o /dev/null -m 30 -X POST -H 'Content-Type: application/json' \
        --data "{\"name\": \"churn-$n\", \"initial_state\": \"STOPPED\", \"config\": $(mirror_connector_json "churn-$n" 'none' | jq -c .config)}" \
        "http://$(bed_worker_ip 2):8088/connectors" || true
      sleep 0.5
      curl -s -o /dev/null -m 30 -X DELETE "http://$(bed_worker_ip 2):8088/connectors/churn-$n" || true
      sleep 0.5
    done
  ) 3>&- &
  CHURNERS+=($!)
  topics_both r409.t:2
  produce r409.t 20 2
  flink r409-flink r409.t 0:10,1:10
  retried=0
  rounds=0
  while [ "$retried" -eq 0 ] && [ "$rounds" -lt 12 ]; do
    rounds=$((rounds + 1))
    d=$(oj_dir "r409-$rounds")
    oj_files "$d" "r409-$rounds" 'r409\\.t'
    sed -i "s/^group.id = .*/group.id = r409-flink/" "$d/migration.ini"
    export_plan "$d"
    run --separate-stderr oj "$d" apply --config migration.ini --plan plan.json
    [ "$status" -eq 0 ] || fail "apply round $rounds exited $status: $stderr"
    assert_equal "$(jq -c '[.ok, .checked]' <<<"$output")" '[true,2]'
    if [[ "$stderr" =~ answered\ HTTP\ (409|500)\ \([a-z\ ,]+\)\;\ retrying\ in ]]; then
      retried=1
    fi
  done
  touch "$CHURN_STOP"
  wait "${CHURNERS[@]}"
  echo "# the first apply that met a 409 or 500 was round $rounds" >&3
  [ "$retried" -eq 1 ] || fail "no apply met a 409 or 500 in $rounds rounds under churn"
  assert_equal "$(offsets_json "r409-$rounds" | jq -c 'map([.partition.topic, .partition.partition, .offset.offset])')" \
    '[["r409.t",0,9],["r409.t",1,9]]'
}

# make e2e and make faults (the fault matrix kills workers under mm2-offsets).
# bats test_tags=long
@test "a worker killed during apply: apply fails, and run again it ends verified" {
  d=$(oj_dir kil)
  oj_files "$d" kil 'kil\\.t' 3
  topics_both kil.t:3
  produce kil.t 60 3
  flink kil-flink kil.t 0:10,1:20,2:0
  export_plan "$d"
  oj "$d" apply --config migration.ini --plan plan.json >"$d/apply1.out" 2>&1 &
  pid=$!
  wait_for 60 grep -q "re-checking the plan's facts" "$d/apply1.out"
  podman kill -s KILL "$(bed_worker_name 3)" >/dev/null
  rc=0
  wait "$pid" || rc=$?
  [ "$rc" -eq 4 ] || [ "$rc" -eq 0 ] || fail "apply exited $rc: $(cat "$d/apply1.out")"
  "$BED" worker-start 3
  "$BED" worker-wait 3 240
  run -0 --separate-stderr oj "$d" apply --config migration.ini --plan plan.json
  assert_equal "$(jq -c '[.ok, .state, .checked]' <<<"$output")" '[true,"STOPPED",3]'
  run -0 oj "$d" verify --config migration.ini --plan plan.json -q
}

@test "Connect unreachable: apply exits 4 naming the URL, before touching anything" {
  d=$(oj_dir unr)
  oj_files "$d" unr 'unr\\.t'
  topics_both unr.t:1
  produce unr.t 10 1
  flink unr-flink unr.t 0:5
  export_plan "$d"
  # The source broker's host has nothing on 8088; the wait for a NetworkPolicy engine to catch
  # up (30 s by default) shortened to a second.
  sed -i "s|^url = .*|url = http://$BED_SRC_IP:8088\nconnect.wait.seconds = 1|" "$d/migration.ini"
  run -4 oj "$d" apply --config migration.ini --plan plan.json
  assert_line --partial "mm2-offsets apply: info: GET /: cannot connect to http://$BED_SRC_IP:8088: Connection refused; a pod just started may not be allowed through yet"
  assert_line "mm2-offsets apply: error: GET /: cannot connect to http://$BED_SRC_IP:8088: Connection refused"
  connector_absent unr
}

@test "the bad bodies of Kafka's offsets API integration test come back as one clear line each" {
  run -0 rest POST 1 /connectors "$(mirror_connector_json badbody 'badbody\\.t' STOPPED)"
  wait_for 60 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/badbody/status | jq -e '.connector.state == \"STOPPED\"' >/dev/null"
  body=$BED_DIR/offsets/badbody.json
  check_body() { # BODY EXPECTED_EXIT EXPECTED_LINE_PREFIX
    printf '%s' "$1" >"$body"
    CONNECT_PATCH_USER=$BED_REST_USER CONNECT_PATCH_PASSWORD=$BED_REST_PASSWORD \
      run "-$2" "$BUILD/tests/connect-patch" "http://$(bed_worker_ip 1):8088" badbody "$body"
    assert_line --partial "$3"
  }
  check_body '[]' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 500: Cannot deserialize value"
  check_body '{}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 400: Partitions / offsets need to be provided for an alter offsets request"
  check_body '{"key": []}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 500: Unrecognized field"
  check_body '{"offsets": []}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 400: Partitions / offsets need to be provided for an alter offsets request"
  check_body '{"offsets": {}}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 500: Cannot deserialize value"
  check_body '{"offsets": [123]}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 500: Cannot construct instance"
  check_body '{"offsets": [{"key": "val"}]}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 500: Unrecognized field"
  check_body '{"offsets": [{"partition": []}]}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 500: Cannot deserialize value"
  # MirrorSourceConnector's own checks (alterOffsets): why mm2-offsets writes null, never -1.
  check_body '{"offsets": [{"partition": {"cluster": "source", "topic": "badbody.t", "partition": 0}, "offset": {"offset": -1}}]}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 500:"
  check_body '{"offsets": [{"partition": {"topic": "badbody.t", "partition": 0}, "offset": {"offset": 5}}]}' 5 "connect-patch: error: PATCH /connectors/badbody/offsets: HTTP 500:"
  # And a good one, through the same client.
  check_body '{"offsets": [{"partition": {"cluster": "source", "topic": "badbody.t", "partition": 0}, "offset": {"offset": 5}}]}' 0 "connect-patch: ok after"
}

# What apply's create relies on, per version (docs/kafka-versions.md): since Kafka 3.7
# (KIP-980) initial_state STOPPED creates the connector stopped with no task ever started;
# before, CreateConnectorRequest has no such field and the create must fail whole (a Connect
# that ignored it would start the connector and copy records).
# bats test_tags=compat
@test "a create with initial_state STOPPED makes the connector STOPPED with no task, or (before 3.7) is refused and creates nothing" {
  topics_both initst.t:2
  produce initst.t 20 2
  run -0 podman exec "$(bed_worker_name 1)" sh -c 'ls /opt/kafka/libs | grep -E "^kafka-clients-[0-9.]+\.jar$"'
  clients=$output
  run -0 rest POST 1 /connectors "$(mirror_connector_json initst 'initst\\.t' STOPPED)"
  case "$clients" in
    kafka-clients-3.6.*)
      assert_line --index 0 500
      assert_line --index 1 --partial 'Unrecognized field \"initial_state\"'
      connector_absent initst
      ;;
    *)
      assert_line --index 0 201
      wait_for 60 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/initst/status | jq -e '.connector.state == \"STOPPED\" and (.tasks | length == 0)' >/dev/null"
      # Nothing was copied and no source offset exists.
      run -0 "${KIT[@]}" ends --bootstrap "$BED_TGT_BOOTSTRAP" --topic initst.t
      assert_output '{"0": 0, "1": 0}'
      assert_equal "$(offsets_json initst)" '[]'
      run -0 rest DELETE 1 /connectors/initst
      ;;
  esac
}

# make compat on a version tests/compat/versions marks offsets=unsupported (none today; Kafka
# 3.6 was until apply's fallback for a create without initial_state: docs/kafka-versions.md):
# the Job stops at export with one line naming the version, before anything is written.
# bats test_tags=compat-unsupported
@test "on a Connect version mm2-offsets does not support, export refuses with one line naming it" {
  migration uns uns.t 'uns\\.t' 2 20 0:5,1:5
  run -0 podman exec "$(bed_worker_name 1)" sh -c 'ls /opt/kafka/libs | sed -n "s/^kafka-clients-\([0-9.]*\)\.jar$/\1/p"'
  version=$output
  run -3 --separate-stderr oj "$MIG" export --config migration.ini --out export.json --stable-wait 1 -q
  [[ "$stderr" == "mm2-offsets export: error: "*"Kafka version \"$version\" is not one whose MirrorMaker 2 topic rules mm2-offsets knows (3.6.x-3.9.x, 4.0.x-4.3.x)" ]] ||
    fail "export said: $stderr"
  assert_equal "$(wc -l <<<"$stderr")" 1
  [ ! -e "$MIG/export.json" ] || fail "export wrote export.json"
  connector_absent uns
}
