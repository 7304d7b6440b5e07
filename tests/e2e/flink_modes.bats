#!/usr/bin/env bats
# The Flink stand-in's failure modes on the real bed (bedkit flink-copy): each
# mode leaves on the TARGET exactly what the real failure leaves, read back
# here record by record (key, value, headers, timestamp) against the SOURCE.
# mm2-offsets' boundary check is proven against these same modes.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

# recs BOOTSTRAP TOPIC PARTITION [ISOLATION]: the partition's records as JSON
# lines without their offsets, in log order.
recs() {
  "${KIT[@]}" dump --bootstrap "$1" --topic "$2" --isolation "${4:-read_committed}" |
    jq -c --argjson p "$3" 'select(.p == $p) | del(.o, .p)'
}

# src_slice TOPIC PARTITION FROM TO: source records [FROM, TO) of a partition.
src_slice() {
  recs "$BED_SRC_BOOTSTRAP" "$1" "$2" | sed -n "$(($3 + 1)),$4p"
}

# make e2e (the stand-in's modes; make test runs them through offsets_boundary.bats).
# bats test_tags=long
@test "flink-copy --past: an at-least-once sink leaves source [0, C + k) on the target while the group says C" {
  topics_both fmp.t:2
  produce fmp.t 60 2 # 30 records a partition
  run -0 "${KIT[@]}" flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group fmp-flink --topic fmp.t --upto 0:10,1:28 --past 4
  # 14 copied from partition 0; partition 1 ends at 30, so only 2 past its C.
  assert_output 44
  run -0 "${KIT[@]}" committed --bootstrap "$BED_SRC_BOOTSTRAP" --group fmp-flink --topic fmp.t
  assert_output '{"0": 10, "1": 28}'
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fmp.t 0)" "$(src_slice fmp.t 0 0 14)"
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fmp.t 1)" "$(src_slice fmp.t 1 0 30)"
  [ "$(recs "$BED_TGT_BOOTSTRAP" fmp.t 0 | wc -l)" -eq 14 ]
}

# make e2e (as above).
# bats test_tags=long
@test "flink-copy --abort-last: the broker aborts the sink's last transaction after C was committed; the target lacks source [C - k, C)" {
  topics_both fma.t:2
  produce fma.t 40 2 # 20 records a partition
  d=$(oj_dir fma)
  start=$(date +%s)
  run -0 "${KIT[@]}" flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group fma-flink --topic fma.t --upto 0:10,1:15 --txn-id fma-sink --txn-timeout-ms 3000 \
    --abort-last 3 --status "$d/status.json"
  assert_output 19
  # The broker, not the copier, ended it: not before transaction.timeout.ms.
  [ $(($(date +%s) - start)) -ge 3 ]
  assert_equal "$(jq -c . "$d/status.json")" '{"aborted":6,"copied":19,"transaction":"aborted","txn_id":"fma-sink"}'
  run -0 "${KIT[@]}" committed --bootstrap "$BED_SRC_BOOTSTRAP" --group fma-flink --topic fma.t
  assert_output '{"0": 10, "1": 15}'
  # read_committed (what MM2 and every consumer see): source [0, C - 3).
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fma.t 0)" "$(src_slice fma.t 0 0 7)"
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fma.t 1)" "$(src_slice fma.t 1 0 12)"
  # The aborted records are in the log all the same: read_uncommitted sees source [0, C).
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fma.t 0 read_uncommitted)" "$(src_slice fma.t 0 0 10)"
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fma.t 1 read_uncommitted)" "$(src_slice fma.t 1 0 15)"
}

# make e2e (as above).
# bats test_tags=long
@test "flink-copy --partitioner fixed: FlinkFixedPartitioner at parallelism 2 writes source partitions 0 and 2 into target 1 and source 1 into target 0" {
  topics_both fmf.t:3
  produce fmf.t 45 3 # 15 records a partition
  run -0 "${KIT[@]}" flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group fmf-flink --topic fmf.t --upto 0:15,1:15,2:15 --partitioner fixed --parallelism 2
  assert_output 45
  # "fmf.t".hashCode() puts partition 0 on subtask 1 (KafkaSourceEnumerator.getSplitOwner);
  # FlinkFixedPartitioner sends subtask i to target partition i % 3.
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fmf.t 0)" "$(src_slice fmf.t 1 0 15)"
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fmf.t 1)" "$(
    src_slice fmf.t 0 0 15
    src_slice fmf.t 2 0 15
  )"
  assert_equal "$(recs "$BED_TGT_BOOTSTRAP" fmf.t 2)" ""
}
