#!/usr/bin/env bats
# plan on Flink's side of the boundary, offline, on crafted exports: what the
# export found when it placed each target partition's last records among the
# source records around C (lib/mm2_boundary.h), and what the operator says
# with --start-at-gap and --accept-unplaced. Exact lines and exit codes; the
# same classes read from real clusters are tests/e2e's.
# bats' run --separate-stderr sets stderr and stderr_lines:
# shellcheck disable=SC2154
load offsets_helpers

# B: a Python statement defining bnd(CLASS, **members), a boundary member as
# mm2-offsets export writes it (lib/mm2_bnd_json.h), for make_export.
B='def bnd(cls, **kw):
    b = {"class": cls, "k": 0, "tail_records": 8, "matches": 0, "tail_first": 4000,
         "tail_last": 4007, "source_first": None, "source_last": None, "resume_at": None,
         "window_first": 20, "window_last": 171, "mismatch_target": None,
         "mismatch_target_digest": "", "mismatch_source": None, "mismatch_source_digest": "",
         "why": ""}
    b.update(kw)
    return b'

@test "a target behind C (the sink's last transaction aborted) is refused naming the missing source records [rule flink-gap]" {
  make_export "$WORK/export.json" "$B" \
    'part("orders", 0)["boundary"] = bnd("behind", k=3, matches=1, source_first=89, source_last=96, resume_at=97)' >/dev/null
  run -1 plan_with
  assert_refused "orders-0: the target ends 3 records before C=100: its last 8 records (target offsets 4000..4007) are source 89..96, so source 97..99 never reached it (the sink's last transaction aborted?); MM2 would skip them: plan with --start-at-gap orders:0 to copy them [rule flink-gap]"
}

@test "--start-at-gap plans M = C - k - 1, so MM2 copies exactly the records the target lacks" {
  make_export "$WORK/export.json" "$B" \
    'part("orders", 0)["boundary"] = bnd("behind", k=3, matches=1, source_first=89, source_last=96, resume_at=97)' >/dev/null
  run -0 --separate-stderr plan_with --start-at-gap orders:0
  assert_equal "${stderr_lines[0]}" "$E plan: warning: orders-0: starting MM2 at 97, 3 records below C=100 (--start-at-gap): it copies the 3 records the target lacks"
  run -0 json_get "$WORK/plan.json" '[d["partitions"][0], d["summary"]["gap_records"]]'
  assert_output '[{"topic": "orders", "partition": 0, "c": 97, "m": 96, "action": "offset", "log_start": 0, "log_end": 200, "lost": 0, "target_topic": "orders", "target_start": 5000, "boundary": "behind", "group_c": 100, "duplicates": 0, "gap": 3}, 3]'
}

@test "a target ahead of C is planned at C with its boundary duplicates counted and said" {
  make_export "$WORK/export.json" "$B" \
    'part("orders", 0)["boundary"] = bnd("ahead", k=4, matches=1, source_first=96, source_last=103, resume_at=100)' \
    'part("orders", 2)["boundary"] = bnd("aligned", matches=1, source_first=42, source_last=49, resume_at=50)' >/dev/null
  run -0 --separate-stderr plan_with
  assert_equal "${stderr_lines[0]}" "$E plan: warning: orders-0: the target already holds 4 records past C=100 (Flink wrote past its committed offset): MM2 copies them again, 4 boundary duplicates"
  run -0 json_get "$WORK/plan.json" '[[e["boundary"], e["m"], e["duplicates"]] for e in d["partitions"]] + [d["summary"]["boundary_duplicates"]]'
  assert_output '[["ahead", 99, 4], ["empty", null, 0], ["aligned", 49, 0], ["aligned", 6, 0], 4]'
}

@test "boundary duplicates above [policy] max.duplicates.per.partition or .total are refused [rule duplicates]; at the limits they pass" {
  make_export "$WORK/export.json" "$B" \
    'part("orders", 0)["boundary"] = bnd("ahead", k=4, matches=1, source_first=96, source_last=103, resume_at=100)' \
    'part("orders", 2)["boundary"] = bnd("ahead", k=2, matches=1, source_first=42, source_last=49, resume_at=50)' >/dev/null
  ini_add policy "max.duplicates.per.partition = 3" "max.duplicates.total = 5"
  run -1 plan_with
  assert_refused "orders-0: the target already holds 4 records past C=100 (Flink wrote past its committed offset), which MM2 would copy again: more than [policy] max.duplicates.per.partition = 3; have the duplicates accepted (raise it) or remove them from the target first [rule duplicates]" \
    "6 boundary duplicates over 4 partitions: more than [policy] max.duplicates.total = 5; have the duplicates accepted (raise it) or remove them from the target first [rule duplicates]"
  ini_set max.duplicates.per.partition 4
  ini_set max.duplicates.total 6
  run -0 --separate-stderr plan_with
  run -0 json_get "$WORK/plan.json" 'd["summary"]["boundary_duplicates"]'
  assert_output 6
}

@test "a tail that matches no place of the source is refused with offsets and digests, never bytes [rule flink-partitioning]" {
  make_export "$WORK/export.json" "$B" \
    'part("orders", 0)["boundary"] = bnd("unplaced", mismatch_target=4000, mismatch_target_digest="00aa11bb22cc", mismatch_source=92, mismatch_source_digest="33dd44ee55ff", why="the tail matches no place of the source window")' \
    'part("orders", 2)["boundary"] = bnd("unplaced", tail_records=0, tail_first=None, tail_last=None)' >/dev/null
  run -1 plan_with
  assert_refused "orders-0: its last 8 records (target offsets 4000..4007) match no place of source 20..171 around C=100: target offset 4000 (digest 00aa11bb22cc) differs from source offset 92 (digest 33dd44ee55ff); Flink repartitioned, transformed, or another writer wrote there, and MM2 keeps partitions; if you know why, record it with --accept-unplaced orders:0 [rule flink-partitioning]" \
    "orders-2: the target partition is empty while C=50: Flink's copy of this partition is not there (Flink wrote other partitions or topics?); MM2 keeps partitions, so it cannot take over as is; if you know why, record it with --accept-unplaced orders:2 [rule flink-partitioning]"
}

@test "--accept-unplaced plans an unplaced partition at C and records the decision" {
  make_export "$WORK/export.json" "$B" \
    'part("orders", 2)["boundary"] = bnd("unplaced", tail_records=0, tail_first=None, tail_last=None)' >/dev/null
  run -0 --separate-stderr plan_with --accept-unplaced orders:2
  assert_equal "${stderr_lines[0]}" "$E plan: warning: orders-2: planned at C=50 although the target's tail is unplaced (--accept-unplaced)"
  run -0 json_get "$WORK/plan.json" '[d["partitions"][2]["m"], d["partitions"][2]["boundary"]]'
  assert_output '[49, "unplaced"]'
}

@test "--start-at-gap and --accept-unplaced for partitions they do not fit are refused [rule start-at-gap] [rule accept-unplaced]" {
  make_export "$WORK/export.json" "$B" \
    'part("orders", 0)["boundary"] = bnd("aligned", matches=1, source_first=92, source_last=99, resume_at=100)' >/dev/null
  run -1 plan_with -g orders:0 -u orders:0
  assert_refused "--start-at-gap orders:0: the export did not find that partition behind C (or it is not replicated); it is only for a target that lacks records below C [rule start-at-gap]" \
    "--accept-unplaced orders:0: that partition's tail was placed (or it is not replicated); it is only for a tail the export could not place [rule accept-unplaced]"
}

@test "--start-at-gap without a partition exits 2" {
  run -2 offsets plan --config "$INI" --export e.json --out p.json --start-at-gap orders
  assert_output "$E plan: error: --start-at-gap must be TOPIC:PARTITION: \"orders\" is not TOPIC:PARTITION
$(try plan)"
}

@test "an export whose boundary contradicts itself exits 3 naming its JSON path" {
  make_export "$WORK/export.json" "$B" \
    'part("orders", 0)["boundary"] = bnd("behind", k=3, matches=1, source_first=89, source_last=96, resume_at=100)' >/dev/null
  run -3 plan_with
  assert_line "$E plan: error: $WORK/export.json: partitions[0].boundary: behind resumes right after source_last"
}

@test "an export that proved nothing of the boundary is planned as before, and plan says so in one warning" {
  # [flink] tail.records = 0, or an export from before the proof: no partition has a boundary.
  make_export "$WORK/export.json" 'for e in x["partitions"]: e.pop("boundary")' >/dev/null
  run -0 --separate-stderr plan_with
  assert_equal "${stderr_lines[0]}" "$E plan: warning: 4 of 4 partitions planned without Flink's side of the boundary proven: the export read no target tails ([flink] tail.records = 0, or an export from before that proof), so a target behind or ahead of C goes unseen"
  assert_equal "${#stderr_lines[@]}" 3
  run -0 json_get "$WORK/plan.json" '[[e["boundary"], e["m"]] for e in d["partitions"]]'
  assert_output '[["", 99], ["", null], ["", 49], ["", 6]]'
}
