#!/usr/bin/env bash
# bench/memory: time and peak RSS of the cutover's steps at 1,000, 10,000 and 50,000 partitions
# (250 a topic), this tree's beside main's ("before") in the same run, with the figures per
# partition side by side, so that growth worse than linear shows; against the offset Job's
# memory limit (k8s/base/job-offsets.yaml). No Kafka:
#   - export: bench/memory/export.c, export's reads, boundary read and artifact write on
#     librdkafka's mock cluster in a child process (export.c says what it does and why), built
#     against each tree's library;
#   - plan: `mm2-offsets plan` of a real-shaped export (bench/limits/gen_export.py: topic names
#     of 35 characters, 10-digit offsets, the boundary evidence), each tree's binary on the same
#     file;
#   - verify: `mm2-offsets verify` of that plan against tests/fakes/fake_connect.py serving the
#     plan's offsets;
#   - apply needs Kafka and Connect: bench/offsets measures it (up to 10,000 here).
# plan and verify run under the Job's memory limit as `ulimit -v` (as bench/limits does; a step
# that passes it shows as "failed"), their peak RSS /usr/bin/time's; export's harness runs
# without it (librdkafka's threads reserve far more address space than they touch) and reports
# its own peak RSS (ru_maxrss), to be read against the limit. The INI turns the trail off: it
# would need a Kafka cluster, and records what was already written.
#   BENCH_BASE=DIR bench/memory/run.sh [PARTITIONS...]      (default 1000 10000 50000)
# BENCH_BASE: a work tree of main with its build/ made (default /tmp/mem-base:
# `git worktree add --detach /tmp/mem-base main && make -C /tmp/mem-base all`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
base=${BENCH_BASE:-/tmp/mem-base}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 50000)
per_topic=250
# The Job's memory limit: the last "memory:" of its container (the request comes first).
limit_mib=$(sed -nE 's/^ *memory: *"?([0-9]+)Mi"?$/\1/p' "$root/k8s/base/job-offsets.yaml" | tail -n 1)
[ -n "$limit_mib" ] || limit_mib=256
log() { printf 'bench/memory: %s\n' "$*" >&2; }
for t in "$root" "$base"; do
  if [ ! -x "$t/build/mm2-offsets" ] || [ ! -f "$t/build/libmm2kit.a" ]; then
    log "error: $t/build is not built; run 'make -C $t all'"
    exit 3
  fi
done
make -C "$root" --no-print-directory build/tests/seal-artifact build/pkg/cflags >/dev/null
w=$(mktemp -d /tmp/mm2-bench-memory.XXXXXX)
fake=
cleanup() {
  [ -z "$fake" ] || kill "$fake" 2>/dev/null || true
  [ -n "${BENCH_KEEP:-}" ] || rm -rf "$w"
}
trap cleanup EXIT
[ -z "${BENCH_KEEP:-}" ] || log "keeping $w (BENCH_KEEP)"

# The export harness, against each tree's library (streamed where the tree has mm2_export_write).
flags_line=$(sed 's/-I/-isystem/g' "$root/build/pkg/cflags" "$root/build/pkg/libs" | tr '\n' ' ')
read -ra flags <<<"$flags_line"
for side in before after; do
  t=$([ $side = before ] && echo "$base" || echo "$root")
  def=(-DNONE)
  ! grep -q mm2_export_write "$t/lib/mm2_export.h" || def+=(-DSTREAMED)
  ! grep -q 'mm2_kafka_release(' "$t/lib/mm2_kafka.h" || def+=(-DRELEASE_ALL)
  ! grep -q 'mm2_kafka_arenas(' "$t/lib/mm2_kafka.h" || def+=(-DARENAS)
  cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror "${def[@]}" -I"$t/lib" -o "$w/export-$side" \
    "$here/export.c" "$t/build/libmm2kit.a" "${flags[@]}"
done

# limited OUT RC CMD...: CMD under the Job's limit; "WALL_MS RSS_KIB" into OUT when it exits
# RC, else "failed".
limited() {
  local out=$1 want=$2 rc=0
  shift 2
  bash -c "ulimit -v $((limit_mib * 1024)) && exec /usr/bin/time -f '%e %M' -o '$out.t' \"\$@\"" limited "$@" >"$out.log" 2>&1 || rc=$?
  if [ "$rc" = "$want" ]; then
    tail -n 1 "$out.t" | awk '{ printf "%d %d\n", $1 * 1000, $2 }' >"$out"
  else
    echo failed >"$out"
  fi
}

declare -A R
measure() { # N
  local n=$1 t=$(($1 / per_topic)) d=$w/$1 side digest
  mkdir -p "$d"
  for side in before after; do # export: the harness prints its own figures
    if "$w/export-$side" "$t" "$per_topic" 10000 "$d/x-$side.json" >"$d/export-$side.out" 2>"$d/export-$side.err"; then
      read -r _ r1 _ r2 _ r3 rss _ <"$d/export-$side.out"
      R[$n.export.$side]="$((r1 + r2 + r3)) $rss"
      log "$n partitions, export $side: $(cat "$d/export-$side.out") (partitions; ms and peak KiB after its reads, boundary read, write; CPU ms)"
    else
      R[$n.export.$side]=failed
    fi
  done
  # Both wrote: the same file, byte for byte (the same mock cluster's answers, the same "created").
  if [ -f "$d/x-before.json" ] && [ -f "$d/x-after.json" ] && ! cmp -s "$d/x-before.json" "$d/x-after.json"; then
    R[$n.export.same]=no
  fi
  gen_connector "$d/connector.json"
  digest=$(python3 - "$d/connector.json" <<'PY'
import hashlib, json, sys
d = json.load(open(sys.argv[1]))
c = dict(d["config"], name=d["name"])
print("sha256:" + hashlib.sha256(json.dumps(c, sort_keys=True, separators=(",", ":")).encode()).hexdigest())
PY
)
  python3 "$root/bench/limits/gen_export.py" "$d/export.json" "$t" "$per_topic" "$digest"
  "$root/build/tests/seal-artifact" "$d/export.json" >/dev/null
  rm -f "$d/port"
  timeout 900 python3 "$root/tests/fakes/fake_connect.py" offsets-stopped "$d/port" "$d" >"$d/fake.log" 2>&1 &
  fake=$!
  for _ in $(seq 100); do [ -s "$d/port" ] && break; sleep 0.05; done
  ini "$d"
  for side in before after; do
    t=$([ $side = before ] && echo "$base" || echo "$root")
    (cd "$d" && limited "$d/plan-$side" 0 "$t/build/mm2-offsets" plan --config migration.ini --export export.json --out "plan-$side.json" -q)
    R[$n.plan.$side]=$(cat "$d/plan-$side")
  done
  python3 - "$d/plan-after.json" "$d/offsets.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
o = [{"partition": {"cluster": "src", "topic": e["topic"], "partition": e["partition"]},
      "offset": {"offset": e["m"]}} for e in p["partitions"] if e["m"] is not None]
json.dump({"offsets": o}, open(sys.argv[2], "w"))
PY
  for side in before after; do
    t=$([ $side = before ] && echo "$base" || echo "$root")
    (cd "$d" && limited "$d/verify-$side" 0 "$t/build/mm2-offsets" verify --config migration.ini --plan plan-after.json -q)
    R[$n.verify.$side]=$(cat "$d/verify-$side")
  done
  kill "$fake" 2>/dev/null || true
  wait "$fake" 2>/dev/null || true
  fake=
  [ -n "${BENCH_KEEP:-}" ] || rm -f "$d"/*.json
}

gen_connector() {
  cat >"$1" <<'JSON'
{"name": "mirror-source", "config": {
  "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
  "source.cluster.alias": "src", "target.cluster.alias": "tgt", "topics": "prod\\.payments\\..*",
  "replication.policy.class": "org.apache.kafka.connect.mirror.IdentityReplicationPolicy",
  "emit.offset-syncs.enabled": "false",
  "sync.topic.configs.enabled": "false", "sync.topic.acls.enabled": "false",
  "source.consumer.auto.offset.reset": "earliest", "tasks.max": "4"}}
JSON
}

ini() {
  cat >"$1/migration.ini" <<INI
[source]
bootstrap.servers = 127.0.0.1:1
cluster.id = Zk3XcJ1pT9qkq2mYf0w8Bg
[target]
bootstrap.servers = 127.0.0.1:1
cluster.id = Qm7YdK2qU0rlr3nZg1x9Ch
[connect]
url = http://127.0.0.1:$(cat "$1/port")
[flink]
group.id = flink-copy
rest.url = http://127.0.0.1:1
job.id = 0123456789abcdef0123456789abcdef
[connector]
file = connector.json
[trail]
enabled = false
INI
}

for n in "${sizes[@]}"; do
  log "$n partitions: export, plan and verify, main's build and this one's"
  measure "$n"
done

# cell N STEP SIDE FIELD: ms (1) or MiB (2), or "failed".
cell() {
  local ms kib
  [ "${R[$1.$2.$3]}" != failed ] || { echo failed; return; }
  read -r ms kib <<<"${R[$1.$2.$3]}"
  if [ "$4" = 1 ]; then echo "$ms"; else awk -v k="$kib" 'BEGIN { printf "%.0f", k / 1024 }'; fi
}
# per N STEP SIDE FIELD: the figure per partition (us or KiB), for the growth to show.
per() {
  local ms kib
  [ "${R[$1.$2.$3]}" != failed ] || { echo -; return; }
  read -r ms kib <<<"${R[$1.$2.$3]}"
  if [ "$4" = 1 ]; then awk -v a="$ms" -v n="$1" 'BEGIN { printf "%.1f", a * 1000 / n }'
  else awk -v a="$kib" -v n="$1" 'BEGIN { printf "%.2f", a / n }'; fi
}
echo "bench/memory: peak RSS and wall time per step, main's build (before) beside this one (after);"
echo "each under the Job's $limit_mib MiB (ulimit -v); librdkafka $("$root/scripts/librdkafka.sh" --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| %-6s | %10s | %-6s | %9s | %9s | %12s | %12s |\n' step partitions build "wall ms" "peak MiB" "us / part." "KiB / part."
echo "|--------|------------|--------|-----------|-----------|--------------|--------------|"
for step in export plan verify; do
  for n in "${sizes[@]}"; do
    for side in before after; do
      printf '| %-6s | %10s | %-6s | %9s | %9s | %12s | %12s |\n' "$step" "$n" "$side" \
        "$(cell "$n" "$step" "$side" 1)" "$(cell "$n" "$step" "$side" 2)" \
        "$(per "$n" "$step" "$side" 1)" "$(per "$n" "$step" "$side" 2)"
    done
  done
done
echo
for n in "${sizes[@]}"; do
  [ "${R[$n.export.same]:-yes}" = yes ] || echo "warning: at $n partitions the two exports differ" >&2
done
echo "export: reads, boundary read (reads of 10,000 partitions) and write on the mock cluster (its broker in"
echo "a child process, not counted); plan and verify: gen_export.py's real-shaped export. apply: bench/offsets."
