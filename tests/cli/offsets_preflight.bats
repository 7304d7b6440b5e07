#!/usr/bin/env bats
# mm2-offsets preflight without Kafka: its command line, the INI keys it reads, and the exit
# codes of what it cannot reach. Its judgements are lib/mm2_preflight's, unit-tested in
# tests/unit/test_preflight.c; librdkafka's mock clusters (fake_kafka) answer no admin request
# sent to a controller, so the checks themselves run against a real Kafka, not here.
# The parsers' output is read through variables bats sets (lines, output, stderr):
# shellcheck disable=SC2154
load offsets_helpers

@test "preflight --help says it changes nothing and lists its exit codes" {
  run -0 --separate-stderr offsets preflight --help
  assert_equal "$stderr" ""
  assert_line --index 0 "Usage: mm2-offsets preflight --config FILE [--report FILE]"
  assert_line "cannot be asked is \"not checked\", never a pass. Changes nothing anywhere."
  assert_line --regexp '^  -r, --report FILE +also write the report there$'
  assert_line "Exit codes: 0 success (nothing refused; warnings may remain), 1 check failed (a"
  assert_line "finding refuses the cutover), 2 usage error, 3 invalid configuration (the INI"
}
@test "preflight without --config exits 2 and points at its help" {
  run -2 offsets preflight --report "$WORK/r.json"
  assert_output "$E preflight: error: --config FILE is required (the migration INI file)
$(try preflight)"
}
@test "preflight takes the INI as --config, not as an argument" {
  run -2 offsets preflight "$INI"
  assert_output "$E preflight: error: unexpected argument '$INI'
$(try preflight)"
}
@test "preflight: a bad [flink] isolation.level exits 3 naming the values it takes" {
  ini_add flink "isolation.level = serializable"
  run -3 offsets preflight --config "$INI"
  assert_output "$E preflight: error: $INI: [flink] isolation.level must be read_committed or read_uncommitted (what the Flink job's Kafka source read with), got \"serializable\""
}
@test "preflight: a bad [flink] retention.margin.seconds exits 3 naming its range" {
  ini_add flink "retention.margin.seconds = 0"
  run -3 offsets preflight --config "$INI"
  assert_output "$E preflight: error: $INI: [flink] retention.margin.seconds must be seconds from 1.000 to 31622400 (up to 3 decimals), got \"0\""
}
@test "preflight: the internal topics' keys are checked, every problem at once" {
  ini_add connect "config.topic = connect configs" "internal.replication.factor = 0" \
    "internal.min.insync.replicas = 40000"
  ini_add source "principal = mm2-src"
  run -3 offsets preflight --config "$INI"
  assert_line "$E preflight: error: $INI: [source] principal must be TYPE:NAME as Kafka's ACLs name it (User:alice), at most 255 characters, got \"mm2-src\""
  assert_line "$E preflight: error: $INI: [connect] config.topic must be a topic name: topic name \"connect configs\" has an illegal character at position 8 (allowed: [a-zA-Z0-9._-])"
  assert_line "$E preflight: error: $INI: [connect] internal.replication.factor must be a whole number from 1 to 32767, got \"0\""
  assert_line "$E preflight: error: $INI: [connect] internal.min.insync.replicas must be a whole number from 1 to 32767, got \"40000\""
  assert_equal "${#lines[@]}" 4
}
@test "preflight: the new keys are taken, and Connect not answering exits 4 before Kafka is asked" {
  ini_add connect "config.topic = c" "offset.topic = o" "status.topic = s" \
    "internal.replication.factor = 1" "internal.min.insync.replicas = 1"
  ini_add flink "isolation.level = read_committed"
  ini_add target "principal = User:mm2-target"
  run -4 --separate-stderr offsets preflight --config "$INI" --report "$WORK/preflight.json"
  assert_output ""
  assert_equal "${stderr_lines[0]}" "$E preflight: error: GET /: cannot connect to http://127.0.0.1:$PORT: Connection refused"
  assert_summary --stderr preflight 4 0 1
  [ ! -e "$WORK/preflight.json" ] || fail "a report was written without a run"
}
@test "preflight: Connect answers, Kafka does not: exit 4 naming the cluster, no report" {
  start_fake offsets-stopped
  run -4 --separate-stderr offsets preflight --config "$INI" --report "$WORK/preflight.json"
  assert_output ""
  assert_summary --stderr preflight 4 '[0-9]+' 1
  assert_equal "${stderr_lines[0]}" "$E preflight: info: Connect 4.1.0 on Kafka cluster fake-cluster"
  [[ ${stderr_lines[1]} == "$E preflight: error: [source] "* ]] || fail "not the source's error: ${stderr_lines[1]}"
  assert_equal "${#stderr_lines[@]}" 2
  [ ! -e "$WORK/preflight.json" ] || fail "a report was written without a run"
}
