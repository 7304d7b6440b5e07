# shellcheck shell=bash
# Variables here are used by the .bats files that load this one.
# shellcheck disable=SC2034
# mm2-offsets CLI tests: the built binary from a scrubbed environment (env -i),
# without Kafka: plan is offline and reads crafted, sealed exports; verify
# meets tests/fakes/fake_connect.py for the answers it compares and for the
# faults a real worker cannot show on demand; check's timing meets the two
# mock clusters of tests/cli/fake_kafka.c. Everything runs under timeout.
#
# Every test gets, in $WORK: connector.json (a good MirrorSourceConnector),
# migration.ini (naming it, a SASL password from ${env:MM2_SOURCE_PASSWORD},
# Kafka and Connect at a closed port) and the scrubbed environment ENV holding
# that password: the sentinel SECRET, which no output and no file may ever show.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

BUILD=${MM2_BUILD:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build}
OFF=$BUILD/mm2-offsets
SEAL=$BUILD/tests/seal-artifact
FAKE_CONNECT=$BATS_TEST_DIRNAME/../fakes/fake_connect.py
FAKE_KAFKA=$BUILD/tests/fake_kafka
E=mm2-offsets
# Longer than any "%.40s" a message may cut a value to; grep for its head.
SECRET='SENTINEL-9d4e-offsets-cli-never-print-this-value-0123456789'
SECRET_HEAD='SENTINEL-9d4e'
# The default export's cluster ids, and a digest that is nobody's.
SRC_ID=src-cluster-AAAAAAAAAAAAAAAAAAAAAA
TGT_ID=tgt-cluster-BBBBBBBBBBBBBBBBBBBBBB
BOGUS=sha256:0000000000000000000000000000000000000000000000000000000000000000

# try CMD: the hint after every usage error.
try() { printf "Try '%s %s --help'." "$E" "$1"; }

# A port on 127.0.0.1 with nothing listening: bound by the kernel, then closed.
closed_port() {
  timeout 10 python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# offsets ARGS...: mm2-offsets from the scrubbed environment ENV, in $WORK (or
# $RUN_DIR). Its stdout comes out before its stderr (run without
# --separate-stderr sees them in that order); both are also kept (all.out,
# all.err) for teardown's secret check.
offsets() {
  local rc=0
  (cd "${RUN_DIR:-$WORK}" && env -i "${ENV[@]}" timeout 20 "$OFF" "$@") >"$WORK/run.out" 2>"$WORK/run.err" || rc=$?
  cat "$WORK/run.out" >>"$WORK/all.out"
  cat "$WORK/run.err" >>"$WORK/all.err"
  cat "$WORK/run.out"
  cat "$WORK/run.err" >&2
  return "$rc"
}

# The offset Job's memory limit (k8s/base/offsets), in KiB.
JOB_MEMORY_KIB=$((256 * 1024))

# job_limited ARGS...: offsets ARGS under the offset Job's memory limit: ulimit -v in
# the plain build; in the ASan build, which reserves terabytes of address space at
# start, the sanitizer's own hard_rss_limit_mb (a watchdog that kills above it).
job_limited() {
  if [[ $BUILD == */san ]]; then
    local ENV=("${ENV[@]}" "ASAN_OPTIONS=hard_rss_limit_mb=$((JOB_MEMORY_KIB / 1024))")
    offsets "$@"
  else
    (ulimit -v "$JOB_MEMORY_KIB" && offsets "$@")
  fi
}

# offsets_bg TAG ARGS...: mm2-offsets ARGS in the background, as offsets runs it; stderr goes
# to $WORK/TAG.err, then its end time (date +%s%N) to TAG.end and its exit code to TAG.rc.
offsets_bg() {
  local tag=$1
  shift
  (
    rc=0
    cd "${RUN_DIR:-$WORK}" && env -i "${ENV[@]}" timeout 20 "$OFF" "$@" >/dev/null 2>"$WORK/$tag.err" || rc=$?
    date +%s%N >"$WORK/$tag.end"
    echo "$rc" >"$WORK/$tag.rc"
  ) &
}

# timed ARGS...: `run ARGS...`, and MS = its wall time in ms.
timed() {
  local t0 t1
  t0=$(date +%s%N)
  run "$@"
  t1=$(date +%s%N)
  MS=$(((t1 - t0) / 1000000))
}

# with_env NAME=value...: adds to the scrubbed environment of this test.
with_env() { ENV+=("$@"); }

# write_connector FILE: the good connector JSON, the one migration.ini names being
# $WORK/connector.json.
write_connector() {
  cat >"$1" <<'JSON'
{
  "name": "mirror-source",
  "config": {
    "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
    "source.cluster.alias": "src",
    "target.cluster.alias": "tgt",
    "topics": "orders,payments",
    "replication.policy.class": "org.apache.kafka.connect.mirror.IdentityReplicationPolicy",
    "emit.offset-syncs.enabled": "false",
    "sync.topic.configs.enabled": "false",
    "sync.topic.acls.enabled": "false",
    "source.consumer.auto.offset.reset": "earliest",
    "source.cluster.bootstrap.servers": "source-kafka:9092",
    "target.cluster.bootstrap.servers": "target-kafka:9092",
    "tasks.max": "4"
  }
}
JSON
}

# write_ini: the good INI file, Kafka and Connect at the closed port $PORT, the
# cluster ids pinned (so plan, verify and the binding checks need no Kafka).
write_ini() {
  cat >"$INI" <<INI
; the migration of the Flink copy job flink-copy
[source]
bootstrap.servers = 127.0.0.1:$PORT
security.protocol = SASL_PLAINTEXT
sasl.mechanism = PLAIN
sasl.username = flink
sasl.password = \${env:MM2_SOURCE_PASSWORD}
cluster.id = $SRC_ID

[target]
bootstrap.servers = 127.0.0.1:$PORT
cluster.id = $TGT_ID

[connect]
url = http://127.0.0.1:$PORT
request.timeout.seconds = 5
retry.budget.seconds = 5
# Refused connections fail at once here; the wait has tests of its own.
connect.wait.seconds = 0

[flink]
group.id = flink-copy
rest.url = http://127.0.0.1:$PORT
job.id = 0123456789abcdef0123456789abcdef

[connector]
file = connector.json

[trail]
# The fake Kafka of these tests takes no writes: the trail has tests of its own.
enabled = false
INI
}

# ini_add SECTION LINE...: appends the lines under a repeated [SECTION] header
# (inih reads a section given twice as one).
ini_add() {
  local s=$1
  shift
  printf '\n[%s]\n' "$s" >>"$INI"
  printf '%s\n' "$@" >>"$INI"
}

# ini_drop KEY: removes the line(s) setting KEY.
ini_drop() {
  local k=${1//./\\.}
  sed -i "/^$k *=/d" "$INI"
}

# ini_set KEY VALUE: replaces the value of KEY (every section that has it).
ini_set() {
  local k=${1//./\\.} v=${2//&/\\&}
  sed -i "s|^$k *=.*|$1 = ${v//|/\\|}|" "$INI"
}

# config_digest: the digest mm2-offsets gives the config of $WORK/connector.json:
# SHA-256 of the compact JSON of the config with "name" set, keys sorted.
config_digest() {
  timeout 10 python3 - "$WORK/connector.json" <<'PY'
import hashlib, json, sys
d = json.load(open(sys.argv[1]))
c = dict(d["config"])
c["name"] = d["name"]
text = json.dumps(c, sort_keys=True, separators=(",", ":"))
print("sha256:" + hashlib.sha256(text.encode()).hexdigest())
PY
}

# make_export FILE [PYTHON]...: writes and seals an export as mm2-offsets export
# would (lib/mm2_export.c, mm2_export_to_json). Default: source topics orders
# (3 partitions) and payments (1) replicated, audit (2) not; Flink FINISHED
# (flink-rest); reads stable; target topics as large, quiet. Per partition
# (C, log start, log end): orders-0 (100, 0, 200), orders-1 (0, 0, 0),
# orders-2 (50, 10, 60), payments-0 (7, 7, 9), each target aligned with its C (boundary
# "aligned", "empty" at C = 0; part_entry). Each PYTHON statement then edits
# the dict x; part(TOPIC, P) and topic(NAME) return its entries. Prints the
# export's digest.
make_export() {
  local file=$1
  shift
  timeout 10 python3 - "$file" "$(config_digest)" "$SRC_ID" "$TGT_ID" "$@" <<'PY' || return 1
import json, sys
file, cdigest, src, tgt = sys.argv[1:5]
def pair(v):
    return [v, v]
def topic_entry(name, n, target_n=None):
    if target_n is False:
        return {"name": name, "partitions": n, "replicated": False}
    return {"name": name, "partitions": n, "replicated": True, "target": name,
            "target_partitions": n if target_n is None else target_n, "flink_target": name}
def aligned(c, hw):
    """Flink's side of the boundary as export finds a faithful copy: the target's last record
    is the source's last before C (empty: C = 0 and nothing copied). None (no proof) for an
    empty target while C > 0."""
    if c > 0 and hw == 0:
        return None
    if c == 0:
        return {"class": "empty", "k": 0, "tail_records": 0, "matches": 0, "tail_first": None,
                "tail_last": None, "source_first": None, "source_last": None, "resume_at": None,
                "window_first": None, "window_last": None, "mismatch_target": None,
                "mismatch_target_digest": "", "mismatch_source": None,
                "mismatch_source_digest": "", "why": "C is 0 and the target partition is empty"}
    return {"class": "aligned", "k": 0, "tail_records": 1, "matches": 1, "tail_first": hw - 1,
            "tail_last": hw - 1, "source_first": c - 1, "source_last": c - 1, "resume_at": c,
            "window_first": c - 1, "window_last": c - 1, "mismatch_target": None,
            "mismatch_target_digest": "", "mismatch_source": None, "mismatch_source_digest": "",
            "why": ""}
def part_entry(t, p, c, start, end, hw):
    e = {"topic": t, "partition": p, "committed": pair(c), "log_start": pair(start),
            "log_end": pair(end), "target_hw": pair(hw), "target_lso": pair(hw)}
    b = aligned(c, hw)
    if b is not None:
        e["boundary"] = b
    return e
x = {
    "kind": "mm2kit.export/v1",
    "tool": "mm2-offsets test",
    "created": "2026-01-02T03:04:05Z",
    "source_cluster_id": src,
    "target_cluster_id": tgt,
    "connect": {"version": "4.1.0", "kafka_cluster_id": tgt},
    "connector": {"name": "mirror-source", "source_alias": "src", "config_digest": cdigest},
    "flink": {"group_id": "flink-copy", "group_state": "Empty", "group_members": 0,
              "stopped_by": "flink-rest", "job_state": "FINISHED",
              "checkpoint_interval_ms": 0},
    "stable_wait_ms": 30000,
    "topics": [topic_entry("audit", 2, False), topic_entry("orders", 3),
               topic_entry("payments", 1)],
    "partitions": [part_entry("orders", 0, 100, 0, 200, 5000),
                   part_entry("orders", 1, 0, 0, 0, 0),
                   part_entry("orders", 2, 50, 10, 60, 4000),
                   part_entry("payments", 0, 7, 7, 9, 70)],
}
def part(t, p):
    return next(e for e in x["partitions"] if e["topic"] == t and e["partition"] == p)
def topic(name):
    return next(e for e in x["topics"] if e["name"] == name)
for stmt in sys.argv[5:]:
    exec(stmt)
with open(file, "w") as f:
    json.dump(x, f, indent=2)
PY
  timeout 10 "$SEAL" "$file"
}

# json_get FILE EXPR: prints the Python expression EXPR over the JSON file's
# content d (json.dumps for anything that is not a string).
json_get() {
  timeout 10 python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(v if isinstance(v, str) else json.dumps(v))
PY
}

# json_edit FILE PYTHON: runs the statement over the JSON file's content d,
# writes it back (without resealing: the digest no longer matches).
json_edit() {
  timeout 10 python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
with open(sys.argv[1], "w") as f:
    json.dump(d, f, indent=2)
PY
}

# make_plan [FILE]: the plan of the default export, through mm2-offsets plan.
make_plan() {
  make_export "$WORK/export.json" >/dev/null
  offsets plan --config "$INI" --export "$WORK/export.json" --out "${1:-$WORK/plan.json}" -q >/dev/null
}

# await_file FILE SECONDS LOG: waits until a fake has written FILE; on time out,
# shows the fake's LOG and fails.
await_file() {
  local i
  for i in $(seq $(($2 * 20))); do
    [ -s "$1" ] && return 0
    sleep 0.05
  done
  cat "$3" >&2
  return 1
}

# start_fake MODE: starts fake_connect.py in MODE for the connector JSON of
# $WORK, the offsets answer $WORK/offsets.json, and points [connect] url at it.
# The server's fds 1-3 go to a log: bats waits for any process holding them.
start_fake() {
  rm -f "$WORK/port"
  timeout 60 python3 "$FAKE_CONNECT" "$1" "$WORK/port" "$WORK" >"$WORK/fake.log" 2>&1 3>&- &
  FAKE_PID=$!
  await_file "$WORK/port" 5 "$WORK/fake.log" || fail "fake_connect $1 did not start in 5 s"
  URL="http://127.0.0.1:$(cat "$WORK/port")"
  ini_set url "$URL"
}

stop_fake() {
  if [ -n "${FAKE_PID:-}" ]; then
    kill "$FAKE_PID" 2>/dev/null || true
    wait "$FAKE_PID" 2>/dev/null || true
    FAKE_PID=
  fi
}

# start_kafka SIDE:TOPIC:N0[,N1...]...: the two clusters, partition p of TOPIC holding
# Np records (the same records on both sides at the same offset), and [source] and
# [target] of the INI pointed at them (without SASL: the mock clusters take none).
start_kafka() {
  rm -f "$WORK/kafka"
  timeout 120 "$FAKE_KAFKA" "$WORK/kafka" "$@" >"$WORK/kafka.log" 2>&1 3>&- &
  KAFKA_PID=$!
  await_file "$WORK/kafka" 10 "$WORK/kafka.log" || fail "fake_kafka did not start in 10 s"
  sed -i -e '/^security.protocol\|^sasl\./d' \
    -e "/^\[source\]/,/^\[target\]/ s|^bootstrap.servers = .*|bootstrap.servers = $(sed -n 's/^source=//p' "$WORK/kafka")|" \
    -e "/^\[target\]/,/^\[connect\]/ s|^bootstrap.servers = .*|bootstrap.servers = $(sed -n 's/^target=//p' "$WORK/kafka")|" \
    "$INI"
}

stop_kafka() {
  if [ -n "${KAFKA_PID:-}" ]; then
    kill "$KAFKA_PID" 2>/dev/null || true
    wait "$KAFKA_PID" 2>/dev/null || true
    KAFKA_PID=
  fi
}

# offsets_answer JSON: the body fake_connect serves for GET .../offsets.
offsets_answer() { printf '%s\n' "$1" >"$WORK/offsets.json"; }

# The offsets of the default plan, as Connect returns them (nulls are absent).
planned_offsets() {
  offsets_answer '{"offsets": [
  {"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 99}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 2}, "offset": {"offset": 49}},
  {"partition": {"cluster": "src", "topic": "payments", "partition": 0}, "offset": {"offset": 6}}]}'
}

setup() {
  WORK=$(mktemp -d /tmp/mm2-offsets-cli.XXXXXX)
  INI=$WORK/migration.ini
  ENV=("PATH=/usr/bin:/bin" "MM2_SOURCE_PASSWORD=$SECRET")
  FAKE_PID=
  KAFKA_PID=
  RUN_DIR=
  URL=
  PORT=$(closed_port)
  : >"$WORK/all.out"
  : >"$WORK/all.err"
  write_connector "$WORK/connector.json"
  write_ini
}

teardown() {
  stop_fake
  stop_kafka
  # The secret never reaches an output or a file, not even its head.
  if grep -rqsF "$SECRET_HEAD" "$WORK"; then
    grep -rlsF "$SECRET_HEAD" "$WORK" >&2
    echo "the secret (or its head) was printed or written under $WORK" >&2
    rm -rf "$WORK"
    return 1
  fi
  rm -rf "$WORK"
}

# plan_with ARGS...: plan of $WORK/export.json into $WORK/plan.json.
plan_with() {
  offsets plan --config "$INI" --export "$WORK/export.json" --out "$WORK/plan.json" "$@"
}

# assert_refused LINE...: the run's whole output is these refusals of plan,
# its closing count and the closing line of an offline run (no request), and no
# plan was written.
assert_refused() {
  local out="" l
  assert_summary plan 1 0 0
  for l in "$@"; do out+="$E plan: error: refused: $l"$'\n'; done
  if [ $# -eq 1 ]; then
    out+="$E plan: error: 1 refusal; no plan written"
  else
    out+="$E plan: error: $# refusals; no plan written"
  fi
  assert_output "$out"
  [ ! -e "$WORK/plan.json" ] || fail "plan.json was written although plan refused"
}

# summary_re CMD RC KAFKA REST: the regexp of the line every command that loaded
# its INI file ends with on stderr (jobs/job.c job_summary, info level: -q
# hides it). KAFKA and REST are the request counts, exact (singular for 1), or a
# regexp such as '[0-9]+' where they vary; the wall time always varies; nothing
# these tests run waits on purpose (only export's --stable-wait does).
summary_re() {
  local k=$3 r=$4 ks=s rs=s
  [[ $k =~ ^[0-9]+$ ]] || ks='s?'
  [[ $r =~ ^[0-9]+$ ]] || rs='s?'
  [ "$k" != 1 ] || ks=
  [ "$r" != 1 ] || rs=
  printf '^%s %s: info: finished with exit code %s in [0-9]+ ms \(0 ms of it waiting on purpose\): %s Kafka request%s, %s REST request%s$' \
    "$E" "$1" "$2" "$k" "$ks" "$r" "$rs"
}

# assert_summary [--stderr] CMD RC KAFKA REST: the run's last line (of $output,
# or of $stderr after run --separate-stderr) is the closing line (summary_re);
# it is then dropped from output and lines (stderr and stderr_lines), so that
# what came before it can be asserted exactly, and no second one is left.
assert_summary() {
  local var=output text last re
  if [ "$1" = --stderr ]; then
    var=stderr
    shift
  fi
  re=$(summary_re "$@")
  text=${!var}
  last=${text##*$'\n'}
  [[ $last =~ $re ]] || fail "the last line of $var should match $re, got: $last"
  if [[ $text == *$'\n'* ]]; then text=${text%$'\n'*}; else text=; fi
  [[ $text != *"info: finished with exit code"* ]] || fail "more than one closing line in $var"
  if [ "$var" = stderr ]; then
    stderr=$text
    IFS=$'\n' read -d '' -r -a stderr_lines <<<"$text" || true
  else
    output=$text
    IFS=$'\n' read -d '' -r -a lines <<<"$text" || true
  fi
}

# assert_near_ms MS LOW HIGH: LOW <= MS <= HIGH.
assert_near_ms() {
  if [ "$1" -lt "$2" ] || [ "$1" -gt "$3" ]; then
    fail "took $1 ms, expected $2 to $3 ms"
  fi
}
