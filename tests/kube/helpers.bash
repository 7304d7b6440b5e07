# shellcheck shell=bash
# Variables here are used by the .bats files that load this one.
# shellcheck disable=SC2034
# Shared by the kube tests: the cluster's and the bed's names, kubectl on the
# test cluster, bounded waits, and the rendered overlay.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
# shellcheck source=tests/kube/kube.env
. "$ROOT/tests/kube/kube.env"
export BED_NAME=$KUBE_BED_NAME BED_OCTET=$KUBE_BED_OCTET BED_DIR=$ROOT/build/kube/bed
# shellcheck source=tests/bed/bed.env
. "$ROOT/tests/bed/bed.env"
W=$ROOT/build/kube/e2e
NS=mm2
CONN=flink-to-mm2-source

# kit SECONDS ARGS...: the bed's Kafka client (bed.sh kit: the admin sets up, each topic and
# the Flink group come with their rows of docs/acls.md, flink-copy plays Flink as flink), bounded.
kit() {
  local t=$1
  shift
  timeout "$t" "$ROOT/tests/bed/bed.sh" kit "$@"
}

# shellcheck source=tests/kube/kc.bash
. "$ROOT/tests/kube/kc.bash"

# detach COMMAND...: COMMAND in the background with none of bats' descriptors (a process
# holding one would keep bats waiting at the end of the run); $! is its PID.
detach() {
  (
    for fd in "/proc/$BASHPID/fd"/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && eval "exec $fd>&-"
    done
    exec "$@"
  ) </dev/null &
}

# wait_for SECONDS COMMAND...: retries COMMAND once a second until it succeeds.
wait_for() {
  local t=$1 end
  shift
  end=$((SECONDS + t))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || { echo "wait_for: '$*' did not succeed within ${t}s" >&2; return 1; }
    sleep 1
  done
}

# worker_pods: the names of the Deployment's pods that are not being deleted, oldest first.
worker_pods() {
  kc get pods -l app.kubernetes.io/component=worker --sort-by=.metadata.creationTimestamp -o json |
    jq -r '.items[] | select(.metadata.deletionTimestamp == null) | .metadata.name'
}

# all_ready N: the Deployment has N ready replicas, all of the current revision, and no other pod.
all_ready() {
  local s
  s=$(kc get deployment mm2-connect -o json) || return 1
  jq -e --argjson n "$1" '.status.readyReplicas == $n and .status.updatedReplicas == $n
    and .status.replicas == $n and .status.observedGeneration == .metadata.generation' <<<"$s" >/dev/null
}

pod_ip() { kc get pod "$1" -o jsonpath='{.status.podIP}'; }

# rest METHOD IP PATH [JSON_BODY]: the HTTP status on the first line, then the body.
rest() {
  local method=$1 ip=$2 path=$3 body=${4:-} out code
  out=$(mktemp)
  local args=(-s -m 100 -X "$method" -o "$out" -w '%{http_code}' -H 'Content-Type: application/json')
  [ -n "$body" ] && args+=(--data "$body")
  code=$(curl "${args[@]}" "http://$ip:8088$path")
  printf '%s\n' "$code"
  cat "$out"
  rm -f "$out"
}

# The Service's ClusterIP, as the overlay fixes it (kube-proxy answers for it on the host too).
SVC_IP=198.18.21.80

# connector_state NAME: "STATE tasks-count" as Connect reports it through the Service.
connector_state() {
  curl -s -m 20 "http://$SVC_IP:8088/connectors/$1/status" | jq -r '"\(.connector.state) \(.tasks | length)"'
}

# mirror_json NAME TOPICS [INITIAL_STATE]: a MirrorSourceConnector create body (the brokers by
# the names the pods resolve; no credentials: these connectors never copy a record).
mirror_json() {
  jq -nc --arg n "$1" --arg t "$2" --arg s "${3:-}" '{name: $n, config: {
    "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
    "source.cluster.alias": "source", "target.cluster.alias": "target",
    "source.cluster.bootstrap.servers": "source-kafka:9092", "target.cluster.bootstrap.servers": "target-kafka:9092",
    "topics": $t}} + (if $s == "" then {} else {initial_state: $s} end)'
}

# op ARGS...: mm2-offsets ARGS in the operator's pod (tests/kube/10_cluster.bats makes it).
op() { kc exec mm2-operator -- mm2-offsets "$@"; }

# bad_pod NAME JQ: a Pod from the Deployment's template (not selected by it), changed by JQ.
bad_pod() {
  kc get deployment mm2-connect -o json | jq --arg n "$1" '{apiVersion: "v1", kind: "Pod",
    metadata: {name: $n, labels: {"app.kubernetes.io/name": "mm2-bad-pod"}},
    spec: (.spec.template.spec | .containers[0].resources.requests.cpu = "10m")}' | jq "$2" >"$W/$1.json"
  kc apply --server-side --field-manager=mm2kit-e2e -f "$W/$1.json" >/dev/null
}

# liveness_counts POD: "SUCCESSFUL FAILED", the liveness probes the kubelet ran in POD's
# worker container so far (its own counters, /metrics/probes; 0 for none yet).  An exec the
# runtime could not start (result "unknown", "errored" in the events) restarts nothing and
# is in neither count.
liveness_counts() {
  timeout 60 "$KUBE_BIN/kubectl" get --raw "/api/v1/nodes/$KUBE_NODE/proxy/metrics/probes" |
    awk -v p="pod=\"$1\"" -v ns="namespace=\"$NS\"" '
      /^prober_probe_total\{/ && index($0, p) && index($0, ns) && index($0, "probe_type=\"Liveness\"") {
        if (index($0, "result=\"successful\"")) ok += $NF
        else if (index($0, "result=\"failed\"")) bad += $NF
      }
      END { printf "%d %d\n", ok, bad }'
}

# no_secret TEXT...: no sentinel password (the workers', the source's, the target's, REST's) in TEXT.
no_secret() {
  local t
  for t in "$@"; do
    [[ "$t" != *"$BED_CONNECT_PASSWORD"* && "$t" != *"$BED_SOURCE_PASSWORD"* && "$t" != *"$BED_TARGET_PASSWORD"* &&
      "$t" != *"$BED_REST_PASSWORD"* && "$t" != *"$BED_REST_PROBE_PASSWORD"* ]] ||
      fail "the secret appeared in output"
  done
}
