#!/usr/bin/env bats
# mm2-offsets' caps (lib/mm2_limits.h, LIMITS in docs/mm2-offsets.1): every file it
# reads, and every answer of Connect and of Flink's REST API, is refused before it is
# read whole or parsed when it is above its cap, with one line and exit 3 (a file) or 5
# (an answer). Each file reader runs under the offset Job's memory limit (256 MiB, job_limited), where a
# file read whole would end in an out-of-memory failure instead (the first test shows
# the limit biting a reader without a cap).
# shellcheck disable=SC2154
load offsets_helpers

WHY="the cap that keeps the offset Job within its 256 MiB; LIMITS in mm2-offsets(1)"
BIG_BYTES=$((300 * 1024 * 1024))

# big FILE: a 300 MB file that starts like an artifact (the rest is sparse).
big() {
  printf '{"kind": "mm2kit.plan/v1", "partitions": [\n' >"$1"
  truncate -s "$BIG_BYTES" "$1"
}

# over_cap WHAT FILE CAP: the line for a WHAT file above its cap.
over_cap() {
  printf '%s file %s is %s bytes, above the cap of %s bytes (%s); check that it is the right file' \
    "$1" "$2" "$BIG_BYTES" "$3" "$WHY"
}

@test "the Job's memory limit kills a reader that reads a 300 MB file whole" {
  big "$WORK/big.json"
  # The same limit job_limited gives mm2-offsets, on a reader with no cap.
  run -1 bash -c "ulimit -v $JOB_MEMORY_KIB && exec timeout 20 python3 -c 'import sys; open(sys.argv[1], \"rb\").read()' '$WORK/big.json'"
  assert_line --partial MemoryError
}
@test "an INI file above 256 KiB exits 3 under the Job's memory limit, before it is read" {
  big "$WORK/big.ini"
  run -3 job_limited verify --config "$WORK/big.ini" --plan "$WORK/plan.json"
  assert_output "$E verify: error: $(over_cap config "$WORK/big.ini" 262144)"
}
@test "a connector JSON above 1 MiB exits 3 under the Job's memory limit, before it is read" {
  big "$WORK/big.json"
  ini_set file "$WORK/big.json"
  run -3 job_limited verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $(over_cap connector "$WORK/big.json" 1048576)"
}
@test "an export above 32 MiB exits 3 in plan under the Job's memory limit, before it is read" {
  big "$WORK/big.json"
  run -3 job_limited plan --config "$INI" --export "$WORK/big.json" --out "$WORK/plan.json"
  assert_summary plan 3 0 0
  assert_output "$E plan: error: $(over_cap export "$WORK/big.json" 33554432)"
  [ ! -e "$WORK/plan.json" ]
}
@test "a plan above 32 MiB exits 3 in every command that reads one, under the Job's memory limit" {
  local c
  big "$WORK/big.json"
  start_fake offsets-stopped
  for c in apply verify status check accept remove rollback-plan resume; do
    case $c in
      resume) run -3 job_limited resume --config "$INI" --plan "$WORK/big.json" --approve "$BOGUS" ;;
      rollback-plan) run -3 job_limited rollback-plan --config "$INI" --plan "$WORK/big.json" --out "$WORK/r.csv" ;;
      *) run -3 job_limited "$c" --config "$INI" --plan "$WORK/big.json" ;;
    esac
    assert_summary "$c" 3 0 0
    assert_output "$E $c: error: $(over_cap plan "$WORK/big.json" 33554432)"
  done
  if grep -q 'HTTP/1' "$WORK/fake.log"; then fail "Connect was asked: $(cat "$WORK/fake.log")"; fi
}
@test "an artifact of exactly 32 MiB is read (and refused for what it holds), one byte more is not" {
  printf '{"kind": "mm2kit.export/v1"}' >"$WORK/cap.json"
  truncate -s 33554432 "$WORK/cap.json"
  run -3 job_limited plan --config "$INI" --export "$WORK/cap.json" --out "$WORK/plan.json"
  assert_summary plan 3 0 0
  assert_output "$E plan: error: export file $WORK/cap.json holds a NUL byte; it is not text"
  truncate -s 33554433 "$WORK/cap.json"
  run -3 job_limited plan --config "$INI" --export "$WORK/cap.json" --out "$WORK/plan.json"
  assert_summary plan 3 0 0
  assert_output "$E plan: error: export file $WORK/cap.json is 33554433 bytes, above the cap of 33554432 bytes ($WHY); check that it is the right file"
}
@test "a dense plan under 32 MiB but above 1,500,000 JSON values exits 3 before it is parsed" {
  # 12 MB of "0," is an array of 6,000,001 values: some 500 MB once parsed by cJSON.
  timeout 10 python3 -c 'import sys; open(sys.argv[1], "w").write("[" + "0," * 6000000 + "0]")' "$WORK/dense.json"
  run -3 job_limited verify --config "$INI" --plan "$WORK/dense.json"
  assert_summary verify 3 0 0
  assert_output "$E verify: error: plan file $WORK/dense.json holds 6000002 JSON values, above the cap of 1500000 ($WHY); check that it is the right file"
}
@test "an offsets answer under 16 MiB but above 1,500,000 JSON values exits 5 before it is parsed" {
  make_plan
  timeout 10 python3 -c 'import sys; open(sys.argv[1], "w").write("{\"offsets\": [" + "[]," * 2000000 + "[]]}")' "$WORK/offsets.json"
  start_fake offsets-stopped
  run -5 job_limited verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: the answer holds 2000003 JSON values, above the cap of 1500000 ($WHY)"
}
@test "receive.message.max.bytes above 16 MiB is refused: every Kafka answer stays within the cap" {
  make_plan
  ini_add source 'receive.message.max.bytes = 100000000'
  run -3 offsets status --config "$INI" --plan "$WORK/plan.json"
  assert_summary status 3 0 0
  assert_output "$E status: error: [source] librdkafka property 'receive.message.max.bytes' must be a number of bytes up to 16777216 ($WHY)"
}
@test "a Flink REST answer above 1 MiB ends export with one line, exit 5" {
  # Not under ulimit -v: export's librdkafka threads reserve far more address space (a
  # stack and a malloc arena each) than they ever touch, which a memory cgroup would not
  # count; the body is refused at its first MiB all the same.
  local flink_pid
  start_kafka source:orders:1,1,1 source:payments:1 target:orders:0,0,0 target:payments:0
  ini_drop cluster.id
  start_fake offsets-stopped
  # Flink's REST API, answering GET /jobs/ID with 10 MB.
  timeout 60 python3 "$FAKE_CONNECT" huge "$WORK/flink.port" "$WORK" >"$WORK/flink.log" 2>&1 3>&- &
  flink_pid=$!
  await_file "$WORK/flink.port" 5 "$WORK/flink.log" || fail "the fake Flink REST API did not start in 5 s"
  ini_set rest.url "http://127.0.0.1:$(cat "$WORK/flink.port")"
  run -5 offsets export --config "$INI" --out "$WORK/export.json" --stable-wait 1
  kill "$flink_pid" 2>/dev/null || true
  wait "$flink_pid" 2>/dev/null || true
  assert_summary export 5 '[0-9]+' 1
  assert_output "$E export: info: Connect 4.1.0 on Kafka cluster fake-cluster
$E export: error: Flink REST GET /jobs/0123456789abcdef0123456789abcdef: response body larger than 1048576 bytes"
  [ ! -e "$WORK/export.json" ]
}
