#!/usr/bin/env bats
# mm2-offsets check against Kafka answers without a JVM: tests/cli/fake_kafka.c serves a
# SOURCE and a TARGET cluster (librdkafka's mock clusters) holding the records each test
# names, so check's timing across partitions is exact and cheap to show.
# shellcheck disable=SC2154 # bats' run --separate-stderr sets stderr
load offsets_helpers

# plan_parts ENTRY: $WORK/plan.json, planned from the default export with its four
# partitions (orders-0..2, payments-0) each given by the Python expression ENTRY over t
# and p (make_export's part_entry(t, p, C, log start, log end, target high watermark)).
plan_parts() {
  make_export "$WORK/export.json" \
    "x['partitions'] = [$1 for t, p in [('orders', 0), ('orders', 1), ('orders', 2), ('payments', 0)]]" >/dev/null
  offsets plan --config "$INI" --export "$WORK/export.json" --out "$WORK/plan.json" -q >/dev/null
}

@test "check --timeout is one deadline for the whole run: three partitions without MM2's first record cost it once" {
  # orders-0, orders-2 and payments-0: C = 5, and nothing on the target from its high
  # watermark of the export (0) on; orders-1: C = 0 (null in the plan), and the target holds
  # the source's records from offset 0, so MM2's first record is there and equal.
  local p want
  plan_parts "part_entry(t, p, 0 if (t, p) == ('orders', 1) else 5, 0, 10, 0)"
  start_kafka source:orders:10,10,10 source:payments:10 target:orders:0,10,0 target:payments:0
  # With a deadline per partition this took 3 x 3 s: orders-0 waited 3 s, then orders-2
  # and payments-0 3 s each (orders-1's record is there at once).
  timed -1 --separate-stderr offsets check --config "$INI" --plan "$WORK/plan.json" --timeout 3 --report "$WORK/check.json"
  assert_summary --stderr check 1 '[0-9]+' 0
  assert_near_ms "$MS" 3000 7000
  want=
  for p in orders-0 orders-2 payments-0; do
    want+="$E check: error: $p: no record at or after target offset 0 within the check's 3000 ms (--timeout)"$'\n'
  done
  assert_equal "$stderr" "$want$E check: error: 3 of 4 partitions fail the boundary check"
  run -0 json_get "$WORK/check.json" '[d["equal"], d["pending"], d["failed"], [(r["topic"], r["partition"], r["first"]["status"]) for r in d["partitions"]]]'
  assert_output '[1, 0, 3, [["orders", 0, "missing"], ["orders", 1, "equal"], ["orders", 2, "missing"], ["payments", 0, "missing"]]]'
}

@test "check proves the boundary at once when MM2's first records are there, and waits for none" {
  # Every partition at C = 5 with the target's high watermark of the export at 5: the
  # target's record at 5 is the source's at C, and its record at 4 the source's before C.
  plan_parts "part_entry(t, p, 5, 0, 10, 5)"
  start_kafka source:orders:10,10,10 source:payments:10 target:orders:10,10,10 target:payments:10
  timed -0 --separate-stderr offsets check --config "$INI" --plan "$WORK/plan.json" --timeout 30 --report "$WORK/check.json"
  assert_summary --stderr check 0 '[0-9]+' 0
  assert_near_ms "$MS" 0 10000
  assert_equal "$stderr" "$E check: info: boundary proven on 4 partitions, 0 pending (no source record after C yet)"
  run -0 json_get "$WORK/check.json" '[d["equal"], d["failed"], sorted({r["first"]["status"] + "/" + r["flink_last"]["status"] for r in d["partitions"]})]'
  assert_output '[4, 0, ["equal/equal"]]'
}
