#!/usr/bin/env bash
# make rehearsal: the cutover (docs/ARCHITECTURE.md §2.1) on real clusters, with the acceptance
# checks.
#
#   tests/rehearsal/run.sh [--short] [--keep] [--on kube|podman]
#                          (REHEARSAL=short, REHEARSAL_KEEP=1, REHEARSAL_ON=... too)
#   --on kube (the default of the full run): the pods are the Deployment's on the test Kubernetes
#   cluster (tests/kube/cluster.sh, tests/rehearsal/kube.bash): rolling updates by the Deployment
#   controller, evictions by the Eviction API, hard kills by SIGKILL to the container's process,
#   the Job as a Job, the pods' stops and exit codes read from the API.  --on podman (the default
#   of --short, in make test): the pods are podman containers run as the rendered Deployment says.
#   REHEARSAL_FAULT=group-ahead: Flink's group commit runs 5 records ahead of what its sink
#   wrote on orders-0 (a Flink whose offsets ran ahead of its sink); the rehearsal must then fail:
#   plan refuses it [rule flink-gap] (the export finds the target 5 records behind C).
#   REHEARSAL_ABORTED=1 (the full run's default, 0 for --short): payments' last sink transaction
#   is aborted by the broker (transaction.timeout.ms passed) after its C was committed, so the
#   target lacks its last ABORTED_K records of each payments partition; plan must refuse that
#   [rule flink-gap], then plan with --start-at-gap, and the audit must find them copied by MM2.
#
# A bed of its own (BED_NAME mm2kit-rh, 198.18.11.0/24, build/rehearsal): SOURCE and TARGET
# KRaft brokers with an authorizer, and 3 worker pods run exactly as the rendered
# k8s/overlays/bed Deployment says.  A producer keeps writing to orders (4 partitions) and
# payments (3); a Flink-like copier copies to the target and commits C (one partition at
# C = 0, one at C = log end), its last checkpoint in an EXACTLY_ONCE transaction it leaves
# open.  Then the cutover with the Job's own files, by docs/RUNBOOK.md's own command lines
# (tests/rehearsal/runbook.bash; on kube its kubectl lines too, step 1 included): export,
# plan (refused while the transaction is open), the transaction commits, export, plan, the
# Job (apply + verify), apply and verify again, resume, check.  Then, still producing:
# rolling restarts (the Deployment's order: a new pod Ready, then SIGTERM to the youngest
# old one) and hard kills (SIGKILL, a new pod).  Then every record is compared, §7.1 is
# checked, the runbook's step 12 and rollback after MM2 started run (remove refused, stop,
# rollback-plan --commit), and tests/rehearsal/report.py writes build/rehearsal/REPORT.md
# with lag.svg and prints it.
#
# Exit codes: 0 every check passed and nothing was lost; 1 a check failed (one line each on
# stderr); 2 usage; 3 the image or the tools are missing; 4 the bed or a step did not come up.
# jq programs are single-quoted on purpose: their $names are jq's.
# shellcheck disable=SC2016
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

mode=${REHEARSAL:-full}
keep=${REHEARSAL_KEEP:-}
on=${REHEARSAL_ON:-}
while [ $# -gt 0 ]; do
  case $1 in
    --short) mode=short ;;
    --full) mode=full ;;
    --keep) keep=1 ;;
    --on) on=${2:-}; shift ;;
    -h | --help) sed -n '2,/^# jq programs/{/^# jq programs/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) printf 'rehearsal: unknown option %s\nTry %s --help\n' "$1" "$0" >&2; exit 2 ;;
  esac
  shift
done
case $mode in full | short) ;; *) printf 'rehearsal: REHEARSAL must be full or short, got "%s"\n' "$mode" >&2; exit 2 ;; esac
[ -n "$on" ] || { [ "$mode" = full ] && on=kube || on=podman; }
case $on in kube | podman) ;; *) printf 'rehearsal: --on must be kube or podman, got "%s"\n' "$on" >&2; exit 2 ;; esac

# A bed of its own, never the e2e one (mm2kit-bed*); on the cluster, the brokers its pods reach.
if [ "$on" = kube ]; then
  export BED_NAME=${BED_NAME:-mm2kit-kube} BED_OCTET=${BED_OCTET:-22} BED_DIR=${BED_DIR:-$root/build/rehearsal}
else
  export BED_NAME=${BED_NAME:-mm2kit-rh} BED_OCTET=${BED_OCTET:-11} BED_DIR=${BED_DIR:-$root/build/rehearsal}
fi
case $BED_NAME in mm2kit-bed*) printf 'rehearsal: BED_NAME %s is the e2e bed'"'"'s; use another\n' "$BED_NAME" >&2; exit 2 ;; esac
# shellcheck source=tests/bed/bed.env
. "$root/tests/bed/bed.env"
: "${MM2KIT_CACHE:=/var/cache/mm2kit}"
KPY=$MM2KIT_CACHE/venv/bin/python3      # confluent-kafka (bedkit)
LPY=$MM2KIT_CACHE/lint-venv/bin/python3 # PyYAML (podman_args)
BED=$root/tests/bed/bed.sh
W=$BED_DIR
CUT=$W/cutover
LOGS=$W/logs
CONN=flink-to-mm2-source
TOPICS=orders:4,payments:3
TOPIC_NAMES=orders,payments

if [ "$mode" = full ]; then
  RATE=${REHEARSAL_RATE:-40} WARMUP=20 KILLS=3 SETTLE=10 ABORTED=${REHEARSAL_ABORTED:-1}
else
  RATE=${REHEARSAL_RATE:-25} WARMUP=15 KILLS=1 SETTLE=5 ABORTED=${REHEARSAL_ABORTED:-0}
fi
case $ABORTED in 0 | 1) ;; *) printf 'rehearsal: REHEARSAL_ABORTED must be 0 or 1, got "%s"\n' "$ABORTED" >&2; exit 2 ;; esac
ABORTED_K=5              # the records of payments' aborted last transaction, per partition
ABORTED_TXN_MS=20000     # its transaction.timeout.ms: the broker aborts it this long after it began

log() { printf 'rehearsal: %s\n' "$*" | tee -a "$W/rehearsal.log" >&2; }
die() { printf 'rehearsal: error: %s\n' "$1" | tee -a "$W/rehearsal.log" >&2; exit "${2:-4}"; }
# shellcheck source=tests/rehearsal/runlib.bash
. "$here/runlib.bash"

if [ ! -x "$KPY" ] || [ ! -x "$LPY" ]; then
  printf 'rehearsal: error: the bed'"'"'s Python tools are missing; run make deps\n' >&2
  exit 3
fi
timeout 60 podman image exists "$IMAGE" || { printf 'rehearsal: error: image %s not found; run make image\n' "$IMAGE" >&2; exit 3; }

# kit SECONDS ARGS...: bedkit through bed.sh kit (the admin sets up; topics and the Flink group
# come with their rows of docs/acls.md; flink-copy plays Flink as its own principal), bounded.
kit() {
  local t=$1; shift
  BED_KIT_TIMEOUT=$t timeout "$t" "$root/tests/bed/bed.sh" kit "$@"
}

# ---- what this run owns: removed before it starts and at the end ----------------------------
BG_PIDS=()     # the background bedkit processes this run started (their timeout wrappers)
backend_down() { timeout 300 "$BED" down >/dev/null 2>&1 || true; }
backend_record() { :; } # what the backend itself recorded of the run (kube.bash: the API's events)
# shellcheck disable=SC2317 # run by the EXIT trap
finish() {
  local rc=$? p
  trap - EXIT
  touch "$W/ctl/stop" "$W/ctl/stop-sampler" "$W/ctl/release" 2>/dev/null || true
  for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  # A foreground step cut short by a signal (its timeout wrapper passes the signal on).
  pkill -TERM -P $$ 2>/dev/null || true
  if [ -z "$keep" ]; then
    [ "$rc" = 0 ] || log "removing the bed after a failure (logs kept in $LOGS)"
    backend_down
  else
    if [ "$on" = kube ]; then
      log "kept the cluster and the bed: BED_DIR=$BED_DIR tests/kube/world.sh down removes them"
    else
      log "kept the bed: BED_NAME=$BED_NAME BED_OCTET=$BED_OCTET BED_DIR=$BED_DIR tests/bed/bed.sh down removes it"
    fi
  fi
  exit "$rc"
}

case $W in /* ) [ "$W" != / ] ;; *) false ;; esac || { printf 'rehearsal: BED_DIR must be an absolute directory, got "%s"\n' "$W" >&2; exit 2; }
timeout 300 "$BED" down >/dev/null 2>&1 || true
rm -rf "$W"
mkdir -p "$W" "$CUT" "$LOGS" "$W/ctl" "$W/k8s-job/plan"
chmod 0777 "$CUT"
chmod 0755 "$W/k8s-job" "$W/k8s-job/plan"
trap finish EXIT
T_START=$(now_ms)
log "mode $mode: $RATE records/s, $KILLS hard kill(s); bed $BED_NAME on $BED_SUBNET, files in $W"

# is_ok COMMAND...: prints 0 when COMMAND succeeds, else 1 (for check, and safe under set -e).
is_ok() { if "$@" >/dev/null 2>&1; then echo 0; else echo 1; fi; }

# ---- the rendered Kubernetes files ------------------------------------------------------------
RENDER=$W/k8s-bed.yaml
OVERLAY_NAME=k8s/overlays/bed   # the pods' (tests/rehearsal/kube.bash: kube-e2e, which is bed's on the cluster)
timeout 60 kubectl kustomize "$root/k8s/overlays/bed" >"$RENDER"
umask 077
secrets=$W/k8s-job/secrets.json
# Three principals (docs/acls.md): the workers', and the connector's and mm2-offsets' per cluster.
{ jq -n --arg su "$BED_SOURCE_USER" --arg sp "$BED_SOURCE_PASSWORD" --arg tu "$BED_TARGET_USER" \
    --arg tp "$BED_TARGET_PASSWORD" --arg j "$BED_JAAS" --arg sj "$BED_SOURCE_JAAS" --arg tj "$BED_TARGET_JAAS" \
    '{"mm2-connect-auth": {"source-username": $su, "source-password": $sp, "target-username": $tu,
      "target-password": $tp, "sasl-jaas-config": $j, "source-sasl-jaas-config": $sj,
      "target-sasl-jaas-config": $tj}}'
  bed_rest_secret_json; } | jq -s add >"$secrets"
# The pod as the kubelet would run it (POD_IP filled in per pod), and the Job with its files.
mapfile -t POD_ARGS < <("$LPY" "$root/tests/k8s/podman_args.py" run "$RENDER" __POD_IP__ "$secrets")
mapfile -t JOB < <("$LPY" "$root/tests/k8s/podman_args.py" job "$RENDER" "$secrets" "$W/k8s-job/files" "mm2-offsets-plan=$W/k8s-job/plan")
rm -f "$secrets"
umask 022
[ "${#POD_ARGS[@]}" -gt 20 ] || die "podman_args run gave ${#POD_ARGS[@]} arguments"
sep=0
for i in "${!JOB[@]}"; do [ "${JOB[$i]}" = -- ] && sep=$i; done
[ "$sep" -gt 10 ] || die "podman_args job gave no command"
JOB_OPTS=("${JOB[@]:0:$sep}")
JOB_CMD=("${JOB[@]:$((sep + 1))}")
JOBFILES=$W/k8s-job/files/job-files
mapfile -t READY_CMD < <("$LPY" "$root/tests/k8s/podman_args.py" probe "$RENDER" readinessProbe)
START_BUDGET=$("$LPY" "$root/tests/k8s/podman_args.py" budget "$RENDER" startupProbe)
OVERLAY_DELAY=
for a in "${POD_ARGS[@]}"; do
  case $a in CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS=*) OVERLAY_DELAY=${a#*=} ;; esac
done
[ -n "$OVERLAY_DELAY" ] || die "the rendered ConfigMap sets no CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS"
# What the image ships when the variable is not set (mm2-entrypoint --help prints it).
SHIPPED_DELAY=$(timeout 60 podman run --rm --entrypoint mm2-entrypoint "$IMAGE" --help |
  sed -n 's/.*CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS.*(\([0-9]*\)).*/\1/p' | head -n 1)
[ -n "$SHIPPED_DELAY" ] || die "mm2-entrypoint --help in $IMAGE names no default for CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS"
KAFKA_DEFAULT_DELAY=300000 # DistributedConfig.SCHEDULED_REBALANCE_MAX_DELAY_MS_DEFAULT
# Each rolling restart gives its new pods a delay; the pods it replaces measure theirs (the
# group leader's is the one in force).  Full: the shipped value (measuring the overlay's), 0
# (measuring the shipped), Kafka's default 300000 (measuring 0), the shipped again (measuring 300000).
if [ "$mode" = full ]; then
  ROLLS=("$SHIPPED_DELAY" 0 "$KAFKA_DEFAULT_DELAY" "$SHIPPED_DELAY")
else
  ROLLS=("$SHIPPED_DELAY")
fi
# REHEARSAL_DELAYS="D1 D2...": the delay each rolling restart gives its new pods (each roll
# measures the delay in force before it), for a sweep of candidate values.
if [ -n "${REHEARSAL_DELAYS:-}" ]; then
  read -ra ROLLS <<<"$REHEARSAL_DELAYS"
  for d in "${ROLLS[@]}"; do
    [[ "$d" =~ ^[0-9]+$ ]] || die "REHEARSAL_DELAYS must be milliseconds, got \"$d\"" 2
  done
fi
KAFKA_VERSION=$(timeout 60 podman run --rm --entrypoint cat "$IMAGE" /opt/kafka/VERSION.mm2kit-bed 2>/dev/null ||
  timeout 60 podman run --rm --entrypoint sh "$IMAGE" -c 'ls /opt/kafka/libs | sed -n "s/^kafka-clients-\(.*\)\.jar$/\1/p"')

# ---- worker pods (podman; tests/rehearsal/kube.bash replaces these on the cluster) ------------
wip() { bed_worker_ip "$1"; }
wname() { bed_worker_name "$1"; }
ACTIVE=()             # worker indexes, in the order they became Ready (oldest first)
declare -A DELAY=() GEN=()
LAST_INDEX=0
NEW=

pick_index() { # sets NEW: the next address round 1..9 that no live pod holds (a new pod IP)
  local n i a used
  for n in 1 2 3 4 5 6 7 8 9; do
    i=$(((LAST_INDEX + n - 1) % 9 + 1))
    used=
    for a in "${ACTIVE[@]}"; do [ "$a" = "$i" ] && used=1; done
    if [ -z "$used" ]; then LAST_INDEX=$i NEW=$i; return 0; fi
  done
  die "no free worker address"
}

pod_start() { # INDEX DELAY_MS|overlay: a pod from the rendered Deployment
  local i=$1 d=$2 name ip a args=()
  name=$(bed_worker_name "$i") ip=$(bed_worker_ip "$i")
  for a in "${POD_ARGS[@]}"; do args+=("${a//__POD_IP__/$ip}"); done
  if [ "$d" = overlay ]; then d=$OVERLAY_DELAY; else args+=(-e "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS=$d"); fi
  timeout 60 podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  timeout 120 podman run -d --name "$name" --hostname "$name" --network "$BED_NET" --ip "$ip" \
    "${BED_HOSTS[@]}" "${args[@]}" "$IMAGE" >/dev/null
  GEN[$i]=$((${GEN[$i]:-0} + 1))
  DELAY[$i]=$d
  event start worker="$name" ip="$ip" delay_ms="$d"
}

pod_ready() { # INDEX: the manifest's readiness command passes, as the kubelet runs it
  local i=$1 name end
  name=$(bed_worker_name "$i")
  end=$((SECONDS + START_BUDGET))
  until timeout 20 podman exec "$name" "${READY_CMD[@]}" >/dev/null 2>&1; do
    if [ "$(timeout 30 podman inspect -f '{{.State.Running}}' "$name" 2>/dev/null)" != true ]; then
      save_pod_log "$i"
      die "$name exited before it was Ready; see $LOGS/"
    fi
    [ $SECONDS -lt $end ] || { save_pod_log "$i"; die "$name not Ready within ${START_BUDGET}s; see $LOGS/"; }
    sleep 1
  done
  ACTIVE+=("$i")
  event ready worker="$name"
}

save_pod_log() { # INDEX: the pod's log, kept per incarnation
  local name
  name=$(bed_worker_name "$1")
  timeout 60 podman logs "$name" >"$LOGS/$name.${GEN[$1]:-0}.log" 2>&1 || true
}

forget() { # INDEX: no longer a live pod
  local a keep_=()
  for a in "${ACTIVE[@]}"; do [ "$a" = "$1" ] || keep_+=("$a"); done
  ACTIVE=("${keep_[@]}")
}

live_ip() { wip "${ACTIVE[0]}"; }
delay_of() { local i=${1:-none}; printf '%s' "${DELAY[$i]:-${2:-null}}"; }

leader_index() { # from the newest assignment a live worker logged
  local i line=
  for i in "${ACTIVE[@]}"; do
    line=$(timeout 30 podman logs --tail 5000 "$(bed_worker_name "$i")" 2>&1 |
      grep -o "leaderUrl='http://[0-9.]*:8088/'" | tail -n 1) || true
    [ -n "$line" ] && break
  done
  line=${line#leaderUrl=\'http://}
  line=${line%%:*}
  printf '%s' "${line##"$BED_WORKER_IP_PREFIX"}"
}

owned_partitions() { # IP: JSON list of the "topic/partition"s the tasks on that worker copy
  local base st tk
  base="http://$(live_ip):8088/connectors/$CONN"
  st=$(curl -s -m 10 "$base/status") || st='{}'
  tk=$(curl -s -m 10 "$base/tasks") || tk='[]'
  jq -nc --argjson st "$st" --argjson tk "$tk" --arg w "$1:8088" '
    [($st.tasks // [])[] | select(.worker_id == $w) | .id] as $ids
    | [$tk[] | select(.id.task as $t | $ids | index($t)) | .config["task.assigned.partitions"] // "" | split(",")[]
       | select(. != "") | sub("-(?<p>[0-9]+)$"; "/\(.p)")]' 2>/dev/null || echo '[]'
}

settled() { # SECONDS: no live worker logged a rebalance step in the last SECONDS
  local i
  for i in "${ACTIVE[@]}"; do
    if timeout 30 podman logs --since "${1}s" "$(bed_worker_name "$i")" 2>&1 |
      grep -qE 'Rebalance started|Joined group|Finished starting connectors and tasks'; then
      return 1
    fi
  done
}

wait_settled() { # SECONDS MAX
  local end=$((SECONDS + $2))
  until settled "$1"; do
    [ $SECONDS -lt $end ] || { log "the group did not settle for ${1}s within ${2}s; going on"; return 0; }
    sleep 1
  done
}

TASKS=0
# tasks_running: the connector and every task it has configured (MM2 may add tasks after it
# starts) RUNNING, each on a live pod; sets TASKS.
tasks_running() {
  local st n live i
  st=$(curl -s -m 10 "http://$(live_ip):8088/connectors/$CONN/status") || return 1
  n=$(curl -s -m 10 "http://$(live_ip):8088/connectors/$CONN/tasks" | jq 'length') || return 1
  live=$(for i in "${ACTIVE[@]}"; do printf '%s:8088\n' "$(wip "$i")"; done | jq -Rsc 'split("\n") | map(select(. != ""))')
  jq -e --argjson live "$live" --argjson n "$n" '$n > 0 and .connector.state == "RUNNING" and (.tasks | length) == $n
    and all(.tasks[]; .state == "RUNNING" and (.worker_id as $w | $live | index($w)))' >/dev/null 2>&1 <<<"$st" || return 1
  TASKS=$n
}

wait_tasks() { # SECONDS
  local end=$((SECONDS + $1))
  until tasks_running; do
    [ $SECONDS -lt $end ] || die "the connector and its tasks were not all RUNNING on live pods within $1 s: $(curl -s -m 10 "http://$(live_ip):8088/connectors/$CONN/status" | jq -c '[.connector.state, [.tasks[] | [.id, .state, .worker_id]]]')"
    sleep 1
  done
}

sigterm() { # INDEX PHASE: as the kubelet stops a pod (grace period 60 s)
  local i=$1 name ip leader parts t0 ms code
  name=$(bed_worker_name "$i") ip=$(bed_worker_ip "$i")
  leader=$(leader_index)
  parts=$(owned_partitions "$ip")
  event sigterm worker="$name" phase="$2" leader="$([ "$leader" = "$i" ] && echo true || echo false)" \
    leader_delay_ms="$(delay_of "$leader")" partitions="$parts"
  t0=$(now_ms)
  timeout 90 podman stop -t 60 "$name" >/dev/null
  ms=$(($(now_ms) - t0))
  code=$(timeout 30 podman inspect -f '{{.State.ExitCode}}' "$name")
  event stopped worker="$name" stop_ms="$ms" exit_code="$code"
  save_pod_log "$i"
  forget "$i"
  timeout 60 podman rm -f "$name" >/dev/null
  log "  SIGTERM $name ($([ "$leader" = "$i" ] && echo leader || echo member), tasks on $(jq -r 'join(" ")' <<<"$parts")): exit $code after $ms ms"
}

sigkill() { # INDEX PHASE
  local i=$1 name ip leader parts
  name=$(bed_worker_name "$i") ip=$(bed_worker_ip "$i")
  leader=$(leader_index)
  parts=$(owned_partitions "$ip")
  event sigkill worker="$name" phase="$2" leader="$([ "$leader" = "$i" ] && echo true || echo false)" \
    leader_delay_ms="$(delay_of "$leader")" partitions="$parts"
  timeout 60 podman kill -s KILL "$name" >/dev/null
  save_pod_log "$i"
  forget "$i"
  timeout 60 podman rm -f "$name" >/dev/null
  log "  SIGKILL $name ($([ "$leader" = "$i" ] && echo leader || echo member), tasks on $(jq -r 'join(" ")' <<<"$parts"))"
}

# roll PHASE DELAY: a rolling update as the Deployment does it (maxSurge 1, maxUnavailable 0):
# a new pod, Ready, then SIGTERM to the old pod Ready for the shortest time (the ReplicaSet's
# choice), until every old pod is replaced.  Replicating all along.
roll() {
  local phase=$1 d=$2 olds j old leader
  olds=("${ACTIVE[@]}")
  leader=$(leader_index)
  event phase name="$phase" start=true delay_ms="$d" leader_delay_ms="$(delay_of "$leader")"
  log "$phase: replacing ${#olds[@]} pods (new pods: scheduled.rebalance.max.delay.ms=$d; the leader's: $(delay_of "$leader"))"
  for ((j = ${#olds[@]} - 1; j >= 0; j--)); do
    old=${olds[$j]}
    pick_index
    pod_start "$NEW" "$d"
    pod_ready "$NEW"
    wait_settled "$SETTLE" 120
    sigterm "$old" "$phase"
  done
  leader=$(leader_index)
  wait_tasks $(($(delay_of "$leader" "$d") / 1000 + 180))
  sleep 5
  event phase name="$phase" end=true
}

# kills PHASE N: SIGKILL a pod (a member running a task, the leader, a member, ...), a new
# pod at once, Ready, the tasks back, then the next.
kills() {
  local phase=$1 n=$2 k leader victim i parts
  event phase name="$phase" start=true
  log "$phase: $n hard kill(s)"
  for ((k = 1; k <= n; k++)); do
    wait_settled "$SETTLE" 120
    leader=$(leader_index)
    victim=
    if [ $((k % 2)) = 0 ]; then
      victim=$leader
    else
      for i in "${ACTIVE[@]}"; do
        parts=$(owned_partitions "$(bed_worker_ip "$i")")
        if [ "$i" != "$leader" ] && [ "$(jq length <<<"$parts")" -gt 0 ]; then victim=$i; break; fi
      done
    fi
    [ -n "$victim" ] || victim=${ACTIVE[0]}
    sigkill "$victim" "$phase"
    pick_index
    pod_start "$NEW" "${DELAY[$victim]}"
    pod_ready "$NEW"
    wait_tasks $(($(delay_of "$leader" "$KAFKA_DEFAULT_DELAY") / 1000 + 180))
    sleep 5
  done
  event phase name="$phase" end=true
}

# evict PHASE: a node drain's eviction: SIGTERM to a member running tasks (the leader stays),
# then its replacement; the delay in force runs its full course.
evict() {
  local phase=$1 leader victim='' i parts
  wait_settled "$SETTLE" 120
  leader=$(leader_index)
  event phase name="$phase" start=true leader_delay_ms="$(delay_of "$leader")"
  log "$phase: one member evicted (the leader's delay: $(delay_of "$leader"))"
  for i in "${ACTIVE[@]}"; do
    parts=$(owned_partitions "$(bed_worker_ip "$i")")
    if [ "$i" != "$leader" ] && [ "$(jq length <<<"$parts")" -gt 0 ]; then victim=$i; break; fi
  done
  [ -n "$victim" ] || die "no member other than the leader runs a task"
  sigterm "$victim" "$phase"
  pick_index
  pod_start "$NEW" "${DELAY[$victim]}"
  pod_ready "$NEW"
  wait_tasks $(($(delay_of "$leader" "$KAFKA_DEFAULT_DELAY") / 1000 + 180))
  sleep 5
  event phase name="$phase" end=true
}

# ---- mm2-offsets as the Job runs it ------------------------------------------------------------
OJ_ENV=(-e "MM2_SOURCE_SASL_USERNAME=$BED_SOURCE_USER" -e "MM2_SOURCE_SASL_PASSWORD=$BED_SOURCE_PASSWORD"
  -e "MM2_TARGET_SASL_USERNAME=$BED_TARGET_USER" -e "MM2_TARGET_SASL_PASSWORD=$BED_TARGET_PASSWORD"
  -e "MM2_REST_PASSWORD=$BED_REST_PASSWORD")
declare -A STEP_MS=()
# oj STEP ARGS...: mm2-offsets ARGS with the rendered Job files at /etc/mm2-offsets and the
# cutover's work directory at /work (export, plan, resume, check: the operator's steps);
# stdout and stderr kept as CUT/STEP.out and .err; returns its exit code.
oj() {
  local step=$1 t0 rc=0
  shift
  t0=$(now_ms)
  timeout 300 podman run --rm --network "$BED_NET" "${BED_HOSTS[@]}" --add-host "mm2-connect:$(live_ip)" \
    --user 10001:10001 --read-only --tmpfs /tmp:rw,size=64m,mode=1777 --cap-drop ALL \
    --security-opt no-new-privileges --memory 256m -v "$JOBFILES:/etc/mm2-offsets:ro" -v "$CUT:/work:rw" -w /work \
    "${OJ_ENV[@]}" --entrypoint mm2-offsets "$IMAGE" "$@" >"$CUT/$step.out" 2>"$CUT/$step.err" || rc=$?
  STEP_MS[$step]=$(($(now_ms) - t0))
  event step name="$step" rc="$rc" ms="${STEP_MS[$step]}" t0="$t0"
  return "$rc"
}
INI=/etc/mm2-offsets/migration.ini
# op_sh STEP LINE: a command line of the runbook's "in the operator pod" blocks, as oj runs
# mm2-offsets (tests/rehearsal/runbook.bash, rbo).
# [connect] workers' headless Service, mm2-connect-workers, resolves to every live pod, as
# cluster DNS would.
op_sh() {
  local i hosts=()
  for i in "${ACTIVE[@]}"; do hosts+=(--add-host "mm2-connect-workers:$(wip "$i")"); done
  timeout 300 podman run --rm --network "$BED_NET" "${BED_HOSTS[@]}" --add-host "mm2-connect:$(live_ip)" "${hosts[@]}" \
    --user 10001:10001 --read-only --tmpfs /tmp:rw,size=64m,mode=1777 --cap-drop ALL \
    --security-opt no-new-privileges --memory 256m -v "$JOBFILES:/etc/mm2-offsets:ro" -v "$CUT:/work:rw" -w /work \
    "${OJ_ENV[@]}" --entrypoint sh "$IMAGE" -c "$2" >"$CUT/$1.out" 2>"$CUT/$1.err"
}

pods_up() { # the bed's brokers and 3 pods of the rendered Deployment
  timeout 300 "$BED" up 0 >"$LOGS/bed-up.log" 2>&1 || { cat "$LOGS/bed-up.log" >&2; die "the bed's brokers did not come up"; }
  local i
  for i in 1 2 3; do pick_index; pod_start "$NEW" overlay; done
  for i in 1 2 3; do pod_ready "$i"; done
}

run_job() { # the offset Job's container, exactly as rendered, against the live pods
  timeout 300 podman run --rm --network "$BED_NET" "${BED_HOSTS[@]}" --add-host "mm2-connect:$(live_ip)" \
    "${JOB_OPTS[@]}" "$IMAGE" "${JOB_CMD[@]}" >"$CUT/job.out" 2>"$CUT/job.err"
}

pod_facts() { # INDEX: "UID:GID READ_ONLY_ROOT CapEff:... LOGFILES"
  local name
  name=$(bed_worker_name "$1")
  printf '%s %s %s' "$(timeout 30 podman inspect -f '{{.Config.User}} {{.HostConfig.ReadonlyRootfs}}' "$name")" \
    "$(timeout 30 podman exec "$name" sh -c 'grep -E "^CapEff:" /proc/1/status | tr -d "\t "')" \
    "$(timeout 30 podman exec "$name" sh -c 'find /tmp -name "*.log" | wc -l')"
}

# On the cluster, the same steps with the cluster's pods (tests/rehearsal/kube.bash).
if [ "$on" = kube ]; then
  # shellcheck source=tests/rehearsal/kube.bash
  . "$here/kube.bash"
fi
# The runbook's own commands (rbo, rbw, rb_coverage).
# shellcheck source=tests/rehearsal/runbook.bash
. "$here/runbook.bash"

# ============================================================================================
log "bed: brokers (with an authorizer) and 3 pods of the rendered Deployment ($on)"
pods_up
event phase name="bed up" end=true
# Step 1's last line: no connector yet.
rbo no-connector no-connector 1 || die "mm2-probe connectors failed: $(cat "$CUT/no-connector.err")"
check runbook.no-connector "$(is_ok [ ! -s "$CUT/no-connector.out" ])" "step 1: mm2-probe connectors printed '$(tr '\n' ' ' <"$CUT/no-connector.out")' (nothing: no connector)"

# ---- the topics, and what replication must leave alone ---------------------------------------
SRC=$BED_SRC_BOOTSTRAP TGT=$BED_TGT_BOOTSTRAP
# Configs and ACLs that differ between the clusters: a sync would show.
kit 60 create-topics --bootstrap "$SRC" orders:4 payments:3 --config retention.ms=1209600000 --config max.message.bytes=2097152
kit 60 create-topics --bootstrap "$TGT" orders:4 payments:3 --config retention.ms=604800000
for t in orders payments; do
  kit 60 acl-add --bootstrap "$SRC" --principal User:orders-app --topic "$t" --operation READ
done
kit 60 acl-add --bootstrap "$TGT" --principal User:reporting --topic orders --operation READ
# The Flink job's group and transactional ids have their rows before the job runs, as in production.
GROUP=$(sed -n 's/^group.id *= *//p' "$JOBFILES/migration.ini")
[ "$GROUP" = flink-orders-copy ] || die "the Job's migration.ini names group \"$GROUP\", not flink-orders-copy"
kit 60 grant --name "flink group=$GROUP" --name "flink transactional id=flink-sink-" >/dev/null
kit 60 inventory --bootstrap "$SRC" --topics "$TOPIC_NAMES" >"$W/inventory-source-before.json"
kit 60 inventory --bootstrap "$TGT" --topics "$TOPIC_NAMES" >"$W/inventory-target-before.json"

# ---- the producers of the source, and the lag sampler -------------------------------------------
kit 7200 produce-loop --bootstrap "$SRC" --topics "$TOPICS" --rate "$RATE" --control "$W/ctl" --seed 7 \
  >"$LOGS/producer.out" 2>"$LOGS/producer.log" &
PRODUCER=$!
BG_PIDS+=("$PRODUCER")
kit 7200 sample --source "$SRC" --target "$TGT" --topics "$TOPIC_NAMES" --control "$W/ctl" \
  --out "$W/samples.jsonl" --interval 0.5 >"$LOGS/sampler.out" 2>"$LOGS/sampler.log" &
SAMPLER=$!
BG_PIDS+=("$SAMPLER")
event phase name="producing" start=true rate="$RATE"
sleep "$WARMUP"

# ---- the Flink job: two checkpoints, the last one's sink transaction left open -----------------
ends() { kit 60 ends --bootstrap "$SRC" --topic "$1"; }
# upto TOPIC LAG [P:C overrides...]: "P:end-LAG,..." for every partition of TOPIC.
upto() {
  local t=$1 lag=$2 e
  shift 2
  e=$(ends "$t")
  jq -r --argjson lag "$lag" --arg over "$*" '
    ($over | split(" ") | map(select(. != "") | split(":") | {(.[0]): .[1]}) | add // {}) as $o
    | to_entries | map("\(.key):\($o[.key] // ([.value - $lag, 0] | max))") | join(",")' <<<"$e"
}
log "flink: checkpoint 1 (orders-1 stays at C = 0)"
kit 120 flink-copy --source "$SRC" --target "$TGT" --group "$GROUP" --topic orders --upto "$(upto orders 30 1:0)" >/dev/null
kit 120 flink-copy --source "$SRC" --target "$TGT" --group "$GROUP" --topic payments --upto "$(upto payments 30)" >/dev/null
sleep 3
# The runbook's steps 2 and 3: preflight, before Flink stops (its C committed: the retention
# headroom is checked); on kube also the workers' own principal, in a worker.
preflight_check() { # STEP RC
  check "runbook.$1" "$(is_ok [ "$2" = 0 ])" "preflight exited $2: $(grep -h 'info: [0-9]* passed' "$CUT/$1.err") $(grep -h 'refused:' "$CUT/$1.err" | head -n 3 | tr '\n' ' ')"
}
rc=0
rbo preflight-1 preflight-1 1 || rc=$?
preflight_check preflight-1 "$rc"
if [ "$on" = kube ]; then
  rc=0
  # A worker has no INI: the runbook's line takes the INI's answers (the bed's one broker: 1, 1).
  # (Both lines: the block's placeholders are filled for the whole block.)
  answers=("INTERNAL_REPLICATION_FACTOR=$(sed -n 's/^internal.replication.factor *= *//p' "$JOBFILES/migration.ini")"
    "INTERNAL_MIN_INSYNC_REPLICAS=$(sed -n 's/^internal.min.insync.replicas *= *//p' "$JOBFILES/migration.ini")")
  { rbw preflight-workers preflight-workers 1 "${answers[@]}" &&
    rbw preflight-workers-save preflight-workers 2 "${answers[@]}"; } || rc=$?
  check runbook.preflight-workers "$(is_ok [ "$rc" = 0 ] && jq -e '.refused == false' "$CUT/preflight-workers.json" >/dev/null)" \
    "preflight --workers in a worker exited $rc: $(jq -c '[.findings[] | select(.severity != "pass") | .message[0:120]]' "$CUT/preflight-workers.json" 2>/dev/null)"
fi
# payments-0 gets no new record until after the cutover: its C will be its log end.
echo payments:0 >"$W/ctl/hold"
end=$((SECONDS + 30))
until jq -e '.held == ["payments:0"]' "$W/ctl/state.json" >/dev/null 2>&1; do
  [ $SECONDS -lt $end ] || die "the producer did not hold payments-0"
  sleep 0.2
done
sleep 2
log "flink: checkpoint 2, EXACTLY_ONCE: its sink transaction stays open on the target"
ORDERS_C=$(upto orders 15 1:0)
PAYMENTS_C=$(upto payments 15 "0:$(ends payments | jq -r '."0"')")
kit 600 flink-copy --source "$SRC" --target "$TGT" --group "$GROUP" --topic orders --upto "$ORDERS_C" \
  --from-committed --txn-id flink-sink-0 --txn-timeout-ms 300000 --txn-release "$W/ctl/release" \
  --status "$W/ctl/txn-orders.json" >"$LOGS/flink-orders.out" 2>"$LOGS/flink-orders.log" &
BG_PIDS+=("$!")
FLINK_O=$!
# REHEARSAL_ABORTED=1: payments' last transaction is never committed; the broker aborts it.
if [ "$ABORTED" = 1 ]; then
  PAYMENTS_TXN=(--txn-timeout-ms "$ABORTED_TXN_MS" --abort-last "$ABORTED_K")
else
  PAYMENTS_TXN=(--txn-timeout-ms 300000 --txn-release "$W/ctl/release")
fi
kit 600 flink-copy --source "$SRC" --target "$TGT" --group "$GROUP" --topic payments --upto "$PAYMENTS_C" \
  --from-committed --txn-id flink-sink-1 "${PAYMENTS_TXN[@]}" \
  --status "$W/ctl/txn-payments.json" >"$LOGS/flink-payments.out" 2>"$LOGS/flink-payments.log" &
BG_PIDS+=("$!")
FLINK_P=$!
end=$((SECONDS + 120))
until jq -e '.transaction == "open"' "$W/ctl/txn-orders.json" "$W/ctl/txn-payments.json" >/dev/null 2>&1; do
  [ $SECONDS -lt $end ] || die "the Flink-like copier did not reach its checkpoint"
  sleep 0.2
done
if [ "${REHEARSAL_FAULT:-}" = group-ahead ]; then
  ahead=$(($(cut -d, -f1 <<<"$ORDERS_C" | cut -d: -f2) + 5))
  kit 60 commit --bootstrap "$SRC" --group "$GROUP" --topic orders --offsets "0:$ahead"
  log "fault injected: the group's C for orders-0 is $ahead, 5 records past what the sink wrote"
fi
event flink-stopped orders="$ORDERS_C" payments="$PAYMENTS_C"
log "flink stopped at C: orders $ORDERS_C; payments $PAYMENTS_C"

# ---- the cutover ------------------------------------------------------------------------------
# REHEARSAL_ABORTED=1: plan must refuse every payments partition as behind by ABORTED_K (the
# records of the aborted transaction, [C - k, C)), and nothing else; then --start-at-gap plans
# MM2's start at C - k on each, so MM2 copies them (the final audit counts them).
flink_gap() {
  local rc=0 want got gaps
  oj plan-behind plan --config "$INI" --export export.json --out plan-behind.json || rc=$?
  want=$(jq -r --argjson k "$ABORTED_K" 'to_entries | map("payments-\(.key) \($k)") | sort | join(",")' <<<"$(ends payments)")
  got=$(sed -n 's/.*refused: \(payments-[0-9]*\): the target ends \([0-9]*\) records before C=.*\[rule flink-gap\]$/\1 \2/p' "$CUT/plan-behind.err" | sort | paste -sd, -)
  if [ "$rc" = 1 ] && [ "$got" = "$want" ] && [ ! -e "$CUT/plan-behind.json" ] &&
    [ "$(grep -c 'refused:' "$CUT/plan-behind.err")" = "$(jq 'length' <<<"$(ends payments)")" ]; then
    check cutover.flink-gap-refused 0 "plan refused the partitions whose last sink transaction the broker aborted, each behind C by $ABORTED_K: $got [rule flink-gap]"
  else
    check cutover.flink-gap-refused 1 "plan exited $rc; behind by: ${got:-none} (want $want): $(grep 'refused:' "$CUT/plan-behind.err" | head -n 3 | tr '\n' ' ')"
  fi
  gaps=$(jq -r 'to_entries | map("--start-at-gap payments:\(.key)") | join(" ")' <<<"$(ends payments)")
  # shellcheck disable=SC2086 # one word per option and value
  oj plan plan --config "$INI" --export export.json --out plan.json -q $gaps || die "plan --start-at-gap refused: $(cat "$CUT/plan.err")"
  got=$(jq -c '[.partitions[] | select(.gap > 0) | [.topic, .partition, .gap, .group_c - .c]]' "$CUT/plan.json")
  check cutover.flink-gap-planned "$(is_ok jq -e --argjson k "$ABORTED_K" 'length == 3 and all(.[]; .[0] == "payments" and .[2] == $k and .[3] == $k)' <<<"$got")" \
    "plan --start-at-gap: [topic, partition, gap, C - MM2's start] $got"
  event flink-gap k="$ABORTED_K"
}
rc=0
rbo preflight-2 preflight-2 1 || rc=$?
preflight_check preflight-2 "$rc"
log "cutover: export, plan (a transaction is open on the target)"
# The runbook's step 5 and 6 lines (its export waits 1.5 checkpoint intervals of the bed's INI).
rbo export-open export 1 || die "export failed: $(cat "$CUT/export-open.err")"
cp "$CUT/export.json" "$CUT/export-open.json"
rc=0
rbo plan-open plan 1 || rc=$?
if [ "$rc" = 1 ] && grep -qF '[rule open-transaction]' "$CUT/plan-open.err" && [ ! -e "$CUT/plan.json" ]; then
  check cutover.open-transaction-refused 0 "plan refused while Flink's sink transaction was open: $(grep -c 'rule open-transaction' "$CUT/plan-open.err") partition(s) [rule open-transaction]"
else
  check cutover.open-transaction-refused 1 "plan exited $rc with the transaction open: $(tail -n 3 "$CUT/plan-open.err" | tr '\n' ' ')"
fi
# Resolved as Flink's committer does once the checkpoint is complete: the transaction commits.
t_wait=$(now_ms)
touch "$W/ctl/release"
wait "$FLINK_O" || die "the Flink-like copier failed to commit its transaction; see $LOGS/flink-orders.log"
event txn-committed wait_ms="$(($(now_ms) - t_wait))"
# With REHEARSAL_ABORTED=1 this waits until the broker has aborted payments' last transaction.
wait "$FLINK_P" || die "the Flink-like copier of payments failed; see $LOGS/flink-payments.log"
log "cutover: the sink transaction committed; export, plan, the Job (apply + verify), resume"
rbo export export 1 || die "export failed: $(cat "$CUT/export.err")"
if [ "$on" = kube ]; then rbw save-export save-export 1 || die "step 5's copy of /work failed: $(cat "$CUT/save-export.err")"; fi
if [ "$ABORTED" = 1 ]; then
  flink_gap
else
  rbo plan plan 1 || die "plan refused: $(cat "$CUT/plan.err")"
fi
DIGEST=$(tr -d '[:space:]' <"$CUT/plan.out")
if [ "$on" = kube ]; then
  for n in 1 2 3 4; do rbw "plan-review-$n" plan-review "$n" || die "step 6's review line $n failed: $(cat "$CUT/plan-review-$n.err")"; done
  check runbook.plan-review "$(is_ok [ "$(cat "$CUT/plan-review-4.out")" = "$DIGEST" ])" "step 6's review: the plan's digest $(cat "$CUT/plan-review-4.out"), plan printed $DIGEST"
fi
install -m 0644 "$CUT/plan.json" "$W/k8s-job/plan/plan.json"
t0=$(now_ms)
rc=0
run_job || rc=$?
STEP_MS[job]=$(($(now_ms) - t0))
event step name=job rc="$rc" ms="${STEP_MS[job]}" t0="$t0"
[ "$rc" = 0 ] || die "the offset Job failed ($rc): $(tail -n 5 "$CUT/job.err")"
NPART=$(jq '.partitions | length' "$CUT/plan.json")
if [ "$(jq -sc 'map([.ok, .state, .checked])' "$CUT/job.out")" = "[[true,\"STOPPED\",$NPART],[true,\"STOPPED\",$NPART]]" ]; then
  check cutover.job 0 "the Job applied and verified all $NPART partitions; the connector is STOPPED"
else
  check cutover.job 1 "the Job's reports: $(jq -sc 'map([.ok, .state, .checked])' "$CUT/job.out")"
fi
state=$(curl -s -m 10 "http://$(live_ip):8088/connectors/$CONN/status" | jq -c '[.connector.state, (.tasks | length)]')
check cutover.job-never-resumes "$(is_ok [ "$state" = '["STOPPED",0]' ])" "after the Job: [connector state, tasks] $state"
# Step 7's apply in the operator pod, on the Job's unchanged STOPPED connector: nothing changes,
# it verifies; then step 8.
rc=0
{ rbo apply-in-pod apply-in-pod 1 && rbo verify-apply apply-in-pod 2; } || rc=$?
check runbook.apply-again "$(is_ok [ "$rc" = 0 ])" "step 7's apply and verify in the operator pod after the Job: exit $rc; $(grep -h 'info: \(backed up\|verified\)' "$CUT/apply-in-pod.err" | cut -c1-200 | tr '\n' ' ')"
rbo verify verify 1 || die "verify failed: $(cat "$CUT/verify.err")"
check runbook.verify "$(is_ok jq -e '.ok == true' "$CUT/verify.json")" "step 8: $(tail -n 2 "$CUT/verify.err" | head -n 1)"
if [ "$on" = kube ]; then
  rbw save-verify save-verify 1 || die "step 8's copy of /work failed: $(cat "$CUT/save-verify.err")"
  { rbw approve-1 approve 1 && rbw approve-2 approve 2; } || die "step 9's approval lines failed: $(cat "$CUT/approve-2.err")"
  check runbook.approve "$(is_ok [ "$(cat "$CUT/approve-1.out")" = "$DIGEST" ] && grep -qF "$DIGEST" "$CUT/approve-2.out")" \
    "step 9: the plan's digest $(cat "$CUT/approve-1.out"); the Job's log: $(cut -c1-200 "$CUT/approve-2.out")"
fi
# A person approves the plan's digest; nothing waits for it here.
rbo resume resume 1 "PLAN_DIGEST=$DIGEST" || die "resume failed: $(cat "$CUT/resume.err")"
event resumed
check cutover.resume 0 "$(tail -n 1 "$CUT/resume.err")"
# The bed's INI agrees to a pause of an hour ([policy] max.pause.seconds): resume says how much is used.
check runbook.pause "$(is_ok grep -q 'info: the pause is [0-9]* s since the plan was made, within \[policy\] max.pause.seconds = 3600$' "$CUT/resume.err")" \
  "resume: $(grep -h 'the pause is' "$CUT/resume.err" | cut -c1-200)"
rm -f "$W/ctl/hold"
rc=0
rbo check check 1 || rc=$?
if [ "$rc" = 0 ]; then
  check cutover.check 0 "mm2-offsets check: $(jq -c '{equal, pending, failed}' "$CUT/check.out")"
else
  check cutover.check 1 "mm2-offsets check exited $rc: $(tail -n 3 "$CUT/check.err" | tr '\n' ' ')"
fi
rbo status-10 check 2 || log "step 10's status exited $?: $(tail -n 2 "$CUT/status-10.err" | tr '\n' ' ')"
if [ "$on" = kube ]; then rbw save-check save-check 1 || die "step 10's copy of /work failed: $(cat "$CUT/save-check.err")"; fi
jq -c '[.partitions[] | {key: "\(.topic)/\(.partition)", value: .target_start}] | from_entries' "$CUT/plan.json" >"$W/first-from.json"
event phase name=cutover end=true

# ---- bounces while producing ----------------------------------------------------------------------
audit() { # NAME [--final]: every source record so far against the target
  local name=$1 rc=0
  shift
  kit 60 ends --bootstrap "$SRC" --topic orders | jq -c 'with_entries(.key = "orders/" + .key)' >"$W/ends-o.json"
  kit 60 ends --bootstrap "$SRC" --topic payments | jq -c 'with_entries(.key = "payments/" + .key)' >"$W/ends-p.json"
  jq -s 'add' "$W/ends-o.json" "$W/ends-p.json" >"$W/ends-$name.json"
  kit 900 audit --source "$SRC" --target "$TGT" --topics "$TOPIC_NAMES" --ends "$W/ends-$name.json" \
    --plan "$CUT/plan.json" --first-from "$W/first-from.json" --timeout 600 "$@" >"$W/audit-$name.json" 2>"$LOGS/audit-$name.log" || rc=$?
  event audit name="$name" rc="$rc"
  log "audit $name: $(jq -c '.totals | {source, target, lost, duplicates, mismatched}' "$W/audit-$name.json")"
}

wait_tasks 120
i=0
for d in "${ROLLS[@]}"; do
  i=$((i + 1))
  roll "rolling restart $i" "$d"
  if [ "$i" = 1 ]; then
    audit after-roll-1
    kills "hard kills" "$KILLS"
    audit after-kills
    # Step 11's look at a restarted worker's previous log, while the killed pod is still there
    # (the full run's later rolling updates replace it).
    if [ "$on" = kube ]; then
      rbw worker-log worker-log 1 "WORKER_POD=$LAST_KILLED" || die "step 11's logs --previous of $LAST_KILLED failed: $(cat "$CUT/worker-log.err")"
      check runbook.worker-log "$(is_ok [ -s "$CUT/worker-log.out" ])" "step 11: kubectl logs --previous $LAST_KILLED: $(wc -l <"$CUT/worker-log.out") lines"
    fi
  fi
  # In a rolling update the leader's replacement ends any pending delay early (a new
  # leader reassigns at once); an eviction shows Kafka's default delay running its course.
  if [ "$mode" = full ] && [ "$d" = "$KAFKA_DEFAULT_DELAY" ]; then evict "eviction at $KAFKA_DEFAULT_DELAY"; fi
done

# Step 11, still producing.
rc=0
{ rbo observe-status observe 1 && rbo observe-probe observe 2; } || rc=$?
check runbook.observe "$(is_ok [ "$rc" = 0 ])" "step 11: status exit $rc; $(grep -h '^total lag' "$CUT/observe-status.out"); $(cat "$CUT/observe-probe.out" 2>/dev/null)"
if [ "$on" = kube ]; then
  { rbw observe-pods observe-pods 1 && rbw observe-monitor observe-pods 2; } || die "step 11's kubectl lines failed: $(cat "$CUT/observe-pods.err" "$CUT/observe-monitor.err")"
fi

# ---- the end: the producer stops, the target catches up ----------------------------------------
touch "$W/ctl/stop"
wait "$PRODUCER" || die "the producer failed; see $LOGS/producer.log"
event phase name=producing end=true
log "producer stopped: $(cat "$LOGS/producer.out")"
audit final --final
touch "$W/ctl/stop-sampler"
wait "$SAMPLER" || die "the sampler failed; see $LOGS/sampler.log"

# Connect committed the last record of every partition (offset.flush.interval.ms 10 s).
want=$(jq -Sc 'to_entries | map({key, value: (.value - 1)}) | from_entries' "$W/ends-final.json")
end=$((SECONDS + 60))
while :; do
  got=$(curl -s -m 30 "http://$(live_ip):8088/connectors/$CONN/offsets" |
    jq -Sc '[.offsets[] | {key: "\(.partition.topic)/\(.partition.partition)", value: .offset.offset}] | from_entries')
  [ "$got" = "$want" ] && break
  [ $SECONDS -lt $end ] || break
  sleep 2
done
check connect.offsets-at-end "$(is_ok [ "$got" = "$want" ])" "Connect's offsets $got; source log ends - 1: $want"
ok=1
tasks_running && ok=0
check connect.running "$ok" "connector and its $TASKS tasks RUNNING on live pods: $(curl -s -m 10 "http://$(live_ip):8088/connectors/$CONN/status" | jq -c '[.connector.state, [.tasks[].state]]')"
oj status status --config "$INI" --plan plan.json --format json || true

# ---- §7.1 ----------------------------------------------------------------------------------------
curl -s -m 10 "http://$(live_ip):8088/connectors?expand=info" >"$W/connectors.json"
conns=$(jq -c '[to_entries[] | [.key, .value.info.config["connector.class"]]]' "$W/connectors.json")
check 7.1.connectors "$(is_ok [ "$conns" = "[[\"$CONN\",\"org.apache.kafka.connect.mirror.MirrorSourceConnector\"]]" ])" "connectors: $conns (no MirrorCheckpointConnector, no MirrorHeartbeatConnector)"
kit 60 inventory --bootstrap "$SRC" --topics "$TOPIC_NAMES" >"$W/inventory-source-after.json"
kit 60 inventory --bootstrap "$TGT" --topics "$TOPIC_NAMES" >"$W/inventory-target-after.json"
for c in source target; do
  bad=$(jq -c '[.topics[] | select(test("(^|[.])heartbeats$|[.]checkpoints[.]internal$|^mm2-offset-syncs[.]|^mm2-(configs|offsets|status)[.]"))]' "$W/inventory-$c-after.json")
  check "7.1.no-mm2-internal-topics-$c" "$(is_ok [ "$bad" = '[]' ])" "$c topics: $(jq -c '.topics' "$W/inventory-$c-after.json"); heartbeats/checkpoints/offset-syncs: $bad"
  # Kafka's own __consumer_offsets and __transaction_state appear on first use of a group
  # or a transaction (the copier's): the brokers', not replication's; and mm2-offsets' audit
  # trail on the target (mm2kit.trail, made by the first command that records), not MM2's.
  for k in topics configs partitions acls; do
    b=$(jq -c ".$k | if type == \"array\" then map(select(startswith(\"__\") or . == \"mm2kit.trail\" | not)) else . end" "$W/inventory-$c-before.json")
    a=$(jq -c ".$k | if type == \"array\" then map(select(startswith(\"__\") or . == \"mm2kit.trail\" | not)) else . end" "$W/inventory-$c-after.json")
    ok=1
    [ "$b" = "$a" ] && [ "$a" != null ] && ok=0
    check "7.1.$k-unchanged-$c" "$ok" "$c $k before: $b; after: $a"
  done
done
groups=$(jq -c '.groups' "$W/inventory-target-after.json")
check 7.1.no-group-sync "$(is_ok jq -e --arg g "$BED_GROUP" '.groups - [$g] == []' "$W/inventory-target-after.json")" \
  "consumer groups on the target: $groups (a group offset sync would write $GROUP's offsets into a consumer group there)"

# The pods: UID 10001, read-only root, no capability, the Pod IP advertised, metrics, stdout logs.
pods_ok=0 detail=
for i in "${ACTIVE[@]}"; do
  name=$(wname "$i")
  read -r uidgid ro capeff files <<<"$(pod_facts "$i")"
  who="$uidgid $ro"
  metrics=$(curl -s -m 10 "http://$(wip "$i"):18088/metrics" | grep -c '^kafka_connect_worker_' || true)
  detail+="$name: $who $capeff, $files log files in /tmp, $metrics worker metrics; "
  [ "$who" = "10001:10001 true" ] && [ "$capeff" = CapEff:0000000000000000 ] && [ "$files" = 0 ] && [ "$metrics" -gt 0 ] || pods_ok=1
done
check pods.identity-metrics-logs "$pods_ok" "$detail"
adv=$(curl -s -m 10 "http://$(live_ip):8088/connectors/$CONN/status" | jq -c '[.connector.worker_id, .tasks[].worker_id] | unique')
live=$(for i in "${ACTIVE[@]}"; do printf '%s:8088\n' "$(wip "$i")"; done | jq -Rsc 'split("\n") | map(select(. != ""))')
check pods.advertise-pod-ip "$(is_ok jq -e --argjson live "$live" 'all(.[]; . as $w | $live | index($w))' <<<"$adv")" "workers named by Connect: $adv; live pod IPs: $live"
stops=$(jq -sc '[.[] | select(.kind == "stopped") | [.exit_code, .stop_ms]]' "$W/events.jsonl")
check pods.sigterm-clean "$(is_ok jq -e 'length > 0 and all(.[]; .[0] == 143 and .[1] < 60000)' <<<"$stops")" "every SIGTERM: [exit code, ms] $stops (143 = clean, inside the 60 s grace period)"

# ---- the runbook's step 12 and its rollback after MM2 started, once everything is checked ---------
if [ "$on" = kube ]; then
  { rbw wrap-up-1 wrap-up 1 && rbw wrap-up-2 wrap-up 2; } || die "step 12 failed: $(cat "$CUT/wrap-up-1.err" "$CUT/wrap-up-2.err")"
fi
# Before MM2 started, remove; after, it refuses and says what to run instead.
rc=0
rbo remove remove 1 || rc=$?
check runbook.remove-refused "$(is_ok [ "$rc" = 1 ] && grep -qF 'nothing was removed: if MM2 ran, run stop, then rollback-plan' "$CUT/remove.err")" \
  "rollback: remove after MM2 ran exited $rc: $(grep -h 'error:' "$CUT/remove.err" | tail -n 1)"
if [ "$on" = kube ]; then rbw save-remove save-remove 1 || die "the rollback's copy of /work failed"; fi
rc=0
{ rbo stop stop 1 && rbo stop-probe stop 2; } || rc=$?
check runbook.stop "$(is_ok [ "$rc" = 0 ] && grep -q "^$CONN STOPPED tasks=0/0" "$CUT/stop-probe.out")" "rollback: stop exit $rc; $(cat "$CUT/stop-probe.out")"
rc=0
rbo rollback-plan rollback-plan 1 || rc=$?
# Flink's C = M + 1 = every source log end: MM2 copied every record.
want=$(jq -r 'to_entries[] | "\(.key | sub("/"; ",")),\(.value)"' "$W/ends-final.json" | sort)
got=$(grep -v '^#' "$CUT/rollback.csv" 2>/dev/null | sort)
check runbook.rollback-plan "$(is_ok [ "$rc" = 0 ] && [ "$got" = "$want" ])" \
  "rollback: rollback-plan --commit exit $rc; rollback.csv $(tr '\n' ' ' <<<"$got"); the source's log ends $(tr '\n' ' ' <<<"$want")"
# Step 12's audit trail, after the rollback: every step recorded whole, and the files restored.
rc=0
{ rbo trail trail 1 && rbo trail-restore trail-restore 1; } || rc=$?
check runbook.trail "$(is_ok [ "$rc" = 0 ] && grep -q 'trail: whole: ' "$CUT/trail.err")" \
  "step 12: status --trail exit $rc: $(cat "$CUT/trail.err" "$CUT/trail-restore.err" 2>/dev/null | grep -h 'error:' | tail -n 2 | tr '\n' ' ')"
if [ "$on" = kube ]; then
  rbw save-rollback save-rollback 1 || die "the rollback's copy of /work failed"
  for n in 1 2 3 4 5; do rbw "operator-again-$n" operator-again "$n" || die "the operator pod, again: line $n failed: $(cat "$CUT/operator-again-$n.err")"; done
fi
rb_coverage

# ---- no secret anywhere: every container's log kept, then the bed removed ------------------------
for i in "${ACTIVE[@]}"; do save_pod_log "$i"; done
for c in "$BED_SRC" "$BED_TGT"; do timeout 60 podman logs "$c" >"$LOGS/$c.log" 2>&1 || true; done
backend_record
if [ -z "$keep" ] && [ "$on" = kube ]; then
  log "removing the cluster and the bed (logs kept in $LOGS)"
  backend_down
elif [ -z "$keep" ]; then
  log "removing the bed (logs kept in $LOGS)"
  for i in "${ACTIVE[@]}"; do timeout 90 podman stop -t 60 "$(bed_worker_name "$i")" >/dev/null 2>&1 || true; done
  timeout 300 "$BED" down >/dev/null 2>&1 || true
  # bed.sh down keeps each container's log as NAME.log: the pods' are kept per incarnation.
  for i in "${ACTIVE[@]}"; do rm -f "$LOGS/$(bed_worker_name "$i").log"; done
fi
# Every file of the run but the bed brokers' own server.properties, which must hold the
# brokers' user database (bed.sh); the rehearsal writes no credential anywhere.
# Nor the REST users' passwords, outside the Secret's own files (secret-volumes: what the
# kubelet would project into the pod).
found=$(grep -rlF --exclude="$BED_NAME-*.properties" --exclude-dir=secret-volumes --exclude-dir=rest-auth \
  -e "$BED_CONNECT_PASSWORD" -e "$BED_SOURCE_PASSWORD" -e "$BED_TARGET_PASSWORD" -e "$BED_REST_PASSWORD" \
  -e "$BED_REST_PROBE_PASSWORD" "$W" 2>/dev/null | sed "s|^$W/||" | tr '\n' ' ' || true)
check secrets.nowhere "$(is_ok [ -z "$found" ])" "a bed password (a sentinel) in: ${found:-no log, artifact or output of the run}"

# ---- the report ------------------------------------------------------------------------------------
T_END=$(now_ms)
steps=$(for k in "${!STEP_MS[@]}"; do printf '%s\t%s\n' "$k" "${STEP_MS[$k]}"; done | jq -Rsc 'split("\n") | map(select(. != "") | split("\t") | {(.[0]): (.[1] | tonumber)}) | add')
jq -n --arg mode "$mode" --argjson rate "$RATE" --arg image "$IMAGE" --arg kafka "$KAFKA_VERSION" \
  --argjson overlay "$OVERLAY_DELAY" --argjson shipped "$SHIPPED_DELAY" --argjson kafka_default "$KAFKA_DEFAULT_DELAY" \
  --argjson t0 "$T_START" --argjson t1 "$T_END" --argjson steps "$steps" --argjson kills "$KILLS" \
  --arg bed "$BED_NAME $BED_SUBNET" --arg image_id "$(timeout 30 podman image inspect -f '{{.Id}}' "$IMAGE" | cut -c1-12)" \
  --arg digest "$DIGEST" --argjson tasks "$TASKS" --arg on "$on" --arg overlay_name "$OVERLAY_NAME" \
  --arg kube_version "${KUBE_VERSION:-}" \
  '{mode: $mode, on: $on, overlay: $overlay_name, kube_version: $kube_version, rate: $rate, image: $image, image_id: $image_id, kafka: $kafka, overlay_delay_ms: $overlay,
    shipped_delay_ms: $shipped, kafka_default_delay_ms: $kafka_default, start_ms: $t0, end_ms: $t1, steps_ms: $steps,
    kills: $kills, bed: $bed, plan_digest: $digest, tasks: $tasks}' >"$W/meta.json"
rc=0
python3 "$here/report.py" "$W" || rc=$?
# The report itself must not carry the secret either.
if grep -qF -e "$BED_CONNECT_PASSWORD" -e "$BED_SOURCE_PASSWORD" -e "$BED_TARGET_PASSWORD" "$W/REPORT.md" "$W/lag.svg"; then
  printf 'rehearsal: FAIL: secrets.nowhere: the connect password is in the report\n' >&2
  rc=1
fi
log "done in $(((T_END - T_START) / 1000)) s; report: $W/REPORT.md"
exit "$rc"
