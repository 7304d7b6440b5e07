# shellcheck shell=bash
# Variables here are used by the .bats files that load this one.
# shellcheck disable=SC2034
# Shared by the e2e tests: the bed's names, a bounded curl, and a failure
# report that prints the bed's container logs.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

E2E_ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
BED=$E2E_ROOT/tests/bed/bed.sh
# shellcheck source=tests/bed/bed.env
. "$E2E_ROOT/tests/bed/bed.env"
# shellcheck source=tests/bed/workers.bash
. "$E2E_ROOT/tests/bed/workers.bash"
BED_DIR=${BED_DIR:-$E2E_ROOT/build/bed}
export BED_DIR

# rest METHOD WORKER_INDEX PATH [JSON_BODY]: prints the HTTP status on the
# first line, then the body (bats drops empty lines, so the status comes first).
rest() {
  local method=$1 i=$2 path=$3 body=${4:-} out code
  out=$(mktemp)
  local args=(-s -m 100 -X "$method" -o "$out" -w '%{http_code}' -H 'Content-Type: application/json')
  [ -n "$body" ] && args+=(--data "$body")
  code=$(curl "${args[@]}" "http://$(bed_worker_ip "$i"):8088$path")
  printf '%s\n' "$code"
  cat "$out"
  rm -f "$out"
}

# The MirrorSourceConnector config the bed uses, for connector NAME and topic regex TOPICS.
# Before Kafka 3.9 (KIP-1031) emit.offset-syncs.enabled is unknown and ignored: the tasks
# always write offset syncs to mm2-offset-syncs.target.internal on the SOURCE, created with
# offset-syncs.topic.replication.factor (default 3) replicas; the bed has one broker. From 3.9
# on, Connect refuses that key while emit.offset-syncs.enabled is false (MirrorSourceConfig's
# validation), so it is given only when BED_KAFKA_VERSION (set by make compat) is below 3.9.
mirror_connector_json() {
  local name=$1 topics=$2 state=${3:-}
  local initial="" syncs=""
  [ -n "$state" ] && initial=", \"initial_state\": \"$state\""
  if [ -n "${BED_KAFKA_VERSION:-}" ] &&
    [ "$(printf '%s\n' 3.9 "$BED_KAFKA_VERSION" | sort -V | head -n 1)" != 3.9 ]; then
    syncs='"offset-syncs.topic.replication.factor": "1",'
  fi
  cat <<JSON
{"name": "$name"$initial, "config": {
  "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
  "tasks.max": "3",
  "source.cluster.alias": "source", "target.cluster.alias": "target",
  "source.cluster.bootstrap.servers": "$BED_SRC_BOOTSTRAP",
  "target.cluster.bootstrap.servers": "$BED_TGT_BOOTSTRAP",
  "source.cluster.security.protocol": "SASL_PLAINTEXT", "source.cluster.sasl.mechanism": "PLAIN",
  "source.cluster.sasl.jaas.config": "\${env:MM2_SOURCE_SASL_JAAS_CONFIG}",
  "target.cluster.security.protocol": "SASL_PLAINTEXT", "target.cluster.sasl.mechanism": "PLAIN",
  "target.cluster.sasl.jaas.config": "\${env:MM2_TARGET_SASL_JAAS_CONFIG}",
  "topics": "$topics",
  "replication.policy.class": "org.apache.kafka.connect.mirror.IdentityReplicationPolicy",
  "emit.offset-syncs.enabled": "false",
  $syncs
  "sync.topic.configs.enabled": "false", "sync.topic.acls.enabled": "false",
  "refresh.topics.enabled": "true", "refresh.topics.interval.seconds": "60",
  "source.consumer.auto.offset.reset": "earliest", "source.consumer.isolation.level": "read_committed",
  "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
  "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
  "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"}}
JSON
}

# leader_known [WORKER]: the worker has logged an assignment naming a leader (a worker logs its
# client id as it starts, seconds before its first join of the group).
leader_known() { [ -n "$(leader_index "$@")" ]; }

# connector_running NAME [WORKER]: the connector and all its tasks RUNNING.
connector_running() {
  local body
  body=$(curl -s -m 10 "http://$(bed_worker_ip "${2:-1}"):8088/connectors/$1/status") || return 1
  printf '%s' "$body" | jq -e '.connector.state == "RUNNING" and (.tasks | length > 0) and all(.tasks[]; .state == "RUNNING")' >/dev/null
}

# group_settled SECONDS: no worker of 1..3 started connectors or tasks (the
# end of a rebalance) in the last SECONDS.  A worker stopped right after a
# rebalance was once seen to hang in Connect's shutdown until SIGKILL.
group_settled() {
  local quiet=$1 i last newest=0 t
  for i in 1 2 3; do
    last=$(podman logs "$(bed_worker_name "$i")" 2>&1 | grep -F 'Finished starting connectors and tasks' | tail -n 1 | cut -c2-20)
    [ -n "$last" ] || continue
    t=$(date -u -d "$last" +%s) || return 1
    [ "$t" -gt "$newest" ] && newest=$t
  done
  [ $(( $(date -u +%s) - newest )) -ge "$quiet" ]
}
