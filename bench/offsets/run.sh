#!/usr/bin/env bash
# bench/offsets: the machine part of the cutover for TOPICS x PARTITIONS partitions (default
# 40 x 250 = 10,000) on a bed of its own, measured in one run:
#   mm2-offsets export, plan, apply and verify, each in a container of the image as the Job runs
#   it: its wall time (as the tool reports it, export's --stable-wait left out) and its Kafka and
#   REST requests, for all the partitions and for one topic of them (the counts must not grow);
#   beside the usual way: kafka-consumer-groups.sh --describe, parsed by a script into C - 1,
#   then curl: POST the connector STOPPED, one PATCH, GET the offsets back until all are listed.
#   Connect's own floor is that last part (create STOPPED + wait + PATCH + GET back), measured
#   twice on connectors of other names, right before mm2-offsets' run and right after it, once
#   the same calls have warmed the workers up (their JIT makes the first large PATCH and GET of
#   a run slower, whoever sends them):
#   mm2-offsets' machine part is printed as a multiple of their mean, also with export counted
#   as its whole time less its --stable-wait. Each mm2-offsets command's peak RSS is measured in its
#   container (the host's /usr/bin/time, mounted read-only) against the Job's memory limit.
#   bench/offsets/run.sh [TOPICS [PARTITIONS [RECORDS_PER_PARTITION]]]
# BENCH_ONE=0 leaves out the run on one topic (the request counts' comparison), to save time;
# BENCH_NOTAIL=0 leaves out the two exports of all partitions without the boundary read (one right
# before the run on all partitions, one right after).
# BENCH_BASE_IMAGE=IMAGE2 also runs export with the boundary read from IMAGE2 (the baseline, e.g.
# an image of main) on the same bed: once right before the run on all partitions and once after
# it, each followed by one more export from IMAGE, so that both are measured twice, interleaved;
# then once more each within the Job's CPU limit (podman --cpus, from k8s/base/job-offsets.yaml):
# the other runs have no CPU limit, so the 2 cores hide CPU time the Job would wait for.
# BENCH_STABLE_WAIT=SECONDS: export's --stable-wait (default 1); export reads the boundary during
# it, so its whole time (the wait included) with and without the read is printed too.
# Needs the image (make image). Leaves nothing behind unless MM2KIT_KEEP_BED is set.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export BED_NAME=${BED_NAME:-mm2kit-bo} BED_OCTET=${BED_OCTET:-17}
export BED_DIR=${BED_DIR:-$root/build/bench-offsets}
# shellcheck source=tests/bed/bed.env
. "$root/tests/bed/bed.env"
topics=${1:-40}
parts=${2:-250}
recs=${3:-4}
wait_s=${BENCH_STABLE_WAIT:-1}
total=$((topics * parts))
py=${MM2KIT_CACHE:-/var/cache/mm2kit}/venv/bin/python3
log() { printf 'bench/offsets: %s %s\n' "$(date -u +%T)" "$*" >&2; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; } # A B: A / B

podman image exists "$IMAGE" || { log "error: image $IMAGE not found; run 'make image'"; exit 3; }
cleanup() { [ -n "${MM2KIT_KEEP_BED:-}" ] || timeout 300 "$root/tests/bed/bed.sh" down >/dev/null 2>&1 || true; }
trap cleanup EXIT
# A container here may open 20,000 files (containers.conf), and a broker keeps each partition's
# active segment open: beyond 15,000 partitions a cluster gets a broker per 15,000.
if [ "$total" -gt 15000 ] && [ "$BED_BROKERS" = 1 ]; then
  export BED_BROKERS=$(((total + 14999) / 15000))
fi
mkdir -p "$(dirname "$BED_DIR")"
log "starting a bed of its own ($BED_NAME, 198.18.$BED_OCTET.0/24)"
timeout 400 "$root/tests/bed/bed.sh" up 3 >"$BED_DIR.up.log" 2>&1 || { cat "$BED_DIR.up.log" >&2; exit 4; }
log "seeding $topics topics x $parts partitions on both clusters, $recs records each, C = $((recs / 2))"
secs=$(BEDKIT_SASL_USERNAME=$BED_ADMIN_USER BEDKIT_SASL_PASSWORD=$BED_ADMIN_PASSWORD \
  timeout 900 "$py" "$here/seed.py" "$BED_SRC_BOOTSTRAP" "$BED_TGT_BOOTSTRAP" bo-flink "$topics" "$parts" "$recs")
log "seeded in $secs s"
# mm2-offsets runs as the connector's logins: their rows of docs/acls.md for these topics and group.
timeout 600 "$root/tests/bed/bed.sh" kit grant --name "flink group=bo-flink" \
  --name "replicated topic=$(seq -s, -f 'bo.t%02g' 0 $((topics - 1)))" >/dev/null

w=$BED_DIR/work
rm -rf "$w"
mkdir -p "$w"
chmod 0777 "$w"
url=http://$(bed_worker_ip 1):8088
connector() { # NAME TOPICS
  jq -n --arg n "$1" --arg t "$2" --arg s "$BED_SRC_BOOTSTRAP" --arg d "$BED_TGT_BOOTSTRAP" '{name: $n, config: {
    "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector", "tasks.max": "3",
    "source.cluster.alias": "source", "target.cluster.alias": "target",
    "source.cluster.bootstrap.servers": $s, "target.cluster.bootstrap.servers": $d,
    "source.cluster.security.protocol": "SASL_PLAINTEXT", "source.cluster.sasl.mechanism": "PLAIN",
    "source.cluster.sasl.jaas.config": "${env:MM2_SOURCE_SASL_JAAS_CONFIG}",
    "target.cluster.security.protocol": "SASL_PLAINTEXT", "target.cluster.sasl.mechanism": "PLAIN",
    "target.cluster.sasl.jaas.config": "${env:MM2_TARGET_SASL_JAAS_CONFIG}",
    topics: $t, "replication.policy.class": "org.apache.kafka.connect.mirror.IdentityReplicationPolicy",
    "emit.offset-syncs.enabled": "false",
    "sync.topic.configs.enabled": "false", "sync.topic.acls.enabled": "false",
    "source.consumer.auto.offset.reset": "earliest",
    "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"}}'
}
ini() { # CONNECTOR_FILE
  cat <<INI
[source]
bootstrap.servers = $BED_SRC_BOOTSTRAP
security.protocol = SASL_PLAINTEXT
sasl.mechanisms = PLAIN
sasl.username = \${env:MM2_SOURCE_SASL_USERNAME}
sasl.password = \${env:MM2_SOURCE_SASL_PASSWORD}
[target]
bootstrap.servers = $BED_TGT_BOOTSTRAP
security.protocol = SASL_PLAINTEXT
sasl.mechanisms = PLAIN
sasl.username = \${env:MM2_TARGET_SASL_USERNAME}
sasl.password = \${env:MM2_TARGET_SASL_PASSWORD}
[connect]
url = $url
username = $BED_REST_USER
password = \${env:MM2_REST_PASSWORD}
[flink]
group.id = bo-flink
checkpoint.interval.seconds = 0.5
[connector]
file = $1
INI
}
connector bo 'bo\.t.*' >"$w/all.json"
connector bo-one 'bo\.t00' >"$w/one.json"
ini all.json >"$w/all.ini"
ini one.json >"$w/one.ini"
chmod 0644 "$w"/*

[ -x /usr/bin/time ] || { log "error: /usr/bin/time not found (apt-get install time)"; exit 3; }
# The Job's memory limit, from the manifest.
job_limit=$(sed -nE '/limits:/,/memory:/s/^ *memory: *([0-9]+)Mi$/\1/p' "$root/k8s/base/job-offsets.yaml" | head -1)
job_cpus=$(sed -nE '/limits:/,/memory:/s/^ *cpu: *"?([0-9.]+)"?$/\1/p' "$root/k8s/base/job-offsets.yaml" | head -1)
oj() { # ARGS...: mm2-offsets in a container, as the Job runs it; stderr to $w/last.err, peak RSS
  # (KiB), CPU time (user and system, s) and the process's wall time from exec to exit (s, its
  # clients' teardown included) to $w/last.rss
  rm -f "$w/last.rss"
  timeout 600 podman run --rm --network "$BED_NET" --user 10001:10001 --read-only \
    --tmpfs /tmp:rw,size=256m,mode=1777 --cap-drop ALL --security-opt no-new-privileges \
    --memory 512m ${OJ_CPUS:+--cpus "$OJ_CPUS"} -v "$w:/work:rw" -w /work -v /usr/bin/time:/bench-time:ro \
    -e "MM2_SOURCE_SASL_USERNAME=$BED_SOURCE_USER" -e "MM2_SOURCE_SASL_PASSWORD=$BED_SOURCE_PASSWORD" \
    -e "MM2_TARGET_SASL_USERNAME=$BED_TARGET_USER" -e "MM2_TARGET_SASL_PASSWORD=$BED_TARGET_PASSWORD" \
    -e "MM2_REST_PASSWORD=$BED_REST_PASSWORD" \
    --entrypoint /bench-time "${OJ_IMAGE:-$IMAGE}" -f '%M %U %S %e' -o /work/last.rss mm2-offsets "$@" 2>"$w/last.err"
}
# "MS KAFKA REST" from the tool's closing line: its wall time minus the time it waited on purpose.
figures() {
  sed -nE 's/.*finished with exit code 0 in ([0-9]+) ms \(([0-9]+) ms of it waiting on purpose\): ([0-9]+) Kafka requests?, ([0-9]+) REST requests?/\1 \2 \3 \4/p' "$w/last.err" |
    awk '{ print $1 - $2, $3, $4 }'
}
# The tool's whole wall time, its wait included (ms).
whole() {
  sed -nE 's/.*finished with exit code 0 in ([0-9]+) ms .*/\1/p' "$w/last.err"
}
tail_figures() {
  sed -nE 's/.*boundary: .* \(([0-9]+) records, ([0-9]+) requests, ([0-9]+) ms\)$/\3 \2 \1/p' "$w/last.err"
}
declare -A R RSS CPU EL W
# took KEY: the last command's figures under KEY: R (figures), W (whole), and from its
# container's /usr/bin/time, peak RSS (MiB), CPU and exec-to-exit wall time (ms).
took() {
  local kib usr sys el
  R[$1]=$(figures)
  W[$1]=$(whole)
  read -r kib usr sys el < <(tail -n 1 "$w/last.rss")
  RSS[$1]=$((kib / 1024))
  CPU[$1]=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
  EL[$1]=$(awk -v e="$el" 'BEGIN { printf "%d", e * 1000 }')
}
# export of all partitions with the boundary read, alone: LABEL [IMAGE [CPUS]] (the baseline's
# image, or this run's; a CPU limit)
export_only() {
  if ! OJ_IMAGE=${2:-} OJ_CPUS=${3:-} oj export -v --config all.ini --out "x-$1-export.json" --stable-wait "$wait_s" >/dev/null; then
    cat "$w/last.err" >&2
    [ -n "${3:-}" ] || exit 1
    log "export $1 within --cpus $3 failed: left out"
    R[x.$1]="- - -" R[x.$1.tail]="- - -" RSS[x.$1]=- CPU[x.$1]=- EL[x.$1]=-
    return 0
  fi
  cp "$w/last.err" "$w/x-$1-export.err"
  took "x.$1"
  R[x.$1.tail]=$(tail_figures)
}
run_set() { # SET: all or one
  local s=$1 step
  for step in export plan apply verify; do
    case $step in
      export) oj export -v --config "$s.ini" --out "$s-export.json" --stable-wait "$wait_s" >/dev/null ;;
      plan) oj plan -v --config "$s.ini" --export "$s-export.json" --out "$s-plan.json" >/dev/null ;;
      apply) oj apply -v --config "$s.ini" --plan "$s-plan.json" --backup "$s-backup.json" >/dev/null ;;
      verify) oj verify -v --config "$s.ini" --plan "$s-plan.json" >/dev/null ;;
    esac || { cat "$w/last.err" >&2; exit 1; }
    cp "$w/last.err" "$w/$s-$step.err"
    took "$s.$step"
    # export's boundary read (the targets' tails and the sources around C), from its own line:
    # "MS REQUESTS RECORDS".
    [ "$step" != export ] || R[$s.tail]=$(tail_figures)
  done
}
# kafka-consumer-groups.sh --describe of the Flink group, in a container of the image (its JVM's
# start included): stdout
cat >"$w/client.properties" <<PROPS
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=$BED_SOURCE_JAAS
PROPS
chmod 0644 "$w/client.properties"
describe_now() {
  timeout 600 podman run --rm --network "$BED_NET" --user 10001:10001 --read-only --tmpfs /tmp:rw,size=256m \
    -v "$w:/work:ro" -e KAFKA_HEAP_OPTS=-Xmx512m --entrypoint kafka-consumer-groups.sh "$IMAGE" \
    --bootstrap-server "$BED_SRC_BOOTSTRAP" --command-config /work/client.properties \
    --describe --group bo-flink 2>"$w/describe.err" || { cat "$w/describe.err" >&2; exit 1; }
}
# The usual script: C from kafka-consumer-groups.sh's CURRENT-OFFSET column, M = C - 1, null for
# C = 0. DESCRIBE_FILE > PATCH body
script_patch() {
  "$py" - "$1" <<'PY'
import json, sys
rows = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 5 or f[0] == "GROUP" or not f[2].isdigit():
        continue
    c = f[3]
    off = None if c in ("-", "0") else {"offset": int(c) - 1}
    rows.append({"partition": {"cluster": "source", "topic": f[1], "partition": int(f[2])}, "offset": off})
json.dump({"offsets": rows}, sys.stdout)
PY
}
# Connect's own floor: create the connector STOPPED and wait for it, one PATCH, GET the offsets
# back until every partition PATCHed is listed. Polled every 50 ms, as tightly as mm2-offsets
# polls: right after a PATCH a worker may answer 500 or list only the partitions its offsets
# topic consumer has read so far, and a GET that lists fewer is not "back". NAME PATCH_FILE KEY:
# FLOOR[KEY] = "CREATE PATCH GET" (ms).
declare -A FLOOR
floor_run() {
  local name=$1 body=$2 key=$3 a b c d got want
  jq --arg n "$name" '{name: $n, config: (.config + {name: $n}), initial_state: "STOPPED"}' "$w/all.json" >"$w/$name-create.json"
  want=$(jq '[.offsets[] | select(.offset != null)] | length' "$body")
  a=$(now_ms)
  curl -fsS -o /dev/null -m 100 -X POST -H 'Content-Type: application/json' --data @"$w/$name-create.json" "$url/connectors"
  for _ in $(seq 2000); do
    curl -s -m 10 "$url/connectors/$name/status" | jq -e '.connector.state == "STOPPED" and (.tasks | length) == 0' >/dev/null 2>&1 && break
    sleep 0.05
  done
  b=$(now_ms)
  curl -fsS -o /dev/null -m 100 -X PATCH -H 'Content-Type: application/json' --data @"$body" "$url/connectors/$name/offsets"
  c=$(now_ms)
  got=0
  for _ in $(seq 2000); do
    got=$(curl -fsS -m 100 "$url/connectors/$name/offsets" 2>/dev/null | jq '.offsets | length' 2>/dev/null) || got=0
    [ "$got" != "$want" ] || break
    sleep 0.05
  done
  d=$(now_ms)
  [ "$got" = "$want" ] || log "the floor's GET ($name) listed $got offsets of $want after 100 s"
  FLOOR[$key]="$((b - a)) $((c - b)) $((d - c))"
}
log "mm2-offsets on $parts partitions (one topic), then on $total"
if [ "${BENCH_ONE:-1}" = 1 ]; then
  run_set one
else
  for s in export plan apply verify; do R[one.$s]="- - -"; done
fi
# export without the boundary read ([flink] tail.records = 0) on the same bed in the same run,
# right before and right after the run on all partitions: what issue 16 measures the read
# against (export with it at most 1.5x export without it).
notail() { # LABEL [CPUS]
  OJ_CPUS=${2:-} oj export -v --config notail.ini --out notail-export.json --stable-wait "$wait_s" >/dev/null || { cat "$w/last.err" >&2; exit 1; }
  cp "$w/last.err" "$w/notail-$1-export.err"
  took "notail.$1"
}
if [ "${BENCH_NOTAIL:-1}" = 1 ]; then
  sed 's/^\[flink\]$/[flink]\ntail.records = 0/' "$w/all.ini" >"$w/notail.ini"
  chmod 0644 "$w/notail.ini"
  notail before
fi
[ -z "${BENCH_BASE_IMAGE:-}" ] || export_only base1 "$BENCH_BASE_IMAGE"
# The usual way's first half (its PATCH body, which the floor's calls send too), then Connect's
# floor right before the run on all partitions. The workers' JIT warms up on the first PATCH and
# GET of that size (measured: 2.0-2.4 s, then 1.0-1.3 s), and whichever runs first pays for it:
# the same calls run once before, on a connector of their own, and are not counted.
log "baseline: kafka-consumer-groups.sh --describe, a script, curl"
t0=$(now_ms)
describe_now >"$w/describe.txt"
t1=$(now_ms)
script_patch "$w/describe.txt" >"$w/baseline-patch.json"
t2=$(now_ms)
floor_run bo-warmup "$w/baseline-patch.json" warmup
floor_run bo-floor "$w/baseline-patch.json" before
tm=$(now_ms)
run_set all
[ "${BENCH_NOTAIL:-1}" != 1 ] || notail after
if [ -n "${BENCH_BASE_IMAGE:-}" ]; then
  export_only base2 "$BENCH_BASE_IMAGE"
  export_only this2
  export_only base3 "$BENCH_BASE_IMAGE" "${job_cpus:-1}"
  export_only this3 "$IMAGE" "${job_cpus:-1}"
  [ "${BENCH_NOTAIL:-1}" != 1 ] || [ "${R[x.this3]}" = "- - -" ] || notail cpus "${job_cpus:-1}"
fi
log "mm2-offsets on $total partitions took $(($(now_ms) - tm)) ms of wall time in all (containers' starts included)"

# The usual way's second half, and the floor after mm2-offsets' run: the same calls.
floor_run bo-baseline "$w/baseline-patch.json" after

row() { # LABEL ONE ALL
  local a b
  read -r -a a <<<"$2"
  read -r -a b <<<"$3"
  printf '| %-8s | %8s ms | %5s | %4s | %8s ms | %5s | %4s |\n' "$1" "${a[0]}" "${a[1]}" "${a[2]}" "${b[0]}" "${b[1]}" "${b[2]}"
}
echo
echo "bench/offsets: $total partitions ($topics topics x $parts), $recs records each, C = $((recs / 2)); 3 workers; 2 cores"
echo
printf '| %-8s | %22s | %32s |\n' step "mm2-offsets, $parts partitions" "mm2-offsets, $total partitions"
printf '| %-8s | %11s | %5s | %4s | %11s | %5s | %4s | %7s | %8s |\n' "" wall Kafka REST wall Kafka REST "peak RSS" "CPU"
echo "|----------|-------------|-------|------|-------------|-------|------|---------|----------|"
for s in export plan apply verify; do
  row "$s" "${R[one.$s]}" "${R[all.$s]}" |
    sed "s/ |\$/ | $(printf '%4s MiB' "${RSS[all.$s]}") | $(printf '%5s ms' "${CPU[all.$s]}") |/"
done
tot() { local s sum=0; for s in export plan apply verify; do sum=$((sum + ${R[$1.$s]%% *})); done; echo "$sum"; }
tot_one=$([ "${BENCH_ONE:-1}" = 1 ] && tot one || echo -)
tot_all=$(tot all)
read -r -a tail_one <<<"${R[one.tail]:-0 0 0}"
read -r -a tail_all <<<"${R[all.tail]:-0 0 0}"
read -r -a exp_all <<<"${R[all.export]}"
echo
echo "export's boundary read (each target's last records and the source around C, in export above):"
echo "  $parts partitions: ${tail_one[0]} ms, ${tail_one[1]} Kafka requests, ${tail_one[2]} records;" \
  "$total partitions: ${tail_all[0]} ms, ${tail_all[1]} Kafka requests, ${tail_all[2]} records"
echo "  export with it / export less its time ($total partitions): $(ratio "${exp_all[0]}" $((exp_all[0] - tail_all[0])))"
if [ -n "${R[notail.before]:-}" ]; then
  read -r -a nb <<<"${R[notail.before]}"
  read -r -a na <<<"${R[notail.after]}"
  echo "  export without it ([flink] tail.records = 0), run right before and right after: ${nb[0]} and ${na[0]} ms," \
    "${nb[1]} and ${na[1]} Kafka requests, ${RSS[notail.before]} and ${RSS[notail.after]} MiB peak"
  echo "  with it: ${exp_all[0]} ms, ${exp_all[1]} Kafka requests, ${RSS[all.export]} MiB peak:" \
    "$(ratio "${exp_all[0]}" $(((nb[0] + na[0]) / 2)))x" \
    "their mean (issue 16: at most 1.5x)"
  echo "  export's whole time, its --stable-wait ${wait_s} s included (the boundary is read during the wait):" \
    "with it ${W[all.export]} ms, without it ${W[notail.before]} and ${W[notail.after]} ms:" \
    "$(awk -v a="${W[all.export]}" -v b="${W[notail.before]}" -v c="${W[notail.after]}" 'BEGIN { m = (b + c) / 2; printf "%.2fx their mean, %+d ms", (m > 0) ? a / m : 0, a - m }')"
fi
if [ -n "${BENCH_BASE_IMAGE:-}" ]; then
  echo
  echo "export with the boundary read, $total partitions, $IMAGE beside the baseline $BENCH_BASE_IMAGE (in run order):"
  echo "  (export: the tool's own figure, its wait left out; process: exec to exit, less the wait, its clients' teardown included)"
  printf '  %-9s | %8s | %10s | %5s | %8s | %8s | %8s | %8s\n' run export process Kafka read "read req" CPU "peak RSS"
  x_row() { # LABEL KEY
    local a b p
    read -r -a a <<<"${R[$2]}"
    read -r -a b <<<"${R[$2.tail]:-${R[${2%.export}.tail]}}"
    p=$([ "${EL[$2]:--}" = - ] && echo - || echo $((EL[$2] - wait_s * 1000)))
    printf '  %-9s | %5s ms | %7s ms | %5s | %5s ms | %8s | %5s ms | %4s MiB\n' "$1" "${a[0]}" "$p" "${a[1]}" "${b[0]}" "${b[1]}" "${CPU[$2]}" "${RSS[$2]}"
  }
  x_row base1 x.base1
  x_row this1 all.export
  x_row base2 x.base2
  x_row this2 x.this2
  echo "  within the Job's CPU limit (--cpus ${job_cpus:-1}):"
  x_row base3 x.base3
  x_row this3 x.this3
  if [ -n "${R[notail.cpus]:-}" ]; then
    awk -v b="${R[x.base3]%% *}" -v t="${R[x.this3]%% *}" -v n="${R[notail.cpus]%% *}" 'BEGIN {
      printf "  export without it within the same limit: %d ms: baseline %.2fx, this %.2fx\n", n, b / n, t / n }'
  fi
  if [ -n "${R[notail.before]:-}" ]; then
    awk -v b1="${R[x.base1]%% *}" -v b2="${R[x.base2]%% *}" -v t1="${R[all.export]%% *}" -v t2="${R[x.this2]%% *}" \
      -v nb="${R[notail.before]%% *}" -v na="${R[notail.after]%% *}" 'BEGIN { m = (nb + na) / 2;
      printf "  against export without it (mean %d ms): baseline %.2fx and %.2fx, this %.2fx and %.2fx (issue 16: at most 1.5x)\n",
        m, b1 / m, b2 / m, t1 / m, t2 / m }'
  fi
fi
echo
echo "mm2-offsets, machine part (export's reads, plan, apply, verify): $tot_one ms for $parts partitions, $tot_all ms for $total"
read -r -a fa <<<"${FLOOR[after]}"
read -r -a fb <<<"${FLOOR[before]}"
read -r -a fw <<<"${FLOOR[warmup]}"
floor_b=$((fb[0] + fb[1] + fb[2]))
floor_a=$((fa[0] + fa[1] + fa[2]))
usual=$((t2 - t0 + floor_a))
echo "usual way, $total partitions: kafka-consumer-groups.sh --describe $((t1 - t0)) ms (JVM included), script $((t2 - t1)) ms,"
echo "  create STOPPED + wait ${fa[0]} ms, one PATCH ${fa[1]} ms, GET back until all listed ${fa[2]} ms: $usual ms in all,"
echo "  and none of the checks (no second read, no log start/end, no target state, no digest, no verify of values)"
echo "ratio, machine part: usual way / mm2-offsets = $(ratio "$usual" "$tot_all")"
floor=$(((floor_b + floor_a) / 2))
# export's whole time less the --stable-wait asked: what the operator waits for beyond the wait
# itself, the boundary read (done during the wait) counted only for what passes it.
beyond=$((${W[all.export]} - wait_s * 1000))
tot_beyond=$((tot_all - ${R[all.export]%% *} + beyond))
echo "Connect's own floor (create STOPPED + wait + PATCH + GET back until all listed), the same calls on"
echo "  another connector name right before mm2-offsets' run and right after it (the workers warmed up"
echo "  by the same calls once before, not counted: ${fw[0]} + ${fw[1]} + ${fw[2]} ms):"
echo "  before ${fb[0]} + ${fb[1]} + ${fb[2]} = $floor_b ms, after ${fa[0]} + ${fa[1]} + ${fa[2]} = $floor_a ms, mean $floor ms"
echo "  mm2-offsets' machine part / floor = $(ratio "$tot_all" "$floor") (goal: at most 1.30)"
echo "  with export counted as its whole time less the ${wait_s} s it waits on purpose ($beyond ms, the"
echo "  boundary read inside the wait): $tot_beyond ms, $(ratio "$tot_beyond" "$floor") x the floor"
echo "  apply alone (its own create, PATCH and read back are the floor's three calls): $(ratio "${R[all.apply]%% *}" "$floor") x the floor"
echo
echo "where apply's time went, $total partitions (its -v phases):"
sed -nE 's/^mm2-offsets apply: debug: (.*: [0-9]+ ms)$/  \1/p' "$w/all-apply.err"
peak=0
for k in "${!RSS[@]}"; do [[ $k != all.* ]] || [ "${RSS[$k]}" -le "$peak" ] || peak=${RSS[$k]}; done
echo "peak RSS of one mm2-offsets command, $total partitions: $peak MiB; the Job's memory limit (k8s/base/job-offsets.yaml): ${job_limit:-?} MiB"
