#!/usr/bin/env bash
# bench/limits: the figures behind mm2-offsets' caps (lib/mm2_limits.h; LIMITS in
# docs/mm2-offsets.1), measured in one run on this machine, without Kafka:
#   - a real-shaped export of TOPICS x PARTITIONS partitions (default 200 x 250 = 50,000; topic
#     names of 35 characters, 10-digit offsets), sealed by the project's own writer; the plan
#     `mm2-offsets plan` makes of it; and Connect's offsets answer for that plan: bytes and JSON
#     values of each;
#   - the peak RSS of `plan` (reads the export, writes the plan) and of `verify` (reads the plan
#     and the offsets answer, served by tests/fakes/fake_connect.py), each under the offset Job's
#     memory limit (ulimit -v 256 MiB), beside the baseline of just parsing the same export
#     (python3 json.load);
#   - the same at the caps: the largest export of that shape that the caps let through.
#   bench/limits/run.sh [TOPICS [PARTITIONS]]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
b=${MM2_BUILD:-$root/build}
topics=${1:-200}
parts=${2:-250}
job_kib=$((256 * 1024))
# The caps, from the header that sets them.
cap() { sed -nE "s/^#define $1 \(?([0-9L *]+)\)?\$/\1/p" "$root/lib/mm2_limits.h" | tr -d 'L'; }
cap_bytes=$(($(cap MM2_ARTIFACT_MAX)))
cap_values=$(($(cap MM2_JSON_VALUES_MAX)))
w=$(mktemp -d /tmp/mm2-bench-limits.XXXXXX)
fake=
cleanup() {
  [ -z "$fake" ] || kill "$fake" 2>/dev/null || true
  rm -rf "$w"
}
trap cleanup EXIT
log() { printf 'bench/limits: %s\n' "$*" >&2; }
for x in "$b/mm2-offsets" "$b/tests/seal-artifact"; do
  [ -x "$x" ] || { log "error: $x not built; run 'make all build/tests/seal-artifact'"; exit 3; }
done

values() { # FILE: the JSON values it holds (cJSON's nodes)
  python3 - "$1" <<'PY'
import json, sys
def n(x):
    if isinstance(x, dict):
        return 1 + sum(n(v) for v in x.values())
    if isinstance(x, list):
        return 1 + sum(n(v) for v in x)
    return 1
print(n(json.load(open(sys.argv[1]))))
PY
}
# limited RSS_FILE ARGS...: ARGS under ulimit -v 256 MiB, its peak RSS (KiB) into RSS_FILE.
limited() {
  local out=$1
  shift
  bash -c "ulimit -v $job_kib && exec /usr/bin/time -f %M -o '$out' \"\$@\"" limited "$@"
}
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1000000 }'; }

# measure SET TOPICS PARTS: every figure of one export, into R[SET.*].
declare -A R
measure() {
  local s=$1 t=$2 p=$3 d=$w/$1 digest
  mkdir -p "$d"
  cat >"$d/connector.json" <<'JSON'
{"name": "mirror-source", "config": {
  "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
  "source.cluster.alias": "src", "target.cluster.alias": "tgt", "topics": "prod\\.payments\\..*",
  "replication.policy.class": "org.apache.kafka.connect.mirror.IdentityReplicationPolicy",
  "emit.offset-syncs.enabled": "false",
  "sync.topic.configs.enabled": "false", "sync.topic.acls.enabled": "false",
  "source.consumer.auto.offset.reset": "earliest", "tasks.max": "4"}}
JSON
  digest=$(python3 - "$d/connector.json" <<'PY'
import hashlib, json, sys
d = json.load(open(sys.argv[1]))
c = dict(d["config"], name=d["name"])
print("sha256:" + hashlib.sha256(json.dumps(c, sort_keys=True, separators=(",", ":")).encode()).hexdigest())
PY
)
  python3 "$here/gen_export.py" "$d/export.json" "$t" "$p" "$digest"
  "$b/tests/seal-artifact" "$d/export.json" >/dev/null
  /usr/bin/time -f %M -o "$d/baseline.rss" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$d/export.json"
  rm -f "$d/port"
  timeout 600 python3 "$root/tests/fakes/fake_connect.py" offsets-stopped "$d/port" "$d" >"$d/fake.log" 2>&1 &
  fake=$!
  for _ in $(seq 100); do [ -s "$d/port" ] && break; sleep 0.05; done
  cat >"$d/migration.ini" <<INI
[source]
bootstrap.servers = 127.0.0.1:1
cluster.id = Zk3XcJ1pT9qkq2mYf0w8Bg
[target]
bootstrap.servers = 127.0.0.1:1
cluster.id = Qm7YdK2qU0rlr3nZg1x9Ch
[connect]
url = http://127.0.0.1:$(cat "$d/port")
[flink]
group.id = flink-copy
rest.url = http://127.0.0.1:1
job.id = 0123456789abcdef0123456789abcdef
[connector]
file = connector.json
INI
  (cd "$d" && limited "$d/plan.rss" "$b/mm2-offsets" plan --config migration.ini --export export.json --out plan.json -q >/dev/null)
  python3 - "$d/plan.json" "$d/offsets.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
o = [{"partition": {"cluster": "src", "topic": e["topic"], "partition": e["partition"]},
      "offset": {"offset": e["m"]}} for e in p["partitions"] if e["m"] is not None]
json.dump({"offsets": o}, open(sys.argv[2], "w"))
PY
  (cd "$d" && limited "$d/verify.rss" "$b/mm2-offsets" verify --config migration.ini --plan plan.json -q >/dev/null)
  kill "$fake" 2>/dev/null || true
  wait "$fake" 2>/dev/null || true
  fake=
  R[$s.n]=$((t * p))
  R[$s.export]=$(stat -c %s "$d/export.json")
  R[$s.export_v]=$(values "$d/export.json")
  R[$s.plan]=$(stat -c %s "$d/plan.json")
  R[$s.plan_v]=$(values "$d/plan.json")
  R[$s.offsets]=$(stat -c %s "$d/offsets.json")
  R[$s.offsets_v]=$(values "$d/offsets.json")
  R[$s.rss_plan]=$(tail -n 1 "$d/plan.rss")
  R[$s.rss_verify]=$(tail -n 1 "$d/verify.rss")
  R[$s.rss_base]=$(tail -n 1 "$d/baseline.rss")
}

log "an export of $topics x $parts partitions, its plan and Connect's offsets answer"
measure real "$topics" "$parts"
# The largest export of this shape within both caps, in whole topics.
per_b=$(((${R[real.export]} + ${R[real.n]} - 1) / ${R[real.n]}))
per_v=$(((${R[real.export_v]} + ${R[real.n]} - 1) / ${R[real.n]}))
n_cap=$((cap_bytes / per_b < cap_values / per_v ? cap_bytes / per_b : cap_values / per_v))
t_cap=$((n_cap / parts - 1))
log "the same shape at the caps: $t_cap x $parts partitions"
measure cap "$t_cap" "$parts"

row() { # LABEL VALUE VALUE
  printf '| %-34s | %18s | %22s |\n' "$1" "$2" "$3"
}
echo
echo "bench/limits: artifact sizes and peak memory, topic names of 35 characters, 10-digit offsets"
echo
row "" "${R[real.n]} partitions" "${R[cap.n]} (the caps' shape)"
echo "|------------------------------------|--------------------|------------------------|"
for k in export plan offsets; do
  row "$k: MB / JSON values" "$(mb "${R[real.$k]}") / ${R[real.${k}_v]}" "$(mb "${R[cap.$k]}") / ${R[cap.${k}_v]}"
done
row "peak RSS, plan (MiB)" "$(mib "${R[real.rss_plan]}")" "$(mib "${R[cap.rss_plan]}")"
row "peak RSS, verify (MiB)" "$(mib "${R[real.rss_verify]}")" "$(mib "${R[cap.rss_verify]}")"
row "baseline: python3 json.load (MiB)" "$(mib "${R[real.rss_base]}")" "$(mib "${R[cap.rss_base]}")"
echo
echo "caps: artifacts $cap_bytes bytes and $cap_values JSON values; every run above under ulimit -v $job_kib KiB (the Job's 256 MiB)"
echo "per partition: export $per_b bytes and $per_v values; the caps let through $n_cap partitions of this shape"
