#!/usr/bin/env bash
# make alerts-e2e's world: real workers run as the rendered test overlay
# (tests/alerts/overlay) says, a real Prometheus scraping their exporters as
# the ServiceMonitor asks and evaluating the overlay's rules, a real
# Alertmanager, and a webhook receiver on 127.0.0.1.
#
#   harness.sh up       everything up, one connector replicating (removes leftovers first)
#   harness.sh down     stop what up started (by recorded PID), keep the logs, remove the bed
#   harness.sh targets [I...]  rewrite the scrape targets (file_sd) from where the pods run
#                       (workers 1 2 3 unless told)
#   harness.sh scrape I [NAMESPACE]  pod I added to them, labelled with that namespace
#   harness.sh unscrape I...  these pods taken out of them
#   harness.sh adopt NAME PID  a process a test started, stopped by down like the harness's own
#   harness.sh worker I [NAME=VALUE...]  start pod I (4..10: one more than the Deployment's
#                       replicas, as a rolling update adds, or the pods of cases.bash's groups)
#                       as the rendered Deployment says, with these environment values in place
#                       of its own
#
# Where the pods run is the `targets_write` function alone: the podman bed today
# (each worker's static IP); on a real cluster, the Pod IPs of the Service's
# endpoints (kubectl get endpoints), with everything else unchanged.
# Prometheus, Alertmanager and the receiver listen on 127.0.0.1 only; the
# bed is mm2kit-al on 198.18.24.0/24.
# Exit codes: 0 ok, 2 usage, 3 a tool or port is missing, 4 something did not come up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export BED_NAME=${BED_NAME:-mm2kit-al} BED_OCTET=${BED_OCTET:-24}
export BED_DIR=${BED_DIR:-$root/build/alerts/bed}
# The brokers' logs are tmpfs counted in their memory: MM2GCTimeHigh's test copies 12,000,000
# records (about 1 GiB a broker) before it deletes them.
export BED_BROKER_MEMORY=${BED_BROKER_MEMORY:-3g}
# shellcheck source=tests/bed/bed.env
. "$root/tests/bed/bed.env"
: "${MM2KIT_CACHE:=/var/cache/mm2kit}"
AL_DIR=${AL_DIR:-$root/build/alerts/e2e}
PROM_ADDR=${AL_PROM_ADDR:-127.0.0.1:39090}
AM_ADDR=${AL_AM_ADDR:-127.0.0.1:39093}
HOOK_ADDR=${AL_HOOK_ADDR:-127.0.0.1:39094}
LPY=$MM2KIT_CACHE/lint-venv/bin/python3   # PyYAML
PY=$MM2KIT_CACHE/venv/bin/python3         # confluent-kafka (bedkit)
BED=$root/tests/bed/bed.sh
WORKERS=3
TOPIC=al.events    # 4 partitions; partition 3 never gets a record (the idle one)
FAIL_TOPIC=al.fail # the connector made to fail copies this one

log() { printf 'alerts-e2e: %s\n' "$*" >&2; }
die() { printf 'alerts-e2e: error: %s\n' "$1" >&2; exit "${2:-4}"; }

# ---- where the pods run: the only part that changes on a real cluster -----------------------
# The scrape targets, one per worker pod, labelled as prometheus-operator labels a
# ServiceMonitor's targets; a pod of a Connect group of its own may carry another namespace,
# as a second Deployment in a namespace of its own would, so that the rules that aggregate by
# namespace (the tasks' spread, the latency percentile) judge each group apart.  The list
# ($AL_DIR/targets.list, "I NAMESPACE" a line) is changed under a lock: the tests that run side
# by side each add and remove their own pods.
#   targets PORT [I...]       exactly these pods (1..WORKERS unless told), in the bed's namespace
#   scrape PORT I [NAMESPACE] pod I added (or its namespace changed)
#   unscrape PORT I...        these pods removed
targets_write() { # PORT: targets.json from targets.list
  local port=$1 i ns sep='' out=$AL_DIR/targets.json.new
  {
    printf '['
    while read -r i ns; do
      [ -n "$i" ] || continue
      printf '%s' "$sep"
      sep=,
      printf '{"targets":["%s:%s"],"labels":{"namespace":"%s","pod":"%s","service":"mm2-connect","endpoint":"metrics"}}' \
        "$(bed_worker_ip "$i")" "$port" "$ns" "$(bed_worker_name "$i")"
    done <"$AL_DIR/targets.list"
    printf ']\n'
  } >"$out"
  mv "$out" "$AL_DIR/targets.json"
}
targets_change() { # PORT targets|scrape|unscrape ARGS...
  local port=$1 how=$2 i
  shift 2
  exec 8>>"$AL_DIR/targets.lock"
  flock -w 30 8 || { printf 'harness.sh: the target list stayed locked for 30 s\n' >&2; return 4; }
  touch "$AL_DIR/targets.list"
  case $how in
    targets)
      [ $# -gt 0 ] || set -- $(seq 1 "$WORKERS")
      for i in "$@"; do printf '%s %s\n' "$i" "$BED_NAME"; done >"$AL_DIR/targets.list.new" ;;
    scrape)
      { awk -v i="$1" '$1 != i' "$AL_DIR/targets.list"; printf '%s %s\n' "$1" "${2:-$BED_NAME}"; } >"$AL_DIR/targets.list.new" ;;
    unscrape)
      awk -v drop=" $* " 'index(drop, " " $1 " ") == 0' "$AL_DIR/targets.list" >"$AL_DIR/targets.list.new" ;;
  esac
  mv "$AL_DIR/targets.list.new" "$AL_DIR/targets.list"
  targets_write "$port"
  exec 8>&-
}

# ---- processes this harness starts, stopped by recorded PID ----------------------------------
# NAME PID, and the PID's start time (/proc/PID/stat field 22): PIDs wrap at kernel.pid_max
# (32768 here), so a PID whose process has gone may name another's by the time down runs.
proc_start() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
started() { printf '%s %s %s\n' "$1" "$2" "$(proc_start "$2")" >>"$AL_DIR/pids"; }

stop_started() {
  local name pid start
  [ -f "$AL_DIR/pids" ] || return 0
  while read -r name pid start; do
    if [ -n "$start" ] && [ "$(proc_start "$pid")" = "$start" ]; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && { log "$name ($pid) ignored SIGTERM; killing it"; kill -KILL "$pid" 2>/dev/null || true; }
    fi
  done <"$AL_DIR/pids"
  rm -f "$AL_DIR/pids"
}

port_free() { # HOST:PORT
  ! (exec 9<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null
}

wait_http() { # URL SECONDS WHAT
  local end=$((SECONDS + $2))
  until curl -sf -m 2 -o /dev/null "$1"; do
    [ $SECONDS -lt $end ] || die "$3 did not answer $1 within $2 s; see $AL_DIR/"
    sleep 0.2
  done
}

rest() { # METHOD PATH [BODY]: to worker 1, prints the body; fails on HTTP >= 400
  local args=(-sf -m 100 -X "$1" -H 'Content-Type: application/json')
  [ $# -ge 3 ] && args+=(--data "$3")
  curl "${args[@]}" "http://$(bed_worker_ip 1):8088$2"
}

# The connector the bed replicates with (tests/e2e/helpers.bash has the same
# shape); every alert test starts from this one RUNNING with 3 tasks.
connector_json() { # NAME TOPICS_REGEX [EXTRA_CONFIG_JSON]
  local extra=${3:-'{}'}
  jq -nc --arg n "$1" --arg t "$2" --arg src "$BED_SRC_BOOTSTRAP" --arg tgt "$BED_TGT_BOOTSTRAP" \
    --argjson extra "$extra" '{name: $n, config: ({
    "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
    "tasks.max": "3", "source.cluster.alias": "source", "target.cluster.alias": "target",
    "source.cluster.bootstrap.servers": $src, "target.cluster.bootstrap.servers": $tgt,
    "source.cluster.security.protocol": "SASL_PLAINTEXT", "source.cluster.sasl.mechanism": "PLAIN",
    "source.cluster.sasl.jaas.config": "${env:MM2_SOURCE_SASL_JAAS_CONFIG}",
    "target.cluster.security.protocol": "SASL_PLAINTEXT", "target.cluster.sasl.mechanism": "PLAIN",
    "target.cluster.sasl.jaas.config": "${env:MM2_TARGET_SASL_JAAS_CONFIG}",
    "topics": $t,
    "replication.policy.class": "org.apache.kafka.connect.mirror.IdentityReplicationPolicy",
    "emit.offset-syncs.enabled": "false",
    "sync.topic.configs.enabled": "false", "sync.topic.acls.enabled": "false",
    "refresh.topics.enabled": "false",
    "source.consumer.auto.offset.reset": "earliest", "source.consumer.isolation.level": "read_committed",
    "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"} + $extra)}'
}

# pod_run I [NAME=VALUE...]: worker pod I as the rendered Deployment says (its
# environment, Secret values, mounts, limits), each NAME=VALUE in place of its own.
pod_run() { # I [NAME=VALUE...]; its own secrets file: tests/alerts/cases.bash starts pods side by side
  local i=$1 a pod_args=() args=() kv
  shift
  umask 077
  { jq -n --arg j "$BED_JAAS" --arg sj "$BED_SOURCE_JAAS" --arg tj "$BED_TARGET_JAAS" \
      '{"mm2-connect-auth": {"sasl-jaas-config": $j, "source-sasl-jaas-config": $sj,
      "target-sasl-jaas-config": $tj}}'; bed_rest_secret_json; } | jq -s add >"$AL_DIR/secrets-$i.json"
  mapfile -t pod_args < <("$LPY" "$root/tests/k8s/podman_args.py" run "$AL_DIR/overlay.yaml" __POD_IP__ "$AL_DIR/secrets-$i.json")
  rm -f "$AL_DIR/secrets-$i.json"
  umask 022
  [ "${#pod_args[@]}" -gt 20 ] || die "podman_args gave ${#pod_args[@]} arguments"
  pod_args+=(-v "$AL_DIR/connect-mm2.properties:/etc/mm2/connect-mm2.properties:ro")
  for a in "${pod_args[@]}"; do args+=("${a//__POD_IP__/$(bed_worker_ip "$i")}"); done
  # podman keeps the last -e of a name.
  for kv in "$@"; do args+=(-e "$kv"); done
  timeout 120 podman run -d --name "$(bed_worker_name "$i")" --hostname "$(bed_worker_name "$i")" \
    --network "$BED_NET" --ip "$(bed_worker_ip "$i")" "${BED_HOSTS[@]}" "${args[@]}" "$IMAGE" >/dev/null
}

down() {
  # What the run ended with, for the record: each worker's exposition and
  # Prometheus's alerts (best effort: some may be gone).
  local i port
  if [ -f "$AL_DIR/metrics-port" ]; then
    port=$(cat "$AL_DIR/metrics-port")
    for i in $(seq 1 "$WORKERS"); do
      curl -sf -m 5 "http://$(bed_worker_ip "$i"):$port/metrics" >"$AL_DIR/metrics-w$i.txt" 2>/dev/null || true
    done
    curl -sf -m 5 "http://$PROM_ADDR/api/v1/alerts" >"$AL_DIR/alerts-at-end.json" 2>/dev/null || true
  fi
  stop_started
  if [ -d "$BED_DIR" ]; then timeout 300 "$BED" down >/dev/null 2>&1 || true; fi
}

up() {
  local t0=$SECONDS port i
  for t in kubectl promtool prometheus prometheus-alertmanager jq curl podman; do
    command -v "$t" >/dev/null || die "$t is not installed; run 'make deps'" 3
  done
  if [ ! -x "$LPY" ] || [ ! -x "$PY" ]; then die "the test venvs are missing; run 'make deps'" 3; fi
  down
  rm -rf "$AL_DIR"
  mkdir -p "$AL_DIR" "$BED_DIR"
  for a in "$PROM_ADDR" "$AM_ADDR" "$HOOK_ADDR"; do
    port_free "$a" || die "$a is in use; set AL_PROM_ADDR, AL_AM_ADDR or AL_HOOK_ADDR to free 127.0.0.1 ports" 3
  done

  # The rendered test overlay: the pods, the ServiceMonitor, the rules.
  timeout 60 kubectl kustomize "$here/overlay" >"$AL_DIR/overlay.yaml"
  timeout 60 kubectl kustomize "$root/k8s/base" >"$AL_DIR/base.yaml"
  "$LPY" "$here/rules-from-kustomize.py" --same-as "$AL_DIR/base.yaml" --settable mm2:replication_latency_threshold_ms <"$AL_DIR/overlay.yaml" >"$AL_DIR/rules.yaml"
  port=$("$LPY" "$here/prometheus-config.py" "$AL_DIR/overlay.yaml" "$AL_DIR" "$AL_DIR/rules.yaml" \
    "$AM_ADDR" "http://$HOOK_ADDR/alerts")
  printf '%s\n' "$port" >"$AL_DIR/metrics-port"
  promtool check config "$AL_DIR/prometheus.yml" >"$AL_DIR/promtool-config.log" 2>&1 ||
    { cat "$AL_DIR/promtool-config.log" >&2; die "promtool rejects the generated prometheus.yml" 1; }

  # The brokers, then the workers as pods of the rendered Deployment.
  timeout 400 "$BED" up 0
  "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" "$TOPIC:4" "$FAIL_TOPIC:1"
  "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" "$TOPIC:4" "$FAIL_TOPIC:1"
  # The faults alerts.bats makes (a task that fails, a stalled producer) are producer overrides
  # of a connector, which the image's profile refuses (connector.client.config.override.policy
  # None, docker/mm2/README.md): this bed's workers alone run that profile with the policy All.
  sed 's/^connector\.client\.config\.override\.policy=None$/connector.client.config.override.policy=All/' \
    "$root/docker/mm2/connect-mm2.properties" >"$AL_DIR/connect-mm2.properties"
  grep -qx 'connector.client.config.override.policy=All' "$AL_DIR/connect-mm2.properties" ||
    die "docker/mm2/connect-mm2.properties no longer sets connector.client.config.override.policy=None"
  chmod 0644 "$AL_DIR/connect-mm2.properties"
  for i in $(seq 1 "$WORKERS"); do pod_run "$i"; done

  # Prometheus, Alertmanager and the receiver, while the workers start.
  targets_change "$port" targets
  "$LPY" "$here/webhook_sink.py" "${HOOK_ADDR##*:}" "$AL_DIR/webhook.jsonl" >"$AL_DIR/webhook.log" 2>&1 &
  started webhook $!
  prometheus-alertmanager --config.file="$AL_DIR/alertmanager.yml" --storage.path="$AL_DIR/am-data" \
    --web.listen-address="$AM_ADDR" --cluster.listen-address= >"$AL_DIR/alertmanager.log" 2>&1 &
  started alertmanager $!
  prometheus --config.file="$AL_DIR/prometheus.yml" --storage.tsdb.path="$AL_DIR/prom-data" \
    --web.listen-address="$PROM_ADDR" --storage.tsdb.retention.time=2h >"$AL_DIR/prometheus.log" 2>&1 &
  started prometheus $!
  wait_http "http://$PROM_ADDR/-/ready" 60 Prometheus
  wait_http "http://$AM_ADDR/-/ready" 60 Alertmanager

  for i in $(seq 1 "$WORKERS"); do "$BED" worker-wait "$i" 240; done
  log "workers healthy after $((SECONDS - t0)) s"

  # The source keeps growing on partitions 0-2 of $TOPIC and on $FAIL_TOPIC;
  # partition 3 is held (never written): the idle partition.
  mkdir -p "$AL_DIR/produce"
  printf '%s:3\n' "$TOPIC" >"$AL_DIR/produce/hold"
  BEDKIT_SASL_USERNAME=$BED_ADMIN_USER BEDKIT_SASL_PASSWORD=$BED_ADMIN_PASSWORD \
    "$PY" "$root/tests/bed/bedkit.py" produce-loop --bootstrap "$BED_SRC_BOOTSTRAP" \
    --topics "$TOPIC:4,$FAIL_TOPIC:1" --rate 40 --control "$AL_DIR/produce" >"$AL_DIR/produce.log" 2>&1 &
  started produce-loop $!

  rest POST /connectors "$(connector_json al 'al\.events')" >/dev/null ||
    die "POST /connectors (al) failed"
  local end=$((SECONDS + 120))
  until rest GET /connectors/al/status 2>/dev/null |
    jq -e '.connector.state == "RUNNING" and (.tasks | length == 3) and all(.tasks[]; .state == "RUNNING")' >/dev/null; do
    [ $SECONDS -lt $end ] || die "connector al not RUNNING with 3 tasks within 120 s"
    sleep 1
  done
  log "up in $((SECONDS - t0)) s: $WORKERS workers, connector al RUNNING, Prometheus on $PROM_ADDR"
}

# pod_index_ok I [LOW]: I names a pod of this bed, LOW (1 unless told) to 10 (tests/bed/bed.env).
pod_index_ok() { [[ $1 =~ ^([1-9]|10)$ ]] && [ "$1" -ge "${2:-1}" ]; }

case "${1:-}" in
  up) up ;;
  down) down ;;
  targets|unscrape)
    for i in "${@:2}"; do
      pod_index_ok "$i" || { printf 'usage: harness.sh %s [I...] (I in 1..10)\n' "$1" >&2; exit 2; }
    done
    targets_change "$(cat "$AL_DIR/metrics-port")" "$@" ;;
  scrape)
    if [ $# -lt 2 ] || [ $# -gt 3 ] || ! pod_index_ok "$2" || ! [[ ${3:-x} =~ ^[a-z0-9][a-z0-9-]*$ ]]; then
      printf 'usage: harness.sh scrape I [NAMESPACE] (I in 1..10)\n' >&2
      exit 2
    fi
    targets_change "$(cat "$AL_DIR/metrics-port")" "$@" ;;
  worker)
    if [ $# -lt 2 ] || ! pod_index_ok "$2" 4; then
      printf 'usage: harness.sh worker I [NAME=VALUE...] (I in 4..10)\n' >&2
      exit 2
    fi
    shift; pod_run "$@" ;;
  connector-json) shift; connector_json "$@" ;;
  adopt)
    if [ $# != 3 ] || ! [[ $3 =~ ^[0-9]+$ ]]; then
      printf 'usage: harness.sh adopt NAME PID\n' >&2
      exit 2
    fi
    started "$2" "$3" ;;
  *) printf 'usage: harness.sh up | down | targets [I...] | scrape I [NAMESPACE] | unscrape I... | worker I [NAME=VALUE...] | connector-json NAME TOPICS [EXTRA] | adopt NAME PID\n' >&2; exit 2 ;;
esac
