#!/usr/bin/env bats
# Flink's side of the boundary on real clusters: bedkit flink-copy reproduces
# each failure for real (its last transaction aborted by the broker after C was
# committed, an at-least-once copy past C, FlinkFixedPartitioner), export reads
# the targets' tails and the sources around C, and plan classifies each
# partition exactly, refusing what would lose records or break per-key order
# with Connect untouched. The aborted case is then planned with --start-at-gap,
# applied, resumed and checked, and the target equals the source: 0 lost. An
# unplaced partition is planned only with --accept-unplaced, which the plan keeps.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

# copy ARGS...: bedkit flink-copy between the bed's clusters.
copy() {
  "${KIT[@]}" flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" "$@" >/dev/null
}

@test "export and plan classify an aborted last transaction, a copy past C and a fixed partitioner exactly; the refusals leave Connect untouched" {
  d=$(oj_dir fbd)
  oj_files "$d" fbd 'bnd[apf]\\.t'
  # Reads of 4 partitions at most: two reads, one after the other, the classes as one read's.
  printf 'headers.preserved = true\ntimestamps.preserved = true\ntail.partitions = 4\n' >>"$d/migration.ini"
  # [flink] is the INI's last but one section: move [connector] after the new keys.
  sed -i '/^\[connector\]/,/^file/d' "$d/migration.ini"
  printf '[connector]\nfile = connector.json\n' >>"$d/migration.ini"
  topics_both bnda.t:2 bndp.t:1 bndf.t:3
  produce bnda.t 40 2
  produce bndp.t 30 1
  produce bndf.t 45 3
  copy --group fbd-flink --topic bnda.t --upto 0:10,1:15 --txn-id fbd-sink --txn-timeout-ms 3000 --abort-last 3
  copy --group fbd-flink --topic bndp.t --upto 0:20 --past 4
  copy --group fbd-flink --topic bndf.t --upto 0:15,1:15,2:15 --partitioner fixed --parallelism 2
  run oj "$d" export --config migration.ini --out export.json --stable-wait 2
  printf '%s\n' "$output"
  assert_success
  # FlinkFixedPartitioner, parallelism 2, 3 partitions: bndf.t's source subtasks (its
  # KafkaSourceEnumerator owners) put partitions 0 and 2 both into target partition 0, 1 alone
  # into 1 (a faithful copy of it: aligned), nothing into 2.
  assert_line --partial "boundary: the target's tails against the source around C: 1 aligned, 1 ahead, 2 behind, 2 unplaced"
  assert_line --partial "boundary: 4 of 6 partitions read"
  assert_line --partial "boundary: 6 of 6 partitions read"
  # Their cleanup.policy is delete (read from the source, not assumed).
  assert_equal "$(jq -c '[.topics[] | select(.replicated) | .compacted] | unique' "$d/export.json")" '[false]'
  assert_equal "$(jq -c '[.partitions[] | [.topic, .partition, .boundary.class, (.boundary.k // 0), .boundary.source_last, .boundary.resume_at]]' "$d/export.json")" \
    '[["bnda.t",0,"behind",3,6,7],["bnda.t",1,"behind",3,11,12],["bndf.t",0,"unplaced",0,null,null],["bndf.t",1,"aligned",0,14,15],["bndf.t",2,"unplaced",0,null,null],["bndp.t",0,"ahead",4,23,20]]'
  run -1 oj "$d" plan --config migration.ini --export export.json --out plan.json
  assert_line --partial "refused: bnda.t-0: the target ends 3 records before C=10: its last 7 records (target offsets 0..6) are source 0..6, so source 7..9 never reached it"
  assert_line --partial "[rule flink-gap]"
  assert_line --partial "refused: bndf.t-2: the target partition is empty while C=15"
  # Target partition 0 holds source 0's 15 records, then source 2's: its last 8 are source 2's.
  assert_line --regexp "refused: bndf\\.t-0: its last 8 records \\(target offsets 22\\.\\.29\\) match no place of source 0\\.\\.14 around C=15: target offset 22 \\(digest [0-9a-f]{12}\\) differs from source offset 7 \\(digest [0-9a-f]{12}\\);.*\\[rule flink-partitioning\\]"
  refute_line --partial "bndf.t-1"
  assert_line "mm2-offsets plan: error: 4 refusals; no plan written"
  [ ! -e "$d/plan.json" ]
  connector_absent fbd
}

@test "the aborted last transaction: --start-at-gap, apply, resume and check leave the target equal to the source, 0 lost" {
  d=$(oj_dir gap)
  oj_files "$d" gap 'gap\\.t'
  topics_both gap.t:2
  produce gap.t 40 2
  copy --group gap-flink --topic gap.t --upto 0:10,1:15 --txn-id gap-sink --txn-timeout-ms 3000 --abort-last 3
  run oj "$d" export --config migration.ini --out export.json --stable-wait 2 -q
  printf '%s\n' "$output"
  assert_success
  run -0 --separate-stderr oj "$d" plan --config migration.ini --export export.json --out plan.json \
    --start-at-gap gap.t:0 --start-at-gap gap.t:1
  PLAN_DIGEST=$output
  assert_equal "${stderr_lines[0]}" "mm2-offsets plan: warning: gap.t-0: starting MM2 at 7, 3 records below C=10 (--start-at-gap): it copies the 3 records the target lacks"
  assert_equal "$(jq -c '[.partitions[] | [.c, .m, .group_c, .gap]]' "$d/plan.json")" '[[7,6,10,3],[12,11,15,3]]'
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  run -0 oj "$d" verify --config migration.ini --plan plan.json -q
  run -0 oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST" -q
  # Every source record on the target once, in order: the 6 the aborted transaction lost
  # included, nothing twice.
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic gap.t --timeout 180
  assert_output '{"source_records": 40, "target_records": 40, "partitions": 2, "mismatched_partitions": 0}'
  run -0 --separate-stderr oj "$d" check --config migration.ini --plan plan.json
  assert_equal "$(jq -c '[.ok, .equal, [.partitions[] | [.first.source_offset, .gap, .flink_last.status, .flink_last.source_offset]]]' <<<"$output")" '[true,2,[[7,3,"equal",6],[12,3,"equal",11]]]'
  run -0 rest PUT 1 /connectors/gap/stop
}

# check judges each partition by the class its plan recorded (docs/mm2-offsets.1, check).
@test "an at-least-once copy past C cuts over with check passing: Flink's last write is source C + k - 1, MM2's first the source at C; without the boundary read check fails that partition" {
  d=$(oj_dir ahd)
  oj_files "$d" ahd 'ahd\\.t'
  topics_both ahd.t:2
  produce ahd.t 60 2
  # Partition 0: 3 records past C = 20 (an AT_LEAST_ONCE sink); partition 1: aligned at 12.
  copy --group ahd-flink --topic ahd.t --upto 0:20 --past 3
  copy --group ahd-flink --topic ahd.t --upto 1:12
  run -0 oj "$d" export --config migration.ini --out export.json --stable-wait 2 -q
  run -0 --separate-stderr oj "$d" plan --config migration.ini --export export.json --out plan.json
  PLAN_DIGEST=$output
  assert_equal "$(jq -c '[.partitions[] | [.partition, .boundary, .c, .m, .duplicates]]' "$d/plan.json")" '[[0,"ahead",20,19,3],[1,"aligned",12,11,0]]'
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  run -0 oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST" -q
  run -0 --separate-stderr oj "$d" check --config migration.ini --plan plan.json
  assert_equal "$(jq -c '[.ok, .failed, .boundary_duplicates]' <<<"$output")" '[true,0,3]'
  # Partition 0: MM2's first record (target 23) is source 20, the one before it (target 22)
  # Flink's last write, source 22 = C + k - 1; partition 1: source 12, and before it 11.
  assert_equal "$(jq -c '[.partitions[] | [.first.status, .first.source_offset, .first.target_offset, .flink_last.status, .flink_last.source_offset, .flink_last.target_offset]]' <<<"$output")" \
    '[["equal",20,23,"equal",22,22],["equal",12,12,"equal",11,11]]'
  [[ "$stderr" == *"3 boundary duplicates, as the plan expected"* ]] || fail "check said: $stderr"
  run -0 rest PUT 1 /connectors/ahd/stop

  # The same copy, exported without the boundary read ([flink] tail.records = 0): the plan
  # knows no class, check expects Flink's last write before C, and the target says otherwise.
  d=$(oj_dir ahn)
  oj_files "$d" ahn 'ahn\\.t'
  sed -i '/^\[connector\]/,/^file/d' "$d/migration.ini"
  printf 'tail.records = 0\n[connector]\nfile = connector.json\n' >>"$d/migration.ini"
  topics_both ahn.t:2
  produce ahn.t 60 2
  copy --group ahn-flink --topic ahn.t --upto 0:20 --past 3
  copy --group ahn-flink --topic ahn.t --upto 1:12
  export_plan "$d"
  assert_equal "$(jq -c '[.partitions[] | [.partition, .boundary, .c, .m, .duplicates]]' "$d/plan.json")" '[[0,"",20,19,0],[1,"",12,11,0]]'
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  run -0 oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST" -q
  run -1 --separate-stderr oj "$d" check --config migration.ini --plan plan.json
  assert_equal "$(jq -c '[.ok, .failed, [.partitions[] | [.first.status, .flink_last.status, .flink_last.source_offset, .flink_last.target_offset]]]' <<<"$output")" \
    '[false,1,[["equal","differs",19,22],["equal","equal",11,11]]]'
  assert_equal "${stderr_lines[0]}" "mm2-offsets check: error: ahn.t-0: the last record before the boundary on the target (offset 22) differs from the source record before C (offset 19) in its key: Flink's last write and the plan's boundary (not read) disagree"
  run -0 rest PUT 1 /connectors/ahn/stop
}

# make e2e: how few partitions the second read reads again is a cost, not a safety rule; the
# classes it yields are proven by the other tests of this file in make test.
# bats test_tags=long
@test "export reads the boundary during its wait and reads again only the partition its second read saw move: the class is the second read's" {
  d=$(oj_dir mvd)
  oj_files "$d" mvd 'mvd\\.t'
  topics_both mvd.t:2
  produce mvd.t 30 2
  flink mvd-flink mvd.t 0:10,1:10
  oj "$d" export -v --config migration.ini --out export.json --stable-wait 8 >"$d/export.out" 2>"$d/export.err" &
  pid=$!
  early() { grep -q "boundary: 2 partitions read on the first read's offsets" "$d/export.err"; }
  wait_for 60 early || { kill "$pid"; cat "$d/export.err"; fail "no early boundary read"; }
  # During the wait another writer puts one record of another seed on target partition 1: its
  # tail no longer matches the source there.
  "${KIT[@]}" produce --bootstrap "$BED_TGT_BOOTSTRAP" --topic mvd.t --count 1 --start 1 --partitions 2 --seed 2 >/dev/null
  wait "$pid" || { cat "$d/export.err"; fail "export failed"; }
  run cat "$d/export.err"
  printf '%s\n' "$output"
  assert_line --partial "boundary: 2 partitions read during the wait; 1 read again after the second read (their offsets had moved)"
  assert_line --partial "boundary: the target's tails against the source around C: 1 aligned, 1 unplaced"
  assert_equal "$(jq -c '[.partitions[] | [.partition, .boundary.class, .target_lso]]' "$d/export.json")" '[[0,"aligned",[10,10]],[1,"unplaced",[10,11]]]'
}

@test "a compacted source window is reported as compacted (its cleanup.policy read), not taken for a repartitioning" {
  d=$(oj_dir cmp)
  oj_files "$d" cmp 'cmp\\.t'
  # segment.ms=100 with bedkit's 2023 timestamps rolls a segment at every append, so all but
  # the last record can be cleaned at once.
  "${KIT[@]}" create-topics --bootstrap "$BED_SRC_BOOTSTRAP" cmp.t:1:compact --config segment.ms=100 \
    --config min.cleanable.dirty.ratio=0.01 --config min.compaction.lag.ms=0 >/dev/null
  "${KIT[@]}" create-topics --bootstrap "$BED_TGT_BOOTSTRAP" cmp.t:1 >/dev/null
  "${KIT[@]}" produce --bootstrap "$BED_SRC_BOOTSTRAP" --topic cmp.t --count 40 --partitions 1 --keys 5 >/dev/null
  copy --group cmp-flink --topic cmp.t --upto 0:20
  # One more record closes the segment the 40 are in; the cleaner then keeps each key's last.
  "${KIT[@]}" produce --bootstrap "$BED_SRC_BOOTSTRAP" --topic cmp.t --count 1 --start 40 --partitions 1 --keys 5 >/dev/null
  compacted() { [ "$("${KIT[@]}" dump --bootstrap "$BED_SRC_BOOTSTRAP" --topic cmp.t | wc -l)" -le 6 ]; }
  wait_for 90 compacted
  first=$("${KIT[@]}" dump --bootstrap "$BED_SRC_BOOTSTRAP" --topic cmp.t | head -1 | jq .o)
  [ "$first" -gt 20 ]
  run oj "$d" export --config migration.ini --out export.json --stable-wait 2
  printf '%s\n' "$output"
  assert_success
  assert_line --partial "boundary: the target's tails against the source around C: 1 gone"
  assert_equal "$(jq -c '[.topics[] | select(.name == "cmp.t") | .compacted]' "$d/export.json")" '[true]'
  assert_equal "$(jq -c '.partitions[0].boundary | [.class, .window_first, .why]' "$d/export.json")" \
    '["gone",'"$first"',"the tail matches nowhere and the source topic is compacted (cleanup.policy): records of the window were removed"]'
  run -1 oj "$d" plan --config migration.ini --export export.json --out plan.json
  assert_line "mm2-offsets plan: error: refused: cmp.t-0: the tail matches nowhere and the source topic is compacted (cleanup.policy): records of the window were removed (C=20); what Flink copied cannot be compared, not guessed either; --accept-unplaced cmp.t:0 records that you checked it otherwise [rule flink-window-gone]"
  [ ! -e "$d/plan.json" ]
  connector_absent cmp
}

@test "an unplaced partition is refused, then planned with --accept-unplaced: the plan records the decision, apply and verify pass" {
  # Own names: connector acu, group acu-flink (names are shared across the e2e files on the
  # bed's one Connect cluster).
  d=$(oj_dir acu)
  oj_files "$d" acu 'acu\\.t'
  topics_both acu.t:1
  produce acu.t 20 1
  # Flink transformed what it copied (or another writer wrote there): the target holds 10
  # records of another seed, and the group committed C=10.
  "${KIT[@]}" produce --bootstrap "$BED_TGT_BOOTSTRAP" --topic acu.t --count 10 --partitions 1 --seed 2 >/dev/null
  "${KIT[@]}" commit --bootstrap "$BED_SRC_BOOTSTRAP" --group acu-flink --topic acu.t --offsets 0:10 >/dev/null
  run oj "$d" export --config migration.ini --out export.json --stable-wait 2
  printf '%s\n' "$output"
  assert_success
  assert_line --partial "boundary: the target's tails against the source around C: 1 unplaced"
  run -1 oj "$d" plan --config migration.ini --export export.json --out plan.json
  assert_line --regexp "^mm2-offsets plan: error: refused: acu\\.t-0: its last 8 records \\(target offsets 2\\.\\.9\\) match no place of source [0-9]+\\.\\.[0-9]+ around C=10: target offset 2 \\(digest [0-9a-f]{12}\\) differs from source offset 2 \\(digest [0-9a-f]{12}\\);.*--accept-unplaced acu\\.t:0 \\[rule flink-partitioning\\]$"
  [ ! -e "$d/plan.json" ]
  connector_absent acu
  # The operator's decision: planned at C all the same, said on stderr and kept in the plan
  # (the class it was planned with, under the digest the approval names).
  run -0 --separate-stderr oj "$d" plan --config migration.ini --export export.json --out plan.json \
    --accept-unplaced acu.t:0
  PLAN_DIGEST=$output
  assert_equal "${stderr_lines[0]}" "mm2-offsets plan: warning: acu.t-0: planned at C=10 although the target's tail is unplaced (--accept-unplaced)"
  assert_equal "$(jq -c '[.partitions[] | [.topic, .partition, .boundary, .c, .m, .action, .group_c, .gap, .duplicates]]' "$d/plan.json")" \
    '[["acu.t",0,"unplaced",10,9,"offset",10,0,0]]'
  run -0 oj "$d" apply --config migration.ini --plan plan.json -q
  run -0 oj "$d" verify --config migration.ini --plan plan.json -q
  # What Connect holds: M = C - 1, as for any aligned partition.
  assert_equal "$(offsets_json acu | jq -c 'map([.partition.topic, .partition.partition, .offset.offset])')" '[["acu.t",0,9]]'
  # check proves MM2's first record and leaves Flink's last uncompared: the plan says it could
  # not be placed.
  run -0 oj "$d" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST" -q
  run -0 --separate-stderr oj "$d" check --config migration.ini --plan plan.json
  assert_equal "$(jq -c '[.ok, [.partitions[] | [.first.status, .first.source_offset, .flink_last.status, .flink_last.detail]]]' <<<"$output")" \
    '[true,[["equal",10,"accepted","the plan accepted the boundary as unplaced (--accept-unplaced)"]]]'
  run -0 rest PUT 1 /connectors/acu/stop
}
