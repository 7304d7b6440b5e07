#!/usr/bin/env bash
# make faults: the fault matrix on real clusters.
#
#   tests/faults/run.sh [--runs N] [--only FAULT,...] [--short] [--keep]
#                                      (FAULTS_RUNS, FAULTS_ONLY, FAULTS_SHORT=1, FAULTS_KEEP=1)
#
# --short (make faults-short, in make test): the TARGET broker SIGKILLed once (the fault that
# costs Connect's internal topics and MM2's producer their broker at once, and duplicates the
# most), 2 workers, 10 s of production before it; --only still picks the faults.
#
# A bed of its own (BED_NAME mm2kit-faults, 198.18.14.0/24, build/faults): SOURCE and TARGET
# KRaft brokers whose logs survive a restart (BED_BROKER_DATA=1) and 3 Connect workers of the
# image.  MirrorSourceConnector copies orders (4 partitions) and payments (3) while a producer
# writes 40 records/s and a sampler records, every 0.5 s, how far the target has got.  Each
# replication fault is injected, held, healed; then the run waits until the tasks run again
# and the target holds what the source held at the heal, and audits every source record on the
# target (fields equal; lost and duplicated counted):
#   target-restart, target-kill    the TARGET broker stopped (SIGTERM) or SIGKILLed, started again
#   source-restart, source-kill    the same for the SOURCE broker
#   worker-partition               a worker's network cut (packets dropped) for 30 s, then back
#   worker-sigstop                 a worker's JVM SIGSTOPped for 30 s, then SIGCONT
# (odd runs pick a member that runs tasks, even runs the group leader; session.timeout.ms is
# 10 s, scheduled.rebalance.max.delay.ms 10 s, so the group expels the worker and moves its
# tasks while it is away).  Then mm2-offsets under faults, each on a migration of its own:
#   apply-leader-kill        the Connect leader SIGKILLed during apply (run 1 as the connector is
#                            created, run 2 at the PATCH), the Job talking to another worker: it
#                            retries the worker's 500 "IO Error trying to forward REST request"
#   apply-target-restart     the TARGET broker restarted during apply
#   verify-target-restart    the TARGET broker restarted during verify
#   patch-cut                the network between the Job and Connect cut at the PATCH (run 1:
#                            the answer is lost, run 2: the request is)
# each checked: a documented exit code, what Connect holds agrees with what verify says, the
# rerun's backup holds what Connect held and it PATCHes the plan exactly when Connect does not
# hold it already, the rerun ends verified with exactly the plan, and after resume MM2 starts at C.
# tests/faults/report.py writes build/faults/REPORT.md (the figures table) and lag.svg.
#
# Exit codes: 0 every check passed and nothing was lost; 1 a check failed; 2 usage; 3 the
# image or the tools are missing; 4 the bed or a step did not come up.
# jq programs are single-quoted on purpose: their $names are jq's.
# shellcheck disable=SC2016
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

REPL_FAULTS=(target-restart target-kill source-restart source-kill worker-partition worker-sigstop)
JOB_FAULTS=(apply-leader-kill apply-target-restart verify-target-restart patch-cut)
runs=${FAULTS_RUNS:-}
only=${FAULTS_ONLY:-}
keep=${FAULTS_KEEP:-}
short=${FAULTS_SHORT:-}
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:-}; shift ;;
    --only) only=${2:-}; shift ;;
    --keep) keep=1 ;;
    --short) short=1 ;;
    -h | --help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) printf 'faults: unknown option %s\nTry %s --help\n' "$1" "$0" >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$short" ]; then
  : "${runs:=1}" "${only:=target-kill}"
fi
: "${runs:=2}"
[[ "$runs" =~ ^[1-9][0-9]?$ ]] || { printf 'faults: --runs must be 1..99, got "%s"\n' "$runs" >&2; exit 2; }
selected() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
for f in ${only//,/ }; do
  [[ " ${REPL_FAULTS[*]} ${JOB_FAULTS[*]} " == *" $f "* ]] || { printf 'faults: unknown fault "%s"; one of: %s\n' "$f" "${REPL_FAULTS[*]} ${JOB_FAULTS[*]}" >&2; exit 2; }
done

export BED_NAME=mm2kit-faults BED_OCTET=14 BED_DIR=$root/build/faults BED_BROKER_DATA=1
# shellcheck source=tests/bed/bed.env
. "$root/tests/bed/bed.env"
# shellcheck source=tests/faults/faultlib.bash
. "$here/faultlib.bash"
: "${MM2KIT_CACHE:=/var/cache/mm2kit}"
KPY=$MM2KIT_CACHE/venv/bin/python3
BED=$root/tests/bed/bed.sh
W=$BED_DIR
LOGS=$W/logs
CONN=faults-mm2
TOPICS=orders:4,payments:3
TOPIC_NAMES=orders,payments
RATE=${FAULTS_RATE:-40}
HOLD=30          # seconds a worker stays cut off or frozen: > session.timeout.ms + the delay
SRC=$BED_SRC_BOOTSTRAP TGT=$BED_TGT_BOOTSTRAP

log() { printf 'faults: %s\n' "$*" | tee -a "$W/faults.log" >&2; }
die() { printf 'faults: error: %s\n' "$1" | tee -a "$W/faults.log" >&2; exit "${2:-4}"; }
# shellcheck source=tests/rehearsal/runlib.bash
. "$root/tests/rehearsal/runlib.bash"

[ -x "$KPY" ] || { printf 'faults: error: the bed'"'"'s Python tools are missing; run make deps\n' >&2; exit 3; }
for t in nsenter iptables jq curl; do
  command -v "$t" >/dev/null || { printf 'faults: error: %s is not installed; run make deps\n' "$t" >&2; exit 3; }
done
timeout 60 podman image exists "$IMAGE" || { printf 'faults: error: image %s not found; run make image\n' "$IMAGE" >&2; exit 3; }

kit() { # SECONDS ARGS...: bedkit through bed.sh kit (the admin; topics and the Flink group with their rows of docs/acls.md), bounded
  local t=$1
  shift
  BED_KIT_TIMEOUT=$t timeout "$t" "$root/tests/bed/bed.sh" kit "$@"
}

BG_PIDS=()
# shellcheck disable=SC2317 # run by the EXIT trap
finish() {
  local rc=$? p c
  trap - EXIT
  touch "$W/ctl/stop" "$W/ctl/stop-sampler" 2>/dev/null || true
  for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  # A worker left frozen or cut off by an interrupted run is thawed before it is removed.
  for c in $(timeout 60 podman ps --format '{{.Names}}' | grep -E "^$BED_NAME-w[0-9]$" || true); do
    fl_thaw "$c" 2>/dev/null || true
  done
  if [ -z "$keep" ]; then
    timeout 300 "$BED" down >/dev/null 2>&1 || true
  else
    log "kept the bed: BED_NAME=$BED_NAME BED_OCTET=$BED_OCTET BED_DIR=$BED_DIR tests/bed/bed.sh down removes it"
  fi
  exit "$rc"
}

timeout 300 "$BED" down >/dev/null 2>&1 || true
rm -rf "$W"
mkdir -p "$W" "$LOGS" "$W/ctl" "$W/job"
trap finish EXIT
T_START=$(now_ms)
log "runs $runs per fault, ${only:-every fault}${short:+ (short)}; $RATE records/s; bed $BED_NAME on $BED_SUBNET, files in $W"

# ---- the bed ----------------------------------------------------------------------------------
WORKERS=(1 2 3)
[ -z "$short" ] || WORKERS=(1 2)
# The workers run the JMX exporter as the Deployment does (k8s/base: 18088), so what the alerts
# read can be seen when Connect's REST status says something else (observe_status).
METRICS_PORT=18088
WORKER_ARGS=(-e "JMX_EXPORTER_PORT=$METRICS_PORT")
log "bed: brokers with their logs on the host, ${#WORKERS[@]} workers with the JMX exporter"
(
  timeout 400 "$BED" up 0 &&
    for i in "${WORKERS[@]}"; do timeout 120 "$BED" worker-start "$i" "${WORKER_ARGS[@]}" || exit 1; done &&
    for i in "${WORKERS[@]}"; do timeout 260 "$BED" worker-wait "$i" 240 || exit 1; done
) >"$LOGS/bed-up.log" 2>&1 || { cat "$LOGS/bed-up.log" >&2; die "the bed did not come up"; }
KAFKA_VERSION=$(timeout 60 podman exec "$(bed_worker_name 1)" sh -c 'ls /opt/kafka/libs | sed -n "s/^kafka-clients-\(.*\)\.jar$/\1/p"')
kit 60 create-topics --bootstrap "$SRC" orders:4 payments:3
kit 60 create-topics --bootstrap "$TGT" orders:4 payments:3
# The bed's connector (k8s/overlays/bed), RUNNING from the start: it copies from the earliest
# offset, so every record the producer writes must reach the target.
jq -c --arg n "$CONN" '{name: $n, config: .config}' "$root/k8s/overlays/bed/offsets/connector.json" >"$W/connector.json"
code=$(curl -s -o "$LOGS/create.out" -w '%{http_code}' -m 100 -X POST -H 'Content-Type: application/json' \
  --data @"$W/connector.json" "http://$(bed_worker_ip 1):8088/connectors")
[ "$code" = 201 ] || die "POST /connectors answered $code: $(cat "$LOGS/create.out")"

kit 14400 produce-loop --bootstrap "$SRC" --topics "$TOPICS" --rate "$RATE" --control "$W/ctl" --seed 18 \
  >"$LOGS/producer.out" 2>"$LOGS/producer.log" &
PRODUCER=$!
BG_PIDS+=("$PRODUCER")
kit 14400 sample --source "$SRC" --target "$TGT" --topics "$TOPIC_NAMES" --control "$W/ctl" \
  --out "$W/samples.jsonl" --interval 0.5 >"$LOGS/sampler.out" 2>"$LOGS/sampler.log" &
SAMPLER=$!
BG_PIDS+=("$SAMPLER")
event phase name=producing start=true rate="$RATE"
sleep "$([ -n "$short" ] && echo 10 || echo 20)"

# ---- waiting for the bed to be whole again ----------------------------------------------------------
# caught_up SRC_JSON: the newest sample shows the target at or past SRC_JSON on every partition.
caught_up() {
  tail -n 1 "$W/samples.jsonl" 2>/dev/null | jq -e --argjson want "$1" \
    '. as $s | [range(0; $want | length)] | all(. as $i | $s.pos[$i] >= $want[$i])' >/dev/null 2>&1
}
last_src() { tail -n 1 "$W/samples.jsonl" | jq -c '.src'; }

# settled: the connector and its tasks RUNNING on live workers, no rebalance step logged in
# the last 10 s, and the target holding what the source held a moment ago.
settled() {
  local i src
  fl_running "$CONN" "${WORKERS[@]}" || return 1
  for i in "${WORKERS[@]}"; do
    if timeout 30 podman logs --since 10s "$(bed_worker_name "$i")" 2>&1 |
      grep -qE 'Rebalance started|Joined group|Finished starting connectors and tasks'; then
      return 1
    fi
  done
  src=$(last_src) || return 1
  sleep 1
  caught_up "$src"
}
wait_settled() { # SECONDS
  local end=$((SECONDS + $1))
  until settled; do
    [ $SECONDS -lt $end ] || die "the bed did not settle within $1 s: $(fl_status "$CONN" "${WORKERS[0]}" | jq -c '[.connector.state, [.tasks[]? | [.id, .state, .worker_id]]]' 2>/dev/null)"
    sleep 1
  done
}

# recovered NAME SRC_AT_HEAL: waits (up to 300 s) for the tasks RUNNING and the target holding
# what the source held at the heal; logs the event.
recovered() {
  local name=$1 src=$2 end=$((SECONDS + 300))
  until fl_running "$CONN" "${WORKERS[@]}" && caught_up "$src"; do
    [ $SECONDS -lt $end ] || { event recovered fault="$name" ok=false; check "$name.recovered" 1 "not recovered within 300 s of the heal"; return 0; }
    sleep 0.5
  done
  event recovered fault="$name" ok=true connector_state="$(fl_connector_state "$CONN" "${WORKERS[0]}")"
  observe_status "$name"
}

# observe_status WHEN: when the connector's REST status is not RUNNING while its tasks run (the
# stale UNASSIGNED record fl_running describes), what a monitor sees of it: mm2-probe connectors
# (its exit code and line, run in a worker as a monitoring job would) and each worker's
# exporter series kafka_connect_connector_status, which the alerts read.  An event, no check.
observe_status() {
  local when=$1 st prc=0 probe metrics i
  st=$(fl_connector_state "$CONN" "${WORKERS[0]}")
  [ "$st" != RUNNING ] || return 0
  probe=$(timeout 30 podman exec "$(bed_worker_name "${WORKERS[0]}")" mm2-probe connectors -c "$CONN" "${BED_PROBE_AUTH[@]}" 2>&1) || prc=$?
  metrics=$(for i in "${WORKERS[@]}"; do
    curl -s -m 5 "http://$(bed_worker_ip "$i"):$METRICS_PORT/metrics" |
      grep -E "^kafka_connect_connector_status\{.*connector=\"$CONN\"" | sed "s/^/w$i: /"
  done | tr '\n' ';') || true
  event stale-status when="$when" rest_state="$st" probe_rc="$prc" probe="${probe//$'\n'/; }" jmx="${metrics:-none}"
  log "  $when: REST says the connector is $st with its tasks RUNNING; mm2-probe connectors exit $prc ($probe); exporter: ${metrics:-no kafka_connect_connector_status series}"
}

AUDITS=()
audit() { # NAME [--final]: every source record so far against the target
  local name=$1 rc=0
  shift
  kit 60 ends --bootstrap "$SRC" --topic orders | jq -c 'with_entries(.key = "orders/" + .key)' >"$W/ends-o.json"
  kit 60 ends --bootstrap "$SRC" --topic payments | jq -c 'with_entries(.key = "payments/" + .key)' >"$W/ends-p.json"
  jq -s 'add' "$W/ends-o.json" "$W/ends-p.json" >"$W/ends-$name.json"
  kit 900 audit --source "$SRC" --target "$TGT" --topics "$TOPIC_NAMES" --ends "$W/ends-$name.json" \
    --timeout 600 "$@" >"$W/audit-$name.json" 2>"$LOGS/audit-$name.log" || rc=$?
  AUDITS+=("$name")
  event audit name="$name" rc="$rc"
  log "  audit $name: $(jq -c '.totals | {source, target, lost, duplicates, mismatched}' "$W/audit-$name.json" 2>/dev/null || echo "exit $rc, see $LOGS/audit-$name.log")"
}

# victim RUN: odd runs a member (not the leader) that runs tasks, even runs the leader.
victim() {
  local leader i
  leader=$(fl_leader "${WORKERS[@]}")
  if [ $(($1 % 2)) = 0 ] && [ -n "$leader" ]; then printf '%s' "$leader"; return; fi
  for i in "${WORKERS[@]}"; do
    if [ "$i" != "$leader" ] && [ "$(fl_tasks_on "$CONN" "$i" "${WORKERS[0]}")" -gt 0 ]; then printf '%s' "$i"; return; fi
  done
  printf '%s' "${WORKERS[0]}"
}

# ---- the replication faults -----------------------------------------------------------------------
repl_fault() { # FAULT RUN
  local f=$1 r=$2 name="$1#$2" v='' leader broker how stop=() src
  wait_settled 300
  leader=$(fl_leader "${WORKERS[@]}")
  case $f in
    target-*) broker=$BED_TGT ;;
    source-*) broker=$BED_SRC ;;
    *) v=$(victim "$r") ;;
  esac
  if [ -n "$v" ]; then
    event inject fault="$name" worker="$(bed_worker_name "$v")" leader="$([ "$v" = "$leader" ] && echo true || echo false)" \
      tasks="$(fl_tasks_on "$CONN" "$v" "${WORKERS[0]}")"
  else
    event inject fault="$name" broker="$broker"
  fi
  case $f in
    *-restart | *-kill)
      how=clean
      [ "${f#*-}" = kill ] && how="kill"
      read -ra stop < <(fl_broker_restart "$broker" "$how")
      src=$(last_src)
      event heal fault="$name" stop_ms="${stop[0]}" exit_code="${stop[1]}"
      kit 120 wait --bootstrap "$([ "$broker" = "$BED_TGT" ] && echo "$TGT" || echo "$SRC")" --timeout 110 ||
        die "$broker did not answer within 110 s of its restart"
      log "$name: $broker $how-stopped in ${stop[0]} ms (exit ${stop[1]}), started again"
      ;;
    worker-partition)
      fl_partition "$(bed_worker_name "$v")"
      sleep "$HOLD"
      src=$(last_src)
      fl_heal "$(bed_worker_name "$v")"
      event heal fault="$name"
      log "$name: worker $v ($([ "$v" = "$leader" ] && echo leader || echo member)) cut off for $HOLD s, reconnected"
      ;;
    worker-sigstop)
      fl_freeze "$(bed_worker_name "$v")"
      sleep "$HOLD"
      src=$(last_src)
      fl_thaw "$(bed_worker_name "$v")"
      event heal fault="$name"
      log "$name: worker $v ($([ "$v" = "$leader" ] && echo leader || echo member)) frozen for $HOLD s, continued"
      ;;
  esac
  recovered "$name" "$src"
  audit "$name"
}

for f in "${REPL_FAULTS[@]}"; do
  selected "$f" || continue
  for ((r = 1; r <= runs; r++)); do repl_fault "$f" "$r"; done
done

# ---- mm2-offsets under faults ----------------------------------------------------------------------
# A migration of its own per run: topic NAME.t (3 partitions, 60 records), a Flink group at
# C = 10, 20 and 0, the bed's Job files with the connector and the group renamed.
job_setup() { # NAME CONNECT_IP: DIR holds export, plan; sets JD and DIGEST
  local n=$1 ip=$2 rc
  JD=$W/job/$n
  mkdir -p "$JD"
  chmod 0777 "$JD"
  jq --arg n "$n" --arg t "$n.t" '.name = $n | .config.topics = $t' "$root/k8s/overlays/bed/offsets/connector.json" >"$JD/connector.json"
  sed -e "s/^group.id = .*/group.id = $n-flink/" -e 's|^file = .*|file = connector.json|' \
    -e 's/^request.timeout.seconds = .*/request.timeout.seconds = 20/' -e 's/^retry.budget.seconds = .*/retry.budget.seconds = 60/' \
    "$root/k8s/overlays/bed/offsets/migration.ini" >"$JD/migration.ini"
  chmod 0644 "$JD/connector.json" "$JD/migration.ini"
  kit 60 create-topics --bootstrap "$SRC" "$n.t:3" >/dev/null
  kit 60 create-topics --bootstrap "$TGT" "$n.t:3" >/dev/null
  kit 60 produce --bootstrap "$SRC" --topic "$n.t" --count 60 --partitions 3 --seed 5 >/dev/null
  kit 60 flink-copy --source "$SRC" --target "$TGT" --group "$n-flink" --topic "$n.t" --upto 0:10,1:20,2:0 >/dev/null
  for step in export plan; do
    if [ $step = export ]; then
      fl_job_start "$JD" export "$ip" 0 export --config migration.ini --out export.json --stable-wait 2 -q
    else
      fl_job_start "$JD" plan "$ip" 0 plan --config migration.ini --export export.json --out plan.json -q
    fi
    rc=$(fl_job_wait "$step" 200)
    [ "$rc" = 0 ] || die "$n: $step exited $rc: $(tail -n 3 "$JD/$step.err")"
  done
  DIGEST=$(tr -d '[:space:]' <"$JD/plan.out")
}

# documented RC: an exit code of mm2-offsets' table (0 ok, 1 check negative, 4 unreachable or
# timed out, 5 unexpected answer) whose last stderr line, when not 0, is an error line.
documented() { # RC ERRFILE
  case $1 in
    0) return 0 ;;
    1 | 4 | 5) grep -qE '^mm2-offsets [a-z-]+: error: ' "$2" ;;
    *) return 1 ;;
  esac
}

# job_after NAME RC1 STEP1: the checks every job fault ends with.  What Connect holds now must
# agree with what verify says; the rerun of apply ends verified with exactly the plan; resumed,
# MM2's first record on every partition is the source record at C.
job_after() {
  local n=$1 rc1=$2 s1=$3 ask got equal rcv rc2 rc3 rc4 errline
  ask=${WORKERS[0]}
  errline=$(grep -E ': error: ' "$JD/$s1.err" | tail -n 1 || true)
  check "$n.exit-documented" "$(documented "$rc1" "$JD/$s1.err" && echo 0 || echo 1)" \
    "$s1 exited $rc1${errline:+: $errline}"
  # Until verify has said something, nothing half-written may pass for done.
  fl_job_start "$JD" verify-after "$(bed_worker_ip "$ask")" 0 verify --config migration.ini --plan plan.json
  rcv=$(fl_job_wait verify-after 300)
  equal=1
  got=$(fl_offsets_equal_plan "$n" "$JD/plan.json" "$ask") && equal=0
  # What must never happen: Connect holding other than the plan while verify passes, or verify
  # failing without a documented code.  Verify failing on offsets that are the plan's because
  # Connect's status reads UNASSIGNED (a stale record, see fl_running) is a false alarm, said;
  # so is exit 4 (Connect did not answer in time: after a TARGET restart its herder thread,
  # which answers GET .../tasks, was seen busy for more than 48 s), which says "ask again",
  # never "done".
  local agree=1 why=''
  { [ "$equal" = 0 ] && [ "$rcv" = 0 ]; } || { [ "$equal" = 1 ] && [ "$rcv" != 0 ] && documented "$rcv" "$JD/verify-after.err"; } && agree=0
  if [ "$agree" = 1 ] && [ "$equal" = 0 ] && [ "$rcv" = 1 ] && documented "$rcv" "$JD/verify-after.err" &&
    grep -qF "is UNASSIGNED with no task config, not STOPPED" "$JD/verify-after.err"; then
    agree=0
    why="; verify refused offsets that are the plan's on the connector's UNASSIGNED status: noticed, a false alarm"
  elif [ "$agree" = 1 ] && [ "$equal" = 0 ] && [ "$rcv" = 4 ] && documented "$rcv" "$JD/verify-after.err" &&
    grep -qE ': error: .*timed out after [0-9]+ ms' "$JD/verify-after.err"; then
    agree=0
    why="; verify could not ask Connect in time (exit 4, to be run again): not a pass, the rerun below decides"
  fi
  check "$n.nothing-half-written-unnoticed" "$agree" \
    "after the fault Connect holds $got ($([ "$equal" = 0 ] && echo "the plan" || echo "not the plan")); verify exited $rcv: $(grep -E ': error: ' "$JD/verify-after.err" | head -n 1)$why"
  local held=$got held_plan=$equal
  fl_job_start "$JD" apply-rerun "$(bed_worker_ip "$ask")" 0 apply --config migration.ini --plan plan.json --backup backup-rerun.json
  rc2=$(fl_job_wait apply-rerun 300)
  # A connector created STOPPED across a TARGET outage can read UNASSIGNED with no task config (a
  # stale status record, see fl_running): apply refuses it [rule connector-state] and names the
  # remedy, POST /connectors/NAME/restart (a second PUT .../stop writes no status: the
  # connector is already STOPPED on its worker, and WorkerConnector.suspend returns early).  The
  # operator's step, taken from the message, then a second rerun; the remedy must give STOPPED.
  local stopped_by_hand=false remedy='' st
  if [ "$rc2" = 1 ] && grep -qF 'is UNASSIGNED with no task config, not STOPPED' "$JD/apply-rerun.err" && grep -qF '[rule connector-state]' "$JD/apply-rerun.err"; then
    stopped_by_hand=true
    local code said end
    said=$(grep -oE "POST /connectors/$n/restart" "$JD/apply-rerun.err" | head -n 1)
    code=$(curl -s -o "$JD/restart.out" -w '%{http_code}' -m 100 -X POST "http://$(bed_worker_ip "$ask"):8088/connectors/$n/restart" || true)
    end=$((SECONDS + 60))
    until [ "$(fl_connector_state "$n" "$ask")" = STOPPED ] || [ $SECONDS -ge $end ]; do sleep 1; done
    st=$(fl_connector_state "$n" "$ask")
    remedy="${said:-no POST .../restart in the message}: HTTP $code, then $st with $(fl_status "$n" "$ask" | jq '.tasks | length') tasks"
    check "$n.stale-status-remedy" "$([ -n "$said" ] && ! grep -qF "PUT /connectors/$n/stop" "$JD/apply-rerun.err" && [ "$st" = STOPPED ] && echo 0 || echo 1)" \
      "apply refused the connector's UNASSIGNED status naming $remedy"
    log "$n: apply refused the UNASSIGNED connector; $remedy; running apply again"
    mv "$JD/apply-rerun.err" "$JD/apply-rerun-refused.err"
    fl_job_start "$JD" apply-rerun "$(bed_worker_ip "$ask")" 0 apply --config migration.ini --plan plan.json --backup backup-rerun.json
    rc2=$(fl_job_wait apply-rerun 300)
  fi
  got=$(fl_offsets_equal_plan "$n" "$JD/plan.json" "$ask") && equal=0 || equal=1
  check "$n.rerun-verified" "$([ "$rc2" = 0 ] && [ "$equal" = 0 ] && jq -e '.ok == true and .state == "STOPPED"' "$JD/apply-rerun.out" >/dev/null 2>&1 && echo 0 || echo 1)" \
    "the rerun of apply exited $rc2 ($(grep -E ': (error|info): (verified|refused|.*error)' "$JD/apply-rerun.err" | tail -n 1))$([ "$stopped_by_hand" = true ] && echo "; first refused [rule connector-state] on a stale UNASSIGNED status, run again after: $remedy"); Connect holds $got"
  # The rerun's backup holds what Connect held before it (what the fault left), and it PATCHes
  # exactly when that is not the plan, all of the plan's partitions: a request lost at the PATCH
  # leaves nothing written, so the rerun backs up nothing and writes the plan; an answer lost
  # leaves the plan written, so the rerun backs it up and has nothing to PATCH.
  local backed want_parts patched
  backed=$(jq -c '[.offsets[]? | select(.offset != null) | [.cluster, .topic, .partition, .offset]] | sort' "$JD/backup-rerun.json" 2>/dev/null || echo unreadable)
  want_parts=$(jq '.partitions | length' "$JD/plan.json")
  patched=$(sed -n "s|^mm2-offsets apply: info: PATCH /connectors/$n/offsets: \([0-9]*\) partitions.*|\1|p" "$JD/apply-rerun.err" | tail -n 1)
  local bp_ok=1
  if [ "$backed" = "$held" ]; then
    if [ "$held_plan" = 0 ]; then
      [ -z "$patched" ] && grep -qF "already equal the plan; nothing to PATCH" "$JD/apply-rerun.err" && bp_ok=0
    else
      [ "$patched" = "$want_parts" ] && grep -qF 'offsets written' "$JD/apply-rerun.err" && bp_ok=0
    fi
  fi
  check "$n.rerun-backup-and-patch" "$bp_ok" \
    "before the rerun Connect held $held; its backup holds $backed; it $([ -n "$patched" ] && echo "PATCHed $patched of the plan's $want_parts partitions" || echo "PATCHed nothing ($(grep -oF 'nothing to PATCH' "$JD/apply-rerun.err" || echo 'no PATCH line'))")"
  fl_job_start "$JD" resume "$(bed_worker_ip "$ask")" 0 resume --config migration.ini --plan plan.json --approve "$DIGEST" -q
  rc3=$(fl_job_wait resume 300)
  fl_job_start "$JD" check "$(bed_worker_ip "$ask")" 0 check --config migration.ini --plan plan.json --timeout 120
  rc4=$(fl_job_wait check 300)
  check "$n.starts-at-c" "$([ "$rc3" = 0 ] && [ "$rc4" = 0 ] && echo 0 || echo 1)" \
    "resume exited $rc3, check exited $rc4: $(jq -c '{equal, pending, failed}' "$JD/check.out" 2>/dev/null || tail -n 1 "$JD/check.err")"
  jq -nc --arg f "$n" --argjson rc1 "$rc1" --argjson rcv "$rcv" --argjson rc2 "$rc2" --argjson rc4 "$rc4" \
    --arg err "$errline" --argjson by_hand "$stopped_by_hand" --arg remedy "$remedy" \
    --arg backed "$backed" --arg patched "$patched" --argjson parts "$want_parts" \
    '{fault: $f, first_rc: $rc1, verify_rc: $rcv, rerun_rc: $rc2, check_rc: $rc4, error: $err, stop_by_hand: $by_hand,
      remedy: $remedy, rerun_backup: $backed, rerun_patched: $patched, plan_partitions: $parts}' >>"$W/jobs.jsonl"
  # The migration's connector goes; its tasks would only load the bed.
  curl -s -o /dev/null -m 100 -X DELETE "http://$(bed_worker_ip "$ask"):8088/connectors/$n" || true
}

# A new worker in place of one that was killed (as a Deployment replaces a pod), healthy.
replace_worker() { # I
  timeout 60 podman rm -f -t 0 "$(bed_worker_name "$1")" >/dev/null 2>&1 || true
  timeout 120 "$BED" worker-start "$1" "${WORKER_ARGS[@]}"
  timeout 260 "$BED" worker-wait "$1" 240
}

job_fault() { # FAULT RUN
  local f=$1 r=$2 n leader ip other i rc1 s1=apply trigger stop=()
  n=jf-$f-$r
  wait_settled 300
  leader=$(fl_leader "${WORKERS[@]}")
  other=${WORKERS[0]}
  for i in "${WORKERS[@]}"; do [ "$i" != "$leader" ] && other=$i && break; done
  ip=$(bed_worker_ip "$other")
  job_setup "$n" "$ip"
  event inject fault="$f#$r"
  case $f in
    apply-leader-kill)
      trigger="creating connector"
      [ "$r" = 2 ] && trigger="PATCH /connectors/"
      fl_job_start "$JD" apply "$ip" 0 apply --config migration.ini --plan plan.json
      fl_wait_line "$JD/apply.err" "$trigger" 120 || die "$n: apply never printed \"$trigger\": $(cat "$JD/apply.err")"
      timeout 60 podman kill -s KILL "$(bed_worker_name "$leader")" >/dev/null
      event sigkill fault="$f#$r" worker="$(bed_worker_name "$leader")" leader=true
      log "$n: leader (worker $leader) SIGKILLed at \"$trigger\"; the Job talks to worker $other"
      rc1=$(fl_job_wait apply 300)
      # The worker forwards the create or the PATCH to the dead leader and answers HTTP 500 "IO
      # Error trying to forward REST request" until the group has another: apply retries it
      # within its budget, so it ends verified (0) or, past the budget, unreachable (4) naming
      # the leader; never "unexpected answer" (5).
      check "$n.leader-gone-retried" "$([ "$rc1" = 0 ] || [ "$rc1" = 4 ] && echo 0 || echo 1)" \
        "apply exited $rc1 with the leader SIGKILLed at \"$trigger\" after $(grep -c 'cannot reach the Connect leader' "$JD/apply.err" || true) retries of the forward's HTTP 500: $(tail -n 1 "$JD/apply.err")"
      replace_worker "$leader"
      ;;
    apply-target-restart)
      fl_job_start "$JD" apply "$ip" 0 apply --config migration.ini --plan plan.json
      fl_wait_line "$JD/apply.err" "creating connector" 120 || die "$n: apply never printed \"creating connector\": $(cat "$JD/apply.err")"
      read -ra stop < <(fl_broker_restart "$BED_TGT" clean)
      log "$n: TARGET restarted at \"creating connector\" (stopped in ${stop[0]} ms)"
      rc1=$(fl_job_wait apply 300)
      ;;
    verify-target-restart)
      fl_job_start "$JD" apply "$ip" 0 apply --config migration.ini --plan plan.json -q
      rc1=$(fl_job_wait apply 300)
      [ "$rc1" = 0 ] || die "$n: the apply before the fault exited $rc1: $(tail -n 3 "$JD/apply.err")"
      s1=verify
      fl_job_start "$JD" verify "$ip" 1 verify --config migration.ini --plan plan.json
      timeout 90 podman stop -t 60 "$BED_TGT" >/dev/null
      touch "$JD/verify.go"
      sleep 3
      timeout 60 podman start "$BED_TGT" >/dev/null
      log "$n: TARGET stopped before verify's first request, started 3 s into it"
      rc1=$(fl_job_wait verify 300)
      ;;
    patch-cut)
      local how=answer
      [ "$r" = 2 ] && how=request
      fl_job_start "$JD" apply "$ip" 1 apply --config migration.ini --plan plan.json
      fl_patch_cut apply "$how"
      touch "$JD/apply.go"
      log "$n: the network between the Job and Connect cut at the PATCH ($how lost)"
      rc1=$(fl_job_wait apply 300)
      ;;
  esac
  event heal fault="$f#$r"
  kit 120 wait --bootstrap "$TGT" --timeout 110 || die "TARGET did not come back"
  log "$n: $s1 exited $rc1: $(tail -n 1 "$JD/$s1.err")"
  job_after "$n" "$rc1" "$s1"
  event recovered fault="$f#$r" ok=true
}

for f in "${JOB_FAULTS[@]}"; do
  selected "$f" || continue
  for ((r = 1; r <= 2; r++)); do job_fault "$f" "$r"; done
done

# ---- the end: the producer stops, the target catches up, the last audit --------------------------
touch "$W/ctl/stop"
wait "$PRODUCER" || die "the producer failed; see $LOGS/producer.log"
event phase name=producing end=true
log "producer stopped: $(cat "$LOGS/producer.out")"
audit final --final
touch "$W/ctl/stop-sampler"
wait "$SAMPLER" || die "the sampler failed; see $LOGS/sampler.log"
ok=1
fl_running "$CONN" "${WORKERS[@]}" && ok=0
check connect.running "$ok" "after every fault: $(fl_status "$CONN" "${WORKERS[0]}" | jq -c '[.connector.state, [.tasks[]?.state]]')"
# A connector status left UNASSIGNED by a stale record (fl_running says why) is corrected by
# restarting the connector alone (its tasks go on): the new instance writes RUNNING.
st=$(fl_connector_state "$CONN" "${WORKERS[0]}")
if [ "$st" != RUNNING ]; then
  observe_status final
  curl -s -o /dev/null -m 100 -X POST "http://$(bed_worker_ip "${WORKERS[0]}"):8088/connectors/$CONN/restart" || true
  end=$((SECONDS + 60))
  until [ "$(fl_connector_state "$CONN" "${WORKERS[0]}")" = RUNNING ] || [ $SECONDS -ge $end ]; do sleep 1; done
  after=$(fl_connector_state "$CONN" "${WORKERS[0]}")
  check connect.stale-status-cleared "$([ "$after" = RUNNING ] && echo 0 || echo 1)" \
    "the connector's status read $st with its tasks RUNNING; POST /connectors/$CONN/restart (the connector alone) made it $after"
fi
for c in $(timeout 60 podman ps -a --format '{{.Names}}' | grep -E "^$BED_NAME-" || true); do
  timeout 60 podman logs "$c" >"$LOGS/$c.log" 2>&1 || true
done
found=$(grep -rlF --exclude="$BED_NAME-*.properties" -e "$BED_CONNECT_PASSWORD" -e "$BED_SOURCE_PASSWORD" -e "$BED_TARGET_PASSWORD" "$W" 2>/dev/null | sed "s|^$W/||" | tr '\n' ' ' || true)
check secrets.nowhere "$([ -z "$found" ] && echo 0 || echo 1)" "the connect password (a sentinel) in: ${found:-no log, artifact or output of the run}"

T_END=$(now_ms)
jq -n --arg image "$IMAGE" --arg kafka "$KAFKA_VERSION" --argjson rate "$RATE" --argjson runs "$runs" \
  --argjson hold "$HOLD" --argjson t0 "$T_START" --argjson t1 "$T_END" --arg bed "$BED_NAME $BED_SUBNET" \
  --arg image_id "$(timeout 30 podman image inspect -f '{{.Id}}' "$IMAGE" | cut -c1-12)" \
  --argjson delay "$BED_REBALANCE_DELAY_MS" --argjson audits "$(printf '%s\n' "${AUDITS[@]}" | jq -Rsc 'split("\n") | map(select(. != ""))')" \
  '{image: $image, image_id: $image_id, kafka: $kafka, rate: $rate, runs: $runs, hold_s: $hold, start_ms: $t0,
    end_ms: $t1, bed: $bed, delay_ms: $delay, audits: $audits}' >"$W/meta.json"
rc=0
python3 "$here/report.py" "$W" || rc=$?
log "done in $(((T_END - T_START) / 1000)) s; report: $W/REPORT.md"
exit "$rc"
