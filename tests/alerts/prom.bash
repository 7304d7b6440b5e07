# shellcheck shell=bash
# Variables here are used by the .bats files that load this one.
# shellcheck disable=SC2034
# Shared by the alert tests: the bed's names, and questions put to the real
# Prometheus through its own HTTP API (/api/v1/alerts, /api/v1/query).
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

AL_ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
export BED_NAME=${BED_NAME:-mm2kit-al} BED_OCTET=${BED_OCTET:-24}
export BED_DIR=${BED_DIR:-$AL_ROOT/build/alerts/bed}
AL_DIR=${AL_DIR:-$AL_ROOT/build/alerts/e2e}
BED=$AL_ROOT/tests/bed/bed.sh
HARNESS=$AL_ROOT/tests/alerts/harness.sh
# shellcheck source=tests/bed/bed.env
. "$AL_ROOT/tests/bed/bed.env"
# wait_for, worker_index_of, leader_index
# shellcheck source=tests/bed/workers.bash
. "$AL_ROOT/tests/bed/workers.bash"
MM2KIT_CACHE=${MM2KIT_CACHE:-/var/cache/mm2kit}
PROM=http://${AL_PROM_ADDR:-127.0.0.1:39090}
TOPIC=al.events
# The consumer's own metrics name a topic with "_" for "." (FetchMetricsManager).
LAG_TOPIC=al_events
FAIL_TOPIC=al.fail

# query PROMQL: the result vector, compact JSON ([] when empty).
query() {
  curl -sf -m 10 --data-urlencode "query=$1" "$PROM/api/v1/query" | jq -c '.data.result'
}

# query_value PROMQL: the single sample's value ("" when the result is empty).
query_value() {
  query "$1" | jq -r 'if length == 0 then "" else .[0].value[1] end'
}

# alerts: every pending or firing alert, compact JSON.
alerts() {
  curl -sf -m 10 "$PROM/api/v1/alerts" | jq -c '.data.alerts'
}

# alert_matches STATE NAME [LABEL=VALUE | LABEL!=VALUE]...: an alert NAME in STATE ("firing",
# "pending" or "active" for either) carrying those labels (or not that value) exists.
alert_matches() {
  # shellcheck disable=SC2016 # jq variables, expanded by jq
  local state=$1 name=$2 kv key op sel='.labels.alertname == $n'
  shift 2
  local args=(--arg n "$name" --arg s "$state")
  local i=0
  for kv in "$@"; do
    key=${kv%%=*} op='=='
    [ "${key%!}" = "$key" ] || { key=${key%!} op='!='; }
    args+=(--arg "k$i" "$key" --arg "v$i" "${kv#*=}")
    sel+=" and .labels[\$k$i] $op \$v$i"
    i=$((i + 1))
  done
  alerts | jq -e "${args[@]}" "any(.[]; $sel and (\$s == \"active\" or .state == \$s))" >/dev/null
}

# alert_absent NAME [LABEL=VALUE | LABEL!=VALUE]...: no alert NAME with those labels, pending or
# firing.
alert_absent() { ! alert_matches active "$@"; }

# A worker's REST API.
rest() { # METHOD WORKER_INDEX PATH [JSON_BODY]: the body; fails on HTTP >= 400
  local args=(-sf -m 100 -X "$1" -H 'Content-Type: application/json')
  [ $# -ge 4 ] && args+=(--data "$4")
  curl "${args[@]}" "http://$(bed_worker_ip "$2"):8088$3"
}

# rest_write METHOD WORKER_INDEX PATH [JSON_BODY]: a create, change or delete,
# retried for up to 60 s while Connect answers 409 (a rebalance in progress:
# "stale configuration"); any other status >= 400 fails at once with the body.
rest_write() {
  local out code end=$((SECONDS + 60))
  out=$(mktemp)
  local args=(-s -m 100 -X "$1" -o "$out" -w '%{http_code}' -H 'Content-Type: application/json')
  [ $# -ge 4 ] && args+=(--data "$4")
  while :; do
    code=$(curl "${args[@]}" "http://$(bed_worker_ip "$2"):8088$3") || code=000
    case $code in
      2??) rm -f "$out"; return 0 ;;
      409) [ $SECONDS -lt $end ] || break; sleep 0.5 ;;
      *) break ;;
    esac
  done
  printf '%s %s: HTTP %s: %s\n' "$1" "$3" "$code" "$(cat "$out")" >&2
  rm -f "$out"
  return 1
}

# connector_tasks_running NAME N [WORKER]: RUNNING with N tasks, all RUNNING.
connector_tasks_running() {
  rest GET "${3:-1}" "/connectors/$1/status" 2>/dev/null |
    jq -e --argjson n "$2" '.connector.state == "RUNNING" and (.tasks | length == $n) and all(.tasks[]; .state == "RUNNING")' >/dev/null
}

# connector_state_is CONNECTOR STATE: the connector's own state, as worker 1 tells it.
connector_state_is() {
  rest GET 1 "/connectors/$1/status" 2>/dev/null | jq -e --arg s "$2" '.connector.state == $s' >/dev/null
}

# task_state_is CONNECTOR TASK STATE: the task's state, as worker 1 tells it.
task_state_is() {
  rest GET 1 "/connectors/$1/status" 2>/dev/null |
    jq -e --argjson t "$2" --arg s "$3" 'any(.tasks[]; .id == $t and .state == $s)' >/dev/null
}

# failed_tasks_seen CONNECTOR N: Prometheus's last sample of the workers'
# FAILED-task gauge, summed as MM2TaskFailed sums it, is N.
failed_tasks_seen() {
  [ "$(query_value "sum(kafka_connect_worker_connector_connector_failed_task_count{connector=\"$1\"})")" = "$2" ]
}

# failed_tasks_history CONNECTOR: that gauge over the last 2 minutes, per
# worker, as each change "value@unix time" (a task restarted by a rebalance
# shows as 1 then 0 then 1; a gap in the scrapes is not shown).
failed_tasks_history() {
  query "kafka_connect_worker_connector_connector_failed_task_count{connector=\"$1\"}[2m]" |
    jq -c '[.[] | {(.metric.instance): (reduce .values[] as $s ([]; if length > 0 and .[-1][0] == $s[1] then . else . + [[$s[1], ($s[0] | floor)]] end) | map("\(.[0])@\(.[1])") | join(" "))}] | add'
}

# group_settled SECONDS: every scraped worker of the main group (its namespace: cases.bash's
# groups have their own) finished its last rebalance at least SECONDS ago and none is
# rebalancing (as Prometheus last saw them).
group_settled() {
  [ "$(query_value "count(kafka_connect_worker_rebalance_time_since_last_rebalance_ms{namespace=\"$BED_NAME\"} < $1 * 1000) or vector(0)")" = 0 ] &&
    [ "$(query_value "max(kafka_connect_worker_rebalance_rebalancing{namespace=\"$BED_NAME\"})")" = 0 ]
}

# metrics_target I: worker I's scrape target as Prometheus labels it.
metrics_target() { printf '%s:%s' "$(bed_worker_ip "$1")" "$(cat "$AL_DIR/metrics-port")"; }

# own_group GROUP: a Connect group of its own beside the main one (another group.id and
# internal topics on the target, granted to the workers' principal as docs/acls.md says); the
# environment its workers start with, in the array GROUP_ENV.
own_group() {
  local g=$1
  "$BED" kit create-topics --no-grant --bootstrap "$BED_TGT_BOOTSTRAP" "$g-configs:1:compact" "$g-offsets:5:compact" "$g-status:1:compact" || return 1
  "$BED" kit grant --role workers --name "worker group=$g" --name "config topic=$g-configs" \
    --name "offsets topic=$g-offsets" --name "status topic=$g-status" --name "target alias=target" || return 1
  GROUP_ENV=("CONNECT_GROUP_ID=$g" "CONNECT_CONFIG_STORAGE_TOPIC=$g-configs" "CONNECT_OFFSET_STORAGE_TOPIC=$g-offsets"
    "CONNECT_STATUS_STORAGE_TOPIC=$g-status")
}
