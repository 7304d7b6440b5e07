#!/usr/bin/env bash
# make faults-hang: tries to make a worker hang in Connect's shutdown, on purpose, and measures
# how often it does.
#
#   tests/faults/hang.sh [N] [DELAYS]       (default 20 rounds; delays "0 0.5 1 2 3 5" seconds)
#
# A bed of its own (BED_NAME mm2kit-faults-hang, 198.18.15.0/24, build/faults-hang) with 3
# workers running a MirrorSourceConnector (6 tasks) while a producer writes.  Each round starts
# a fourth worker, waits for the rebalance that hands it a task (its log: "Joined group ...
# taskIds=[...]" with a task in it), waits one of DELAYS, and stops it as the kubelet does
# (SIGTERM, SIGKILL after 60 s).  A stop that has not ended after 25 s (Connect bounds its own
# herder shutdown at about 23 s) gets a SIGQUIT, so the JVM writes a thread dump to stdout, the
# pod's log, and another at 45 s; the log is kept in build/faults-hang/logs/.  Then the group
# gets its tasks back on the three workers and the next round begins.
#
# Prints one JSON line per round and a last line "hang: H of N stops hung (...)"; the figures
# go to build/faults-hang/rounds.jsonl.  Exit codes: 0 no stop hung; 1 at least one hung (or
# exited other than 143); 2 usage; 3 the image or the tools are missing; 4 the bed did not
# come up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
n=${1:-20}
read -ra DELAYS <<<"${2:-0 0.5 1 2 3 5}"
[[ "$n" =~ ^[1-9][0-9]{0,2}$ ]] || { printf 'hang: N must be 1..999, got "%s"\n' "$n" >&2; exit 2; }
for d in "${DELAYS[@]}"; do
  [[ "$d" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { printf 'hang: delays must be seconds, got "%s"\n' "$d" >&2; exit 2; }
done

export BED_NAME=mm2kit-faults-hang BED_OCTET=15 BED_DIR=$root/build/faults-hang
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
kit() {
  local t=$1
  shift
  BEDKIT_SASL_USERNAME=$BED_ADMIN_USER BEDKIT_SASL_PASSWORD=$BED_ADMIN_PASSWORD \
    timeout "$t" "$KPY" "$root/tests/bed/bedkit.py" "$@"
}
PRODUCER=
# shellcheck disable=SC2317 # run by the EXIT trap
finish() {
  local rc=$?
  trap - EXIT
  touch "$W/ctl/stop" 2>/dev/null || true
  [ -z "$PRODUCER" ] || kill "$PRODUCER" 2>/dev/null || true
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

hung=0
name=$(bed_worker_name "$NEWW")
for ((k = 1; k <= n; k++)); do
  d=${DELAYS[$(((k - 1) % ${#DELAYS[@]}))]}
  wait_settled
  timeout 120 "$BED" worker-start "$NEWW"
  # The rebalance that hands the new worker a task: its assignment names one.
  end=$((SECONDS + 180))
  until timeout 30 podman logs "$name" 2>&1 | grep -F 'Joined group' | grep -qE "taskIds=\[$CONN-[0-9]"; do
    [ $SECONDS -lt $end ] || die "round $k: no task was assigned to $name within 180 s"
    sleep 0.1
  done
  sleep "$d"
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
    timeout 60 podman logs "$name" >"$W/logs/round-$k.log" 2>&1 || true
  fi
  tasks=$(timeout 30 podman logs "$name" 2>&1 | grep -F 'Joined group' | grep -oE "taskIds=\[[^]]*\]" | tail -n 1)
  jq -nc --argjson k "$k" --argjson d "$d" --argjson ms "$ms" --argjson code "$code" --argjson hung "$h" \
    --argjson dumps "$dumps" --arg tasks "$tasks" \
    '{round: $k, delay_s: $d, stop_ms: $ms, exit_code: $code, hung: $hung, thread_dumps: $dumps, assignment: $tasks}' |
    tee -a "$W/rounds.jsonl"
  timeout 60 podman rm -f "$name" >/dev/null 2>&1 || true
done
jq -s -r --argjson n "$n" '"hang: \(map(select(.hung)) | length) of \($n) stops hung (stop ms: min \(map(.stop_ms) | min), median \(map(.stop_ms) | sort | .[length / 2 | floor]), max \(map(.stop_ms) | max); exit codes \(map(.exit_code) | group_by(.) | map("\(.[0]) x\(length)") | join(", ")))"' "$W/rounds.jsonl"
[ "$hung" = 0 ]
