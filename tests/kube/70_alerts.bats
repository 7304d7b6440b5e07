#!/usr/bin/env bats
# The alerts that read the Kubernetes API's view of the pods (k8s/base/prometheusrule.yaml:
# MM2WorkerRestartLoop, MM2WorkerTerminationOverdue, MM2WorkerKilledAfterGrace), each fault
# made for real on the cluster.  On 127.0.0.1, a real kube-state-metrics (tests/kube/build-ksm.sh)
# watches the namespace's pods as a ServiceAccount that may only list and watch them, and a
# real Prometheus (Debian's, as in make alerts-e2e) scrapes it with honor_labels, as
# kube-prometheus does, and the workers' exporters as the ServiceMonitor asks (the Service's
# endpoints, port metrics; Debian's build has no Kubernetes discovery, so the test writes its
# file_sd targets from the EndpointSlices after each pod change), every 2 s, evaluating the
# rules of tests/alerts/overlay (the shipped rules with shorter fors, rendered and checked by
# tests/alerts/rules-from-kustomize.py).
# Every assertion is on Prometheus's own API.  teardown_file stops both by their recorded PIDs,
# also after a failure, before 90_host.bats compares the host; a test that fails half way
# undoes its fault in teardown, so the files after it find 3 Ready workers.
# Every test here is tagged long: they run in make kube-e2e, not in make test (make
# kube-e2e-short), whose alerts are make alerts-e2e-short's on the podman bed.  Building
# kube-state-metrics (about 3.5 minutes cold) and the restart loop (a minute warm) would put a
# fresh machine's make test at its 45-minute budget; the termination overdue waits more than a
# minute past a grace by definition, the kill at the grace's end a minute of liveness failures
# and the 60 s grace.
# shellcheck disable=SC2154 # output and stderr are set by bats' run; PROM by ../alerts/prom
load helpers
AL_PROM_ADDR=${KUBE_AL_PROM_ADDR:-127.0.0.1:39190}
# query, query_value, alerts, alert_matches, alert_absent: Prometheus's API, as alerts.bats asks it.
load ../alerts/prom
KSM_ADDR=${KUBE_AL_KSM_ADDR:-127.0.0.1:39180}
KSM_TELEMETRY_ADDR=${KUBE_AL_KSM_TELEMETRY_ADDR:-127.0.0.1:39181}
A=$W/alerts
LPY=$MM2KIT_CACHE/lint-venv/bin/python3 # PyYAML, for rules-from-kustomize.py

# panel_has_data TITLE [SELECTOR_LABEL=VALUE]: the dashboard's panel of that title
# (k8s/dashboards/, read by the podman bed's alerts.bats for every other panel) returns data
# here, where kube-state-metrics runs; with a label, a series carrying it.
panel_has_data() {
  local expr
  expr=$("$LPY" "$AL_ROOT/tests/alerts/dashboard-queries.py" --lines --interval 20s "$AL_ROOT"/k8s/dashboards/*.json |
    awk -F'\t' -v t="$1" '$1 == t { print $2; exit }')
  [ -n "$expr" ] || { echo "no panel titled \"$1\"" >&2; return 1; }
  if [ $# -ge 2 ]; then
    query "$expr" | jq -e --arg k "${2%%=*}" --arg v "${2#*=}" 'any(.[]; .metric[$k] == $v)' >/dev/null
  else
    [ "$(query "$expr")" != "[]" ]
  fi
}
# Where kube-prometheus runs kube-state-metrics: the labels prometheus-operator gives its
# target, which honor_labels must let the pods' own namespace and pod labels override.
KSM_NS=monitoring
KSM_POD=kube-state-metrics-0
# The finalizer of the termination test: nobody in the cluster removes it but the test.
HOLD=mm2kit.test/hold

# await SECONDS WHAT COMMAND...: retries COMMAND once a second until it succeeds; fails
# naming WHAT did not happen.
await() {
  local t=$1 what=$2 end
  shift 2
  end=$((SECONDS + t))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || { echo "within ${t} s: not $what" >&2; return 1; }
    sleep 1
  done
}

# Predicates for await: each asks anew every time it runs.
value_is() { [ "$(query_value "$1")" = "$2" ]; }      # PROMQL VALUE
has_value() { [ -n "$(query_value "$1")" ]; }         # PROMQL
# none_active ALERT [LABEL=VALUE]...: Prometheus answered, and no such alert is pending or firing.
none_active() { curl -sf -m 10 -o /dev/null "$PROM/api/v1/alerts" && alert_absent "$@"; }
# restarts POD: the worker container's restart count, as the API has it.
restarts() { kc get pod "$1" -o jsonpath='{.status.containerStatuses[?(@.name=="worker")].restartCount}'; }
restarted_since() { [ "$(restarts "$1")" -gt "$2" ]; } # POD COUNT
# pod_gone POD: the API answers that POD does not exist.
pod_gone() { local o; o=$(kc get pod "$1" --ignore-not-found -o name) && [ -z "$o" ]; }
# new_pods OLD: the worker pods, not being deleted, that are not among OLD (names, one a line).
new_pods() { worker_pods | grep -vxF -f <(tr ' ' '\n' <<<"$1" | sed '/^$/d') || true; }
has_new_pod() { [ -n "$(new_pods "$1")" ]; }
# ksm_value METRIC POD: METRIC of POD as kube-state-metrics exports it now (its own /metrics),
# in whole seconds.
ksm_value() {
  curl -sf -m 10 "http://$KSM_ADDR/metrics" |
    awk -v m="$1{" -v p="pod=\"$2\"" 'index($0, m) == 1 && index($0, p) { printf "%d\n", $NF }'
}
# firing_pods ALERT: the pods ALERT fires for, sorted, space-separated.
firing_pods() {
  alerts | jq -r --arg n "$1" '[.[] | select(.labels.alertname == $n and .state == "firing") | .labels.pod] | sort | join(" ")'
}

# targets: the workers' scrape targets (file_sd), as the ServiceMonitor's endpoint discovery
# finds them: every endpoint of the mm2-connect Service, Ready or not, on the port named
# metrics, labelled with the namespace and pod as prometheus-operator labels them.
# Prometheus reads the file again as soon as it changes.
targets() {
  local j
  j=$(kc get endpointslices -l kubernetes.io/service-name=mm2-connect -o json) || return 1
  jq -c --arg ns "$NS" '[.items[] | ((.ports // [])[] | select(.name == "metrics") | .port) as $port
    | (.endpoints // [])[] | select(.targetRef.kind == "Pod")
    | {targets: ["\(.addresses[0]):\($port)"],
       labels: {namespace: $ns, pod: .targetRef.name, service: "mm2-connect", endpoint: "metrics"}}]' \
    <<<"$j" >"$A/targets.json.new" || return 1
  mv "$A/targets.json.new" "$A/targets.json"
}
# targets_have POD: the targets, written anew, include POD.
targets_have() { targets && jq -e --arg p "$1" 'any(.[]; .labels.pod == $p)' "$A/targets.json"; }

# ---- the two processes, stopped by recorded PID ----------------------------------------------
# NAME PID START: the PID's start time (/proc/PID/stat field 22), so that a PID reused after
# its process ended (kernel.pid_max is 32768 here) is never signalled.
proc_start() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
started() { printf '%s %s %s\n' "$1" "$2" "$(proc_start "$2")" >>"$A/pids"; }
stop_started() {
  local name pid start
  [ -f "$A/pids" ] || return 0
  while read -r name pid start; do
    if [ -z "$start" ] || [ "$(proc_start "$pid")" != "$start" ]; then continue; fi
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do [ "$(proc_start "$pid")" = "$start" ] || break; sleep 0.1; done
    if [ "$(proc_start "$pid")" = "$start" ]; then
      echo "$name ($pid) ignored SIGTERM for 10 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done <"$A/pids"
  rm -f "$A/pids"
}

port_free() { ! (exec 9<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }

# kubeconfig NAME: a kubeconfig for ServiceAccount NAME of the namespace, its token in a
# file of its own (mode 0600, never printed).
kubeconfig() {
  (umask 077 && kc create token "$1" --duration=2h >"$A/$1.token") || return 1
  jq -n --arg s "https://$KUBE_NODE_IP:$KUBE_API_PORT" --arg ca "$KUBE_DIR/pki/ca.crt" \
    --arg t "$A/$1.token" --arg u "$1" --arg ns "$NS" '{apiVersion: "v1", kind: "Config",
    clusters: [{name: "e2e", cluster: {server: $s, "certificate-authority": $ca}}],
    users: [{name: $u, user: {tokenFile: $t}}],
    contexts: [{name: $u, context: {cluster: "e2e", user: $u, namespace: $ns}}],
    "current-context": $u}' >"$A/$1.kubeconfig"
}

setup_file() {
  local ksm a
  rm -rf "$A"
  mkdir -p "$A"
  for a in prometheus promtool jq curl; do
    command -v "$a" >/dev/null || { echo "$a is not installed; run 'make deps'" >&2; return 1; }
  done
  [ -x "$LPY" ] || { echo "$LPY is missing; run 'make deps'" >&2; return 1; }
  for a in "$AL_PROM_ADDR" "$KSM_ADDR" "$KSM_TELEMETRY_ADDR"; do
    port_free "$a" || { echo "$a is in use; set KUBE_AL_PROM_ADDR, KUBE_AL_KSM_ADDR or KUBE_AL_KSM_TELEMETRY_ADDR to free 127.0.0.1 ports" >&2; return 1; }
  done
  # Built once from the Go module proxy (cold: minutes), cached by version.
  ksm=$(timeout 1800 "$ROOT/tests/kube/build-ksm.sh" 2>"$A/build-ksm.log") ||
    { cat "$A/build-ksm.log" >&2; return 1; }

  # The rules exactly as shipped but for their fors (the overlay's, checked against the base).
  timeout 60 "$KUBE_BIN/kubectl" kustomize "$ROOT/tests/alerts/overlay" >"$A/overlay.yaml"
  timeout 60 "$KUBE_BIN/kubectl" kustomize "$ROOT/k8s/base" >"$A/base.yaml"
  "$LPY" "$ROOT/tests/alerts/rules-from-kustomize.py" --same-as "$A/base.yaml" \
    --settable mm2:replication_latency_threshold_ms <"$A/overlay.yaml" >"$A/rules.yaml"

  # kube-state-metrics' ServiceAccount may list and watch pods (its in-cluster ClusterRole,
  # cut to the one resource and namespace it watches here).
  kc apply --server-side --field-manager=mm2kit-e2e -f - >"$A/rbac.log" <<EOF
apiVersion: v1
kind: ServiceAccount
metadata: {name: mm2kit-e2e-ksm}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: mm2kit-e2e-ksm}
rules:
  - {apiGroups: [""], resources: [pods], verbs: [list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: mm2kit-e2e-ksm}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: mm2kit-e2e-ksm}
subjects: [{kind: ServiceAccount, name: mm2kit-e2e-ksm, namespace: $NS}]
EOF
  kubeconfig mm2kit-e2e-ksm
  targets

  # kube-state-metrics' target carries the labels prometheus-operator would give it (its own
  # pod's): with honor_labels the series keep the worker pods' namespace and pod.  The
  # workers' job reads the targets above.
  jq -n --arg rules "$A/rules.yaml" --arg ksm "$KSM_ADDR" --arg kns "$KSM_NS" --arg kpod "$KSM_POD" \
    --arg targets "$A/targets.json" '{
    global: {scrape_interval: "2s", evaluation_interval: "2s"},
    rule_files: [$rules],
    scrape_configs: [
      {job_name: "kube-state-metrics", honor_labels: true,
       static_configs: [{targets: [$ksm], labels: {namespace: $kns, pod: $kpod}}]},
      {job_name: "mm2-connect", metrics_path: "/metrics",
       file_sd_configs: [{files: [$targets], refresh_interval: "5s"}]}]}' >"$A/prometheus.yml"
  promtool check config "$A/prometheus.yml" >"$A/promtool-config.log" 2>&1 ||
    { cat "$A/promtool-config.log" >&2; return 1; }

  detach "$ksm" --kubeconfig="$A/mm2kit-e2e-ksm.kubeconfig" --resources=pods --namespaces="$NS" \
    --host="${KSM_ADDR%:*}" --port="${KSM_ADDR##*:}" \
    --telemetry-host="${KSM_TELEMETRY_ADDR%:*}" --telemetry-port="${KSM_TELEMETRY_ADDR##*:}" \
    >"$A/kube-state-metrics.log" 2>&1
  started kube-state-metrics $!
  detach prometheus --config.file="$A/prometheus.yml" --storage.tsdb.path="$A/prom-data" \
    --web.listen-address="$AL_PROM_ADDR" --storage.tsdb.retention.time=2h >"$A/prometheus.log" 2>&1
  started prometheus $!
  await 60 "Prometheus ready on $AL_PROM_ADDR (see $A/prometheus.log)" curl -sf -m 2 "$PROM/-/ready"
  # Both jobs scraped: kube-state-metrics up, and the three workers' exporters.
  await 60 "kube-state-metrics scraped (see $A/kube-state-metrics.log)" value_is 'up{job="kube-state-metrics"}' 1
  await 60 "the 3 workers' exporters scraped" value_is 'count(up{job="mm2-connect"} == 1)' 3
}

teardown_file() {
  # What Prometheus saw last, for the record; then both processes, whatever happened.
  curl -sf -m 5 "$PROM/api/v1/alerts" >"$A/alerts-at-end.json" 2>/dev/null || true
  stop_started
  kc delete serviceaccount,role,rolebinding mm2kit-e2e-ksm --ignore-not-found >/dev/null 2>&1 || true
  rm -f "$A"/*.token
}

# A test that failed half way leaves no fault behind: each marker names one still in place.
teardown() {
  local pid start
  if [ -f "$A/frozen" ]; then
    read -r pid start <"$A/frozen"
    [ "$(proc_start "$pid")" != "$start" ] || kill -CONT "$pid" 2>/dev/null || true
    rm -f "$A/frozen"
  fi
  if [ -f "$A/held" ]; then
    kc patch pod "$(cat "$A/held")" --type=json -p '[{"op": "remove", "path": "/metadata/finalizers"}]' >/dev/null 2>&1 || true
    rm -f "$A/held"
  fi
  if [ -f "$A/bad-rollout" ]; then
    kc rollout undo deployment/mm2-connect >/dev/null 2>&1 || true
    kc rollout status deployment/mm2-connect --timeout=180s >/dev/null 2>&1 || true
    rm -f "$A/bad-rollout"
  fi
}

# bats test_tags=long
@test "kube-state-metrics sees the worker pods as a ServiceAccount that may only list and watch them; Prometheus keeps their namespace and pod (honor_labels)" {
  ksmk=(--kubeconfig "$A/mm2kit-e2e-ksm.kubeconfig")
  run -0 timeout 30 "$KUBE_BIN/kubectl" "${ksmk[@]}" auth can-i watch pods -n "$NS"
  assert_output yes
  run -1 timeout 30 "$KUBE_BIN/kubectl" "${ksmk[@]}" auth can-i get secrets -n "$NS"
  assert_output no
  run -1 timeout 30 "$KUBE_BIN/kubectl" "${ksmk[@]}" auth can-i list pods -n kube-system
  assert_output no
  workers=$(worker_pods | sort | tr '\n' ' ')
  # Every worker's container, under its own pod and namespace (not KSM's: honor_labels).
  run -0 query 'kube_pod_container_status_restarts_total{container="worker"}'
  assert_equal "$(jq -r '[.[] | select(.metric.namespace == "mm2" and (.metric.pod | startswith("mm2-connect-"))) | .metric.pod] | sort | join(" ")' <<<"$output") " "$workers"
  run -0 query_value "count(kube_pod_info{namespace=\"$KSM_NS\"}) or vector(0)"
  assert_output 0
  # Nothing restarted, was deleted or was killed while this Prometheus watched: none of the three.
  for a in MM2WorkerRestartLoop MM2WorkerTerminationOverdue MM2WorkerKilledAfterGrace; do
    none_active "$a" || fail "$a active before any fault: $(alerts)"
  done
}

# bats test_tags=long
@test "MM2WorkerRestartLoop: a rolling update whose pod mm2-entrypoint refuses fires for that pod, counted by the kubelet though never scraped; undone, it resolves and the 3 workers stay" {
  run -0 all_ready 3
  old=$(worker_pods | sort | tr '\n' ' ')
  touch "$A/bad-rollout"
  # A group id with a space: mm2-entrypoint refuses it (exit 3) before any JVM starts.  The
  # Deployment surges one new pod (maxSurge 1) and keeps the 3 old ones (maxUnavailable 0).
  run -0 kc set env deployment/mm2-connect -c worker 'CONNECT_GROUP_ID=mm2kit bad group'
  await 60 "the rolling update's new pod" has_new_pod "$old"
  bad=$(new_pods "$old")
  [ "$(wc -l <<<"$bad")" = 1 ] || fail "not one new pod: $bad"
  # An endpoint of the Service, not Ready: a target of the workers' job, like any other.
  await 60 "$bad among the Service's endpoints" targets_have "$bad"
  await 150 "MM2WorkerRestartLoop firing for $bad" alert_matches firing MM2WorkerRestartLoop namespace="$NS" pod="$bad" severity=critical
  n=$(restarts "$bad")
  # For that pod only, after 3 restarts by the kubelet's own count (not on the second: the
  # extrapolation of increase() made "> 2" fire there).
  run -0 firing_pods MM2WorkerRestartLoop
  assert_output "$bad"
  # The dashboard's panel shows it.
  await 30 "the dashboard's restart panel showing $bad" panel_has_data "Worker container restarts counted by the kubelet (15 minutes)" pod="$bad"
  [ "$n" -ge 3 ] || fail "MM2WorkerRestartLoop fired for $bad after $n restarts (the rule asks for 3 or more)"
  # Each run was the entrypoint's refusal (exit 3), never a JVM: the workers' job had the pod
  # as a target, and every scrape of it failed; no process_start_time_seconds from it, which
  # is all MM2WorkerRestarts counts.
  run -0 query_value "kube_pod_container_status_last_terminated_exitcode{namespace=\"$NS\",pod=\"$bad\",container=\"worker\"}"
  assert_output 3
  run -0 kc logs "$bad" -c worker --previous
  no_secret "$output"
  assert_output --partial 'CONNECT_GROUP_ID must be 1-255 printable characters without spaces, got "mm2kit bad group"'
  run -0 query_value "max_over_time(up{job=\"mm2-connect\",pod=\"$bad\"}[10m])"
  assert_output 0
  run -0 query "max_over_time(process_start_time_seconds{job=\"mm2-connect\",pod=\"$bad\"}[10m])"
  assert_output '[]'
  run -0 query_value 'count(process_start_time_seconds{job="mm2-connect"})'
  assert_output 3
  none_active MM2WorkerRestarts || fail "MM2WorkerRestarts active: $(alerts)"

  # Undone: the new pod goes, the alert with it; the 3 old pods never moved.
  run -0 kc rollout undo deployment/mm2-connect
  run -0 kc rollout status deployment/mm2-connect --timeout=180s
  rm -f "$A/bad-rollout"
  await 60 "MM2WorkerRestartLoop resolved for $bad" none_active MM2WorkerRestartLoop
  await 60 "pod $bad gone" pod_gone "$bad"
  run -0 all_ready 3
  assert_equal "$(worker_pods | sort | tr '\n' ' ')" "$old"
  run -0 targets
  run -0 kc get deployment mm2-connect -o json
  run -0 jq -r '.spec.template.spec.containers[0].env[].name' <<<"$output"
  refute_line CONNECT_GROUP_ID
}

# bats test_tags=long
@test "MM2WorkerTerminationOverdue: a worker pod held by a finalizer past its 5 s grace fires a minute after its deletionTimestamp (the delete plus the grace, then the kubelet's last delete); released, it goes and resolves" {
  run -0 all_ready 3
  p=$(worker_pods | tail -n 1)
  run -0 kc patch pod "$p" --type=merge -p "{\"metadata\": {\"finalizers\": [\"$HOLD\"]}}"
  echo "$p" >"$A/held"
  t0=$(date +%s)
  run -0 kc delete pod "$p" --grace-period=5 --wait=false
  t1=$(date +%s)
  # The API server's deletionTimestamp is the delete's time plus the grace (to the second),
  # and kube-state-metrics exports exactly it (read at once, while the JVM still stops).
  run -0 kc get pod "$p" -o jsonpath='{.metadata.deletionTimestamp} {.metadata.deletionGracePeriodSeconds}'
  dts=$(date -d "${output% *}" +%s)
  assert_equal "${output#* }" 5
  [ "$dts" -ge $((t0 + 5 - 1)) ] && [ "$dts" -le $((t1 + 5)) ] ||
    fail "deletionTimestamp $dts is not the delete ($t0..$t1) plus 5 s"
  k=$(ksm_value kube_pod_deletion_timestamp "$p")
  echo "delete $t0..$t1 deletionTimestamp $dts kube-state-metrics $k" >>"$A/termination.log"
  assert_equal "$k" "$dts"
  [ $((k - t0 - 5)) -ge -3 ] && [ $((k - t1 - 5)) -le 3 ] || fail "kube_pod_deletion_timestamp $k is not the delete ($t0..$t1) + 5 s (±3)"
  await 30 "kube_pod_deletion_timestamp of $p in Prometheus" has_value "kube_pod_deletion_timestamp{namespace=\"$NS\",pod=\"$p\"}"
  # Not before a minute past the grace; then firing, for that pod only.
  await 120 "MM2WorkerTerminationOverdue firing for $p" alert_matches firing MM2WorkerTerminationOverdue namespace="$NS" pod="$p" severity=warning
  run -0 firing_pods MM2WorkerTerminationOverdue
  assert_output "$p"
  await 30 "the dashboard's terminating panel showing $p" panel_has_data "Worker pods terminating: seconds past the end of their grace" pod="$p"
  active=$(date -d "$(alerts | jq -r '.[] | select(.labels.alertname == "MM2WorkerTerminationOverdue") | .activeAt')" +%s)
  query "kube_pod_deletion_timestamp{namespace=\"$NS\",pod=\"$p\"}[3m]" >>"$A/termination.log"
  # Still listed, its finalizer the only thing left: its container has stopped.
  run -0 kc get pod "$p" -o jsonpath='{.metadata.finalizers} {.status.containerStatuses[0].state.terminated.reason}'
  assert_output --regexp "^\[\"$HOLD\"\] [A-Za-z]+$"
  # Once its container had stopped, the kubelet deleted the pod again with grace 0: held by
  # the finalizer, the pod then carries that moment as its deletionTimestamp (seen here a few
  # seconds before or after the grace's end), and the alert counts its minute from there
  # (activeAt, truncated here to the second, can be that second plus 60 exactly).
  run -0 kc get pod "$p" -o jsonpath='{.metadata.deletionTimestamp} {.metadata.deletionGracePeriodSeconds}'
  echo "pending at $active; now $output" >>"$A/termination.log"
  assert_equal "${output#* }" 0
  dts2=$(date -d "${output% *}" +%s)
  [ "$dts2" -ge $((dts - 5)) ] && [ "$dts2" -le $((dts + 30)) ] || fail "deletionTimestamp $dts2 after the kubelet's delete, far from the grace's end $dts"
  assert_equal "$(ksm_value kube_pod_deletion_timestamp "$p")" "$dts2"
  [ "$active" -ge $((dts2 + 60)) ] && [ "$active" -le $((dts2 + 70)) ] ||
    fail "pending at $active, not within 10 s once a minute had passed since deletionTimestamp $dts2"

  # Released: the pod goes, the alert resolves, and the Deployment's replacement is Ready.
  run -0 kc patch pod "$p" --type=json -p '[{"op": "remove", "path": "/metadata/finalizers"}]'
  rm -f "$A/held"
  await 60 "pod $p gone" pod_gone "$p"
  await 30 "MM2WorkerTerminationOverdue resolved" none_active MM2WorkerTerminationOverdue
  await 240 "3 workers Ready" all_ready 3
  run -0 worker_pods
  refute_line "$p"
  run -0 targets
}

# bats test_tags=long
@test "MM2WorkerKilledAfterGrace: a worker whose JVM is frozen fails its liveness probe and is killed at its grace's end (exit 137, not OOMKilled); it fires for that pod, restarted in place and Ready" {
  run -0 all_ready 3
  # Not the pod 60_kill.bats killed (also exit 137, before this Prometheus watched).
  p=$(worker_pods | grep -vxF "$(cat "$W/killed" 2>/dev/null || echo none)" | head -n 1)
  uid=$(kc get pod "$p" -o jsonpath='{.metadata.uid}')
  r0=$(restarts "$p")
  none_active MM2WorkerKilledAfterGrace pod="$p" || fail "MM2WorkerKilledAfterGrace already active for $p"
  cid=$(kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].containerID}')
  cid=${cid#containerd://}
  # The JVM is the container's PID 1 (mm2-entrypoint execs it): its host PID from containerd.
  pid=$(timeout 60 ctr -a "$KUBE_DIR/containerd/containerd.sock" -n k8s.io tasks ls | awk -v c="$cid" '$1 == c { print $2 }')
  [[ $pid =~ ^[0-9]+$ ]] || fail "no host PID for container $cid of $p"
  grep -q java "/proc/$pid/cmdline" || fail "PID $pid of $p is not the JVM"
  printf '%s %s\n' "$pid" "$(proc_start "$pid")" >"$A/frozen"
  run -0 kill -STOP "$pid"
  # Six failed liveness probes (a minute), then the kubelet stops the container: SIGTERM,
  # which a stopped process cannot act on, and SIGKILL at the end of the 60 s grace.
  await 300 "$p's worker restarted after the freeze" restarted_since "$p" "$r0"
  rm -f "$A/frozen"
  run -0 kc get pod "$p" -o jsonpath='{.status.containerStatuses[0].lastState.terminated.exitCode} {.status.containerStatuses[0].lastState.terminated.reason} {.status.containerStatuses[0].lastState.terminated.finishedAt}'
  read -r code reason finished <<<"$output"
  assert_equal "$code $reason" "137 Error"
  # Killed at the grace's end: the kubelet's decision (its event) 60 s before the exit.
  run -0 kc get events --field-selector "involvedObject.name=$p,reason=Killing" -o json
  killing=$(jq -r '[.items[] | select(.message | test("failed liveness probe, will be restarted")) | .lastTimestamp // .eventTime] | max' <<<"$output")
  [ "$killing" != null ] || fail "no Killing event for $p's liveness failure: $output"
  grace=$(($(date -d "$finished" +%s) - $(date -d "$killing" +%s)))
  [ "$grace" -ge 58 ] && [ "$grace" -le 66 ] || fail "$p exited $grace s after the kubelet decided to kill it, not at its 60 s grace"
  await 60 "MM2WorkerKilledAfterGrace firing for $p" alert_matches firing MM2WorkerKilledAfterGrace namespace="$NS" pod="$p" severity=warning
  run -0 firing_pods MM2WorkerKilledAfterGrace
  assert_output "$p"
  # Restarted in the same pod, Ready again.
  await 240 "3 workers Ready" all_ready 3
  run -0 kc get pod "$p" -o jsonpath='{.metadata.uid} {.status.containerStatuses[0].ready}'
  assert_output "$uid true"
  assert_equal "$(restarts "$p")" $((r0 + 1))
}
