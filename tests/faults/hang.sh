#!/usr/bin/env bash
# make faults-hang: tries to make a worker hang in Connect's shutdown, on purpose, and measures
# how often it does.
#
#   tests/faults/hang.sh [--variant new|member] [N] [DELAYS]
#        (HANG_VARIANT; default new; N stops, default 20; DELAYS seconds, default "0 0.5 1 2 3 5")
#
# A bed of its own (BED_NAME mm2kit-faulthang, 198.18.15.0/24, build/faults-hang) with 3
# workers running a MirrorSourceConnector (6 tasks) while a producer writes.  A rebalance
# assignment is a worker's log line "Joined group at generation G ... taskIds=[...]", which
# lists the tasks it newly gets (Connect's incremental cooperative protocol).
#   new     a fourth worker joins; once a rebalance hands it a task it waits one of DELAYS and
#           is stopped; the group gets its tasks back on the three workers; again.
#   member  an existing member is stopped instead, twice a round: (1) a new worker joins and a
#           member is stopped DELAY after its first rebalance since the join; (2) that member's
#           tasks wait scheduled.rebalance.max.delay.ms, then the leader hands them to the
#           survivors, and the first survivor given a task is stopped DELAY after that
#           assignment.  New workers (up to 5 slots) bring the group back to three; again.
#           All along, every second, each worker gets a GET /health (the readiness probe's
#           request) and a GET /connectors?expand=status (a monitor's), as in a cluster.
# A stop is the kubelet's (SIGTERM, SIGKILL after 60 s).  One that has not ended after 25 s
# (Connect bounds its own herder shutdown at about 23 s) gets a SIGQUIT, so the JVM writes a
# thread dump to stdout, the pod's log, and another at 45 s; the log of a stop that hung or
# exited other than 143 is kept in build/faults-hang/logs/.
#
# HANG_DEADLINE (seconds since the epoch, optional) ends the run early, after the stop that
# passes it, with the stops made so far counted: as many rounds as a time slot allows.
# Prints one JSON line per stop and a last line "hang: H of N stops hung (...)"; the figures
# go to build/faults-hang/rounds.jsonl.  Exit codes: 0 no stop hung; 1 at least one hung (or
# exited other than 143); 2 usage; 3 the image or the tools are missing; 4 the bed did not
# come up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
variant=${HANG_VARIANT:-new}
if [ "${1:-}" = --variant ]; then
  variant=${2:-}
  shift 2 || true
fi
case $variant in new | member) ;; *) printf 'hang: --variant must be new or member, got "%s"\n' "$variant" >&2; exit 2 ;; esac
n=${1:-20}
read -ra DELAYS <<<"${2:-0 0.5 1 2 3 5}"
[[ "$n" =~ ^[1-9][0-9]{0,2}$ ]] || { printf 'hang: N must be 1..999, got "%s"\n' "$n" >&2; exit 2; }
deadline=${HANG_DEADLINE:-}
[ -z "$deadline" ] || [[ "$deadline" =~ ^[0-9]{10}$ ]] || { printf 'hang: HANG_DEADLINE must be seconds since the epoch, got "%s"\n' "$deadline" >&2; exit 2; }
# past_deadline: HANG_DEADLINE is set and has passed.
past_deadline() { [ -n "$deadline" ] && [ "$(date +%s)" -ge "$deadline" ]; }
for d in "${DELAYS[@]}"; do
  [[ "$d" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { printf 'hang: delays must be seconds, got "%s"\n' "$d" >&2; exit 2; }
done

# Not mm2kit-faults-*: the fault matrix's bed removes every container its name prefixes, so the
# two beds could not run side by side.
export BED_NAME=mm2kit-faulthang BED_OCTET=15 BED_DIR=$root/build/faults-hang
# shellcheck source=tests/bed/bed.env
. "$root/tests/bed/bed.env"
# shellcheck source=tests/faults/faultlib.bash
. "$here/faultlib.bash"
: "${MM2KIT_CACHE:=/var/cache/mm2kit}"
KPY=$MM2KIT_CACHE/venv/bin/python3
BED=$root/tests/bed/bed.sh
W=$BED_DIR
CONN=hang-mm2
NEWW=4
[ -x "$KPY" ] || { printf 'hang: error: the bed'"'"'s Python tools are missing; run make deps\n' >&2; exit 3; }
timeout 60 podman image exists "$IMAGE" || { printf 'hang: error: image %s not found; run make image\n' "$IMAGE" >&2; exit 3; }

log() { printf 'hang: %s\n' "$*" >&2; }
die() { printf 'hang: error: %s\n' "$1" >&2; exit "${2:-4}"; }
kit() { # SECONDS ARGS...: bedkit through bed.sh kit (the admin; rows of docs/acls.md with topics and groups), bounded
  local t=$1
  shift
  BED_KIT_TIMEOUT=$t timeout "$t" "$root/tests/bed/bed.sh" kit "$@"
}
PRODUCER='' POLLER=''
# shellcheck disable=SC2317 # run by the EXIT trap
finish() {
  local rc=$?
  trap - EXIT
  touch "$W/ctl/stop" 2>/dev/null || true
  [ -z "$PRODUCER" ] || kill "$PRODUCER" 2>/dev/null || true
  [ -z "$POLLER" ] || kill "$POLLER" 2>/dev/null || true
  [ -n "${HANG_KEEP:-}" ] || timeout 300 "$BED" down >/dev/null 2>&1 || true
  exit "$rc"
}
timeout 300 "$BED" down >/dev/null 2>&1 || true
rm -rf "$W"
mkdir -p "$W/logs" "$W/ctl"
trap finish EXIT

timeout 400 "$BED" up 3 >"$W/logs/bed-up.log" 2>&1 || { cat "$W/logs/bed-up.log" >&2; die "the bed did not come up"; }
kit 60 create-topics --bootstrap "$BED_SRC_BOOTSTRAP" hang.t:6
kit 60 create-topics --bootstrap "$BED_TGT_BOOTSTRAP" hang.t:6
jq -c --arg n "$CONN" '{name: $n, config: (.config + {topics: "hang.t", "tasks.max": "6"})}' \
  "$root/k8s/overlays/bed/offsets/connector.json" >"$W/connector.json"
code=$(curl -s -o "$W/logs/create.out" -w '%{http_code}' -m 100 -X POST -H 'Content-Type: application/json' \
  --data @"$W/connector.json" "http://$(bed_worker_ip 1):8088/connectors")
[ "$code" = 201 ] || die "POST /connectors answered $code: $(cat "$W/logs/create.out")"
kit 14400 produce-loop --bootstrap "$BED_SRC_BOOTSTRAP" --topics hang.t:6 --rate 30 --control "$W/ctl" \
  >"$W/logs/producer.out" 2>"$W/logs/producer.log" &
PRODUCER=$!

# every_task_on_1_to_3: 6 tasks RUNNING, none on the fourth worker.
settled() {
  fl_running "$CONN" 1 2 3 && [ "$(fl_status "$CONN" 1 | jq '.tasks | length')" = 6 ]
}
wait_settled() {
  local end=$((SECONDS + 180))
  until settled; do
    [ $SECONDS -lt $end ] || die "the connector's 6 tasks were not RUNNING on workers 1-3 within 180 s"
    sleep 1
  done
}

# joined NAME: how many rebalance assignments the worker has logged.
joined() { timeout 30 podman logs "$1" 2>&1 | grep -cF 'Joined group' || true; }
# assigned_since NAME COUNT [IDS]: its newest assignment is past the COUNT-th and hands it a
# task (one of task ids IDS, "1|4", when given).
assigned_since() {
  local lines
  lines=$(timeout 30 podman logs "$1" 2>&1 | grep -F 'Joined group') || return 1
  [ "$(wc -l <<<"$lines")" -gt "$2" ] && tail -n 1 <<<"$lines" | grep -qE "taskIds=\[([^]]*, )?$CONN-(${3:-[0-9]+})[],]"
}
last_assignment() {
  timeout 30 podman logs "$1" 2>&1 | grep -F 'Joined group' | tail -n 1 | grep -oE 'connectorIds=\[[^]]*\], taskIds=\[[^]]*\], revokedConnectorIds=\[[^]]*\], revokedTaskIds=\[[^]]*\]' || true
}

# stop_watch K VARIANT SLOT DELAY LEADER: stops worker SLOT as the kubelet does, SIGQUITs it at 25
# and 45 s, prints the stop's JSON line (and adds it to rounds.jsonl), counts a hang.
hung=0
stops=0
stop_watch() {
  local k=$1 v=$2 slot=$3 d=$4 leader=$5 name t0 stopper dumps el ms code h tasks assignment
  name=$(bed_worker_name "$slot")
  assignment=$(last_assignment "$name")
  tasks=$(fl_tasks_on "$CONN" "$slot" "$slot" 2>/dev/null || echo null)
  t0=$(date +%s%3N)
  timeout 90 podman stop -t 60 "$name" >/dev/null 2>&1 &
  stopper=$!
  dumps=0
  while kill -0 "$stopper" 2>/dev/null; do
    el=$(($(date +%s%3N) - t0))
    if { [ "$dumps" = 0 ] && [ "$el" -ge 25000 ]; } || { [ "$dumps" = 1 ] && [ "$el" -ge 45000 ]; }; then
      timeout 10 podman kill -s QUIT "$name" >/dev/null 2>&1 || true
      dumps=$((dumps + 1))
    fi
    sleep 0.2
  done
  wait "$stopper" || true
  ms=$(($(date +%s%3N) - t0))
  code=$(timeout 30 podman inspect -f '{{.State.ExitCode}}' "$name")
  h=false
  if [ "$code" != 143 ] || [ "$ms" -ge 25000 ]; then
    h=true
    hung=$((hung + 1))
    timeout 60 podman logs "$name" >"$W/logs/stop-$stops-$name.log" 2>&1 || true
  fi
  stops=$((stops + 1))
  jq -nc --argjson k "$k" --arg v "$v" --arg w "$name" --argjson leader "$leader" --argjson d "$d" --argjson ms "$ms" \
    --argjson code "$code" --argjson hung "$h" --argjson dumps "$dumps" --arg a "$assignment" --arg tasks "$tasks" \
    '{round: $k, variant: $v, worker: $w, leader: $leader, tasks_running: $tasks, delay_s: $d, stop_ms: $ms,
      exit_code: $code, hung: $hung, thread_dumps: $dumps, assignment: $a}' | tee -a "$W/rounds.jsonl"
}

# wait_until COND SECONDS WHAT: evaluates COND every 0.1 s until it holds, or dies saying WHAT.
wait_until() {
  local end=$((SECONDS + $2))
  until eval "$1"; do
    [ $SECONDS -lt $end ] || die "$3"
    sleep 0.1
  done
}

if [ "$variant" = new ]; then
  name=$(bed_worker_name "$NEWW")
  for ((k = 1; k <= n; k++)); do
    past_deadline && { log "HANG_DEADLINE passed after $stops stops"; break; }
    d=${DELAYS[$(((k - 1) % ${#DELAYS[@]}))]}
    wait_settled
    timeout 120 "$BED" worker-start "$NEWW"
    # The rebalance that hands the new worker a task: its assignment names one.
    wait_until "assigned_since $name 0" 180 "round $k: no task was assigned to $name within 180 s"
    sleep "$d"
    stop_watch "$k" new "$NEWW" "$d" false
    timeout 60 podman rm -f "$name" >/dev/null 2>&1 || true
  done
else
  # What talks to a worker's REST API in a cluster goes on all along: every second, to each of
  # the five slots, the readiness probe's GET /health and a monitor's GET
  # /connectors?expand=status (both served by the herder thread), so a stop can find one in
  # flight.
  (
    while [ ! -e "$W/ctl/stop" ]; do
      for i in 1 2 3 4 5; do
        curl -s -o /dev/null --connect-timeout 2 -m 15 "http://$(bed_worker_ip "$i"):8088/health" &
        curl -s -o /dev/null --connect-timeout 2 -m 15 "http://$(bed_worker_ip "$i"):8088/connectors?expand=status" &
      done
      sleep 1
    done
    wait
  ) >/dev/null 2>&1 &
  POLLER=$!
  # Five worker slots, three live at the start of each round.
  LIVE=(1 2 3)
  free_slot() { local s; for s in 1 2 3 4 5; do [[ " ${LIVE[*]} " == *" $s "* ]] || { printf '%s' "$s"; return; }; done; }
  drop_live() { local s keep=(); for s in "${LIVE[@]}"; do [ "$s" = "$1" ] || keep+=("$s"); done; LIVE=("${keep[@]}"); }
  join_one() { # starts a worker in a free slot, healthy; prints nothing
    local s
    s=$(free_slot)
    timeout 120 "$BED" worker-start "$s"
    timeout 260 "$BED" worker-wait "$s" 240
    LIVE+=("$s")
  }
  settled_live() {
    fl_running "$CONN" "${LIVE[@]}" && [ "$(fl_status "$CONN" "${LIVE[0]}" | jq '.tasks | length')" = 6 ]
  }
  k=0
  while [ "$stops" -lt "$n" ]; do
    past_deadline && { log "HANG_DEADLINE passed after $stops stops ($k rounds)"; break; }
    k=$((k + 1))
    wait_until settled_live 180 "round $k: the connector's 6 tasks were not RUNNING on workers ${LIVE[*]} within 180 s"
    sleep 5
    # (1) A member stopped right after a new worker's join rebalances it.  The victim rotates
    # over the live members; its first assignment since the join is the trigger.
    v=${LIVE[$(((k - 1) % 3))]}
    leader=$(fl_leader "${LIVE[@]}")
    base=$(joined "$(bed_worker_name "$v")")
    d=${DELAYS[$((stops % ${#DELAYS[@]}))]}
    s=$(free_slot)
    timeout 120 "$BED" worker-start "$s"
    wait_until "[ \$(joined $(bed_worker_name "$v")) -gt $base ]" 180 "round $k: worker $v logged no rebalance within 180 s of worker $s starting"
    sleep "$d"
    others=()
    for i in "${LIVE[@]}" "$s"; do
      [ "$i" = "$v" ] || others+=("$i")
    done
    bases=()
    for i in "${others[@]}"; do bases+=("$(joined "$(bed_worker_name "$i")")"); done
    # The tasks it runs now: the ones its departure leaves to be handed over.
    vtasks=$(fl_status "$CONN" "${others[0]}" | jq -r --arg w "$(bed_worker_ip "$v"):8088" \
      '[.tasks[]? | select(.worker_id == $w) | .id | tostring] | join("|")')
    stop_watch "$k" member-after-join "$v" "$d" "$([ "$v" = "$leader" ] && echo true || echo false)"
    drop_live "$v"
    LIVE+=("$s")
    timeout 260 "$BED" worker-wait "$s" 240
    { [ "$stops" -lt "$n" ] && ! past_deadline; } || break
    if [ -z "$vtasks" ]; then
      log "round $k: worker $v ran no task when it stopped: nothing to hand over"
      continue
    fi
    # (2) The departed member's tasks handed over after the delay: the first survivor whose
    # assignment names one of them is stopped DELAY after it.
    d=${DELAYS[$((stops % ${#DELAYS[@]}))]}
    v2=
    end=$((SECONDS + 120))
    while [ -z "$v2" ]; do
      for idx in "${!others[@]}"; do
        if assigned_since "$(bed_worker_name "${others[$idx]}")" "${bases[$idx]}" "$vtasks"; then v2=${others[$idx]}; break; fi
      done
      [ -n "$v2" ] && break
      [ $SECONDS -lt $end ] || die "round $k: no survivor was handed a task within 120 s of worker $v stopping"
      sleep 0.1
    done
    sleep "$d"
    leader=$(fl_leader "${LIVE[@]}")
    stop_watch "$k" member-after-handover "$v2" "$d" "$([ "$v2" = "$leader" ] && echo true || echo false)"
    drop_live "$v2"
    join_one
  done
fi
n=$stops
jq -s -r --argjson n "$n" '"hang: \(map(select(.hung)) | length) of \($n) stops hung, \(map(.round) | unique | length) rounds (stop ms: min \(map(.stop_ms) | min), median \(map(.stop_ms) | sort | .[length / 2 | floor]), max \(map(.stop_ms) | max); exit codes \(map(.exit_code) | group_by(.) | map("\(.[0]) x\(length)") | join(", ")))"' "$W/rounds.jsonl"
[ "$hung" = 0 ]
