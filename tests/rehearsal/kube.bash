# shellcheck shell=bash
# make rehearsal on the test Kubernetes cluster (tests/kube/cluster.sh), sourced by run.sh
# after its podman functions, which it replaces: the worker pods are the rendered
# k8s/overlays/kube-e2e Deployment's, the SIGTERMs come from the Deployment controller
# (a rolling update per delay) and the Eviction API, a hard kill is SIGKILL to the
# worker container's process (the kubelet restarts it in the same pod), the Job is the
# Job, and the operator's steps run in a pod made from the Job's template.  The pods'
# starts, Ready times, stops and exit codes come from the API: a watch of the workers'
# pods for the whole run (kube/pods-watch.json) and the namespace's events (kube/events.json).
# Sourced by run.sh, whose variables (root, W, LOGS, the associative GEN and DELAY...) it
# uses and sets; jq programs are single-quoted on purpose: their $names are jq's.
# shellcheck disable=SC2034,SC2154,SC2004,SC2016

# shellcheck source=tests/kube/kube.env
. "$root/tests/kube/kube.env"
NS=mm2
KW=$W/kube
OVERLAY_NAME=k8s/overlays/kube-runbook
LAST_KILLED=
SVC_IP=198.18.21.80
# shellcheck source=tests/kube/kc.bash
. "$root/tests/kube/kc.bash"

declare -A PIP=() SEEN=() READY_SEEN=() TERM_SEEN=() STOP_SEEN=() RESTARTS=() PARTS=()
LEADER=
wip() { # POD: its IP (follow keeps them: a pod keeps its IP for life, even once it is gone)
  if [ -n "${PIP[$1]:-}" ]; then printf '%s' "${PIP[$1]}"; else kc get pod "$1" -o jsonpath='{.status.podIP}' 2>/dev/null || true; fi
}

# parts_snapshot: PARTS[pod] = the partitions its tasks copy now, for every live pod, from one
# status and one tasks read (a deleted pod's are gone by the time its deletion is seen).
parts_snapshot() {
  local base st tk p
  [ ${#ACTIVE[@]} -gt 0 ] || return 0
  base="http://$(live_ip):8088/connectors/$CONN"
  st=$(curl -s -m 10 "$base/status") || return 0
  tk=$(curl -s -m 10 "$base/tasks") || return 0
  for p in "${ACTIVE[@]}"; do
    PARTS[$p]=$(jq -nc --argjson st "$st" --argjson tk "$tk" --arg w "${PIP[$p]:-none}:8088" '
      [($st.tasks // [])[] | select(.worker_id == $w) | .id] as $ids
      | [$tk[] | select(.id.task as $t | $ids | index($t)) | .config["task.assigned.partitions"] // "" | split(",")[]
         | select(. != "") | sub("-(?<p>[0-9]+)$"; "/\(.p)")]' 2>/dev/null || echo '[]')
  done
}
wname() { printf '%s' "$1"; }

# ms RFC3339: milliseconds since the epoch (the API's times have whole seconds).
ms() { printf '%s000' "$(date -u -d "$1" +%s)"; }

# event_at MS KIND key=value...: an event at the API's time, not the script's.
event_at() {
  local t=$1 kind=$2 kv k v args=()
  shift 2
  for kv in "$@"; do
    k=${kv%%=*} v=${kv#*=}
    if [ -n "$v" ] && jq . >/dev/null 2>&1 <<<"$v"; then args+=(--argjson "$k" "$v"); else args+=(--arg "$k" "$v"); fi
  done
  jq -nc --arg kind "$kind" --argjson t "$t" "${args[@]}" '$ARGS.named + {t: $t, kind: $kind}' >>"$W/events.jsonl"
}

backend_check() {
  [ -x "$root/tests/kube/cluster.sh" ] || die "tests/kube/cluster.sh is missing" 3
}

# secrets_dir DIR: kube-e2e's test Secrets as a secret store would hand them over, one directory
# per Secret, one file per key holding the bare value (docs/RUNBOOK.md, step 1).  Under a
# directory named secret-volumes, which run.sh's secrets.nowhere check leaves out; removed once
# the Secrets are made.
secrets_dir() {
  "$LPY" - "$root/k8s/overlays/kube-e2e/secret.yaml" "$1" <<'PY'
import os, sys, yaml
for doc in yaml.safe_load_all(open(sys.argv[1])):
    d = os.path.join(sys.argv[2], doc["metadata"]["name"])
    os.makedirs(d, mode=0o700)
    for k, v in doc["stringData"].items():
        with open(os.path.join(d, k), "w") as f:
            f.write(v)
PY
}

# pods_up: the cluster and the bed's brokers side by side (tests/kube/world.sh), then the
# runbook's step 1 as its document says: the namespace, the Secrets, the overlay kube-runbook
# (kube-e2e without its Secrets; the Job suspended) rendered into cutover/ and applied, the
# workers rolled out; 3 Ready pods; the operator pod.
pods_up() {
  local n
  mkdir -p "$KW"
  WORLD_LOGS=$LOGS timeout 1800 "$root/tests/kube/world.sh" up >"$LOGS/world-up.log" 2>&1 ||
    { tail -n 20 "$LOGS/world-up.log" >&2; die "the test cluster or the brokers did not come up; see $LOGS/"; }
  secrets_dir "$W/secret-volumes/store"
  for n in 1 2 3; do rbw "namespace-$n" namespace "$n" "SECRETS_DIR=$W/secret-volumes/store" || die "step 1's line $n failed: $(cat "$CUT/namespace-$n.err")"; done
  rm -rf "$W/secret-volumes/store"
  timeout 7200 "$KUBE_BIN/kubectl" -n "$NS" get pods -l app.kubernetes.io/component=worker --watch \
    --output-watch-events -o json >"$KW/pods-watch.json" 2>"$KW/pods-watch.err" &
  BG_PIDS+=("$!")
  for n in 1 2 3 4 5 6; do rbw "deploy-$n" deploy "$n" OVERLAY=kube-runbook || die "step 1's deploy line $n failed: $(cat "$CUT/deploy-$n.err")"; done
  [ "$(cat "$CUT/deploy-4.out")" = true ] || die "step 1: the Job's .spec.suspend is '$(cat "$CUT/deploy-4.out")', not true"
  ! grep -q '^kind: Secret$' "$CUT/rendered.yaml" || die "step 1: cutover/rendered.yaml holds a Secret"
  follow "bed up" 300
  operator_pod
  # The lines of step 1's "if it goes wrong" that are safe on a good deployment.
  { rbw step1-fix-1 step1-fix 1 && rbw step1-fix-2 step1-fix 2; } || die "step 1's suspend and describe lines failed: $(cat "$CUT/step1-fix-1.err" "$CUT/step1-fix-2.err")"
}

# backend_record: the namespace's events kept for the report (kube/events.json), before the
# cluster goes or is kept.
backend_record() {
  kc get events -o json >"$KW/events.json" 2>"$KW/events.err" || log "the namespace's events were not read: $(cat "$KW/events.err")"
}

# backend_down: the cluster down, then the brokers.
backend_down() {
  WORLD_LOGS=$LOGS timeout 600 "$root/tests/kube/world.sh" down >"$LOGS/world-down.log" 2>&1 || true
}

deployment_done() {
  kc get deployment mm2-connect -o json | jq -e '.status.readyReplicas == 3 and .status.updatedReplicas == 3
    and .status.replicas == 3 and .status.observedGeneration == .metadata.generation' >/dev/null 2>&1 &&
    [ "$(kc get pods -l app.kubernetes.io/component=worker -o json |
      jq '[.items[] | select(.metadata.deletionTimestamp != null)] | length')" = 0 ]
}

# follow PHASE SECONDS: until the Deployment is complete and no pod is going, record what
# the API says of each worker pod: created (start), Ready (ready), deleted (sigterm, at
# deletionTimestamp - grace), its container's end (stopped), a container restart.
follow() {
  local phase=$1 end=$((SECONDS + $2)) pods pods_ok names p st ready del grace fin code rc started ip
  [ ${#ACTIVE[@]} -eq 0 ] || LEADER=$(leader_index)
  while :; do
    parts_snapshot
    pods_ok=1
    pods=$(kc get pods -l app.kubernetes.io/component=worker -o json) || { pods='{"items":[]}' pods_ok=0; }
    while IFS=$'\t' read -r p st ready del grace fin code rc started ip; do
      [ -n "$p" ] || continue
      [ "$ip" = null ] || [ -n "${PIP[$p]:-}" ] || PIP[$p]=$ip
      if [ -z "${SEEN[$p]:-}" ]; then
        SEEN[$p]=1 RESTARTS[$p]=0 GEN[$p]=1
        DELAY[$p]=$(pod_delay "$p")
        event_at "$(ms "$st")" start worker="$p" ip="$(wip "$p")" delay_ms="${DELAY[$p]}"
      fi
      if [ "$rc" != "${RESTARTS[$p]}" ] && [ "$rc" != null ]; then
        RESTARTS[$p]=$rc GEN[$p]=$((${GEN[$p]} + 1)) READY_SEEN[$p]=
        event_at "$(ms "$started")" start worker="$p" ip="$(wip "$p")" delay_ms="${DELAY[$p]}" restart="$rc"
      fi
      if [ "$ready" != null ] && [ -z "${READY_SEEN[$p]:-}" ] && [ "$del" = null ]; then
        READY_SEEN[$p]=1
        ACTIVE+=("$p")
        event_at "$(ms "$ready")" ready worker="$p"
      fi
      if [ "$del" != null ] && [ -z "${TERM_SEEN[$p]:-}" ]; then
        term_seen "$p" "$phase" "$del" "$grace"
        save_pod_log "$p"
      fi
      # (Once the kubelet is done the API moves deletionTimestamp to the removal, grace 0:
      # then stops_from_watch reads the first report of the end instead.)
      if [ "$fin" != null ] && [ "$grace" -gt 0 ] && [ -n "${TERM_SEEN[$p]:-}" ] && [ -z "${STOP_SEEN[$p]:-}" ]; then
        STOP_SEEN[$p]=1
        event_at "$(ms "$fin")" stopped worker="$p" exit_code="$code" \
          stop_ms="$(($(ms "$fin") - $(ms "$del") + grace * 1000))"
      fi
    done < <(jq -r '.items[] | [.metadata.name, .metadata.creationTimestamp,
        ([.status.conditions[]? | select(.type == "Ready" and .status == "True") | .lastTransitionTime][0] // null),
        (.metadata.deletionTimestamp // null), (.metadata.deletionGracePeriodSeconds // 0),
        (.status.containerStatuses[0].state.terminated.finishedAt // null),
        (.status.containerStatuses[0].state.terminated.exitCode // null),
        (.status.containerStatuses[0].restartCount // null),
        (.status.containerStatuses[0].state.running.startedAt // null),
        (.status.podIP // null)] | map(tostring) | @tsv' <<<"$pods")
    # A pod removed between two polls (its worker stops in about 2 s; a poll that reads logs
    # can take longer) was never seen with its deletionTimestamp: the watch has it.
    if [ "$pods_ok" = 1 ]; then
      names=$(jq -r '.items[].metadata.name' <<<"$pods")
      for p in "${ACTIVE[@]}"; do
        grep -qxF -- "$p" <<<"$names" || term_seen "$p" "$phase" null 0
      done
    fi
    [ -n "$LEADER" ] || [ ${#ACTIVE[@]} -eq 0 ] || LEADER=$(leader_index)
    deployment_done && break
    [ $SECONDS -lt $end ] || die "$phase: the Deployment was not complete within $2 s: $(kc get pods -o wide 2>&1 | tr '\n' ';')"
    sleep 1
  done
  stops_from_watch
}

# term_seen POD PHASE DELETION GRACE: POD deleted (sigterm at deletionTimestamp - grace), no
# longer live.  DELETION null: the pod was already removed when follow looked.  A grace of 0
# is what the API says once the kubelet is done: the watch's first report of the deletion
# holds the request's time and grace.
term_seen() {
  local p=$1 phase=$2 del=$3 grace=$4 d0=$3 leader=$LEADER parts=${PARTS[$1]:-[]}
  TERM_SEEN[$p]=1
  forget "$p"
  if [ "$grace" = 0 ]; then
    read -r del grace < <(jq -sr --arg p "$p" '[.[] | .object | select(.metadata.name == $p
      and (.metadata.deletionGracePeriodSeconds // 0) > 0)] | first | select(.)
      | "\(.metadata.deletionTimestamp) \(.metadata.deletionGracePeriodSeconds)"' "$KW/pods-watch.json") || true
    if [ -z "$del" ] || [ -z "$grace" ]; then del=$d0 grace=0; fi
  fi
  if [ "$del" = null ]; then
    log "  $p was removed unseen and the watch holds no deletion of it"
    del=$(date -u +%FT%TZ)
  fi
  event_at "$(($(ms "$del") - grace * 1000))" sigterm worker="$p" phase="$phase" \
    leader="$([ "$leader" = "$p" ] && echo true || echo false)" leader_delay_ms="$(delay_of "$leader")" partitions="$parts"
  log "  SIGTERM $p ($([ "$leader" = "$p" ] && echo leader || echo member), tasks on $(jq -r 'join(" ")' <<<"$parts"))"
  [ "$leader" != "$p" ] || LEADER=
}

# stops_from_watch: a deleted pod's end as the watch saw it, when follow's polls missed it.
stops_from_watch() {
  local p line
  for p in "${!TERM_SEEN[@]}"; do
    [ -z "${STOP_SEEN[$p]:-}" ] || continue
    # The first report of its end: the API later moves deletionTimestamp to the removal. Only
    # reports with a deletionTimestamp: a pod hard-killed earlier reported a terminated state
    # (exit 137) before the kubelet restarted it, with no deletion yet.
    line=$(jq -sr --arg p "$p" '[.[] | .object | select(.metadata.name == $p and .metadata.deletionTimestamp and .status.containerStatuses[0].state.terminated)] | first
      | select(.) | [.status.containerStatuses[0].state.terminated.finishedAt, .status.containerStatuses[0].state.terminated.exitCode,
        .metadata.deletionTimestamp, .metadata.deletionGracePeriodSeconds] | map(tostring) | @tsv' "$KW/pods-watch.json" 2>/dev/null) || continue
    [ -n "$line" ] || continue
    IFS=$'\t' read -r fin code del grace <<<"$line"
    STOP_SEEN[$p]=1
    event_at "$(ms "$fin")" stopped worker="$p" exit_code="$code" stop_ms="$(($(ms "$fin") - $(ms "$del") + grace * 1000))"
  done
}

pod_delay() { # POD: the scheduled.rebalance.max.delay.ms its worker runs with
  local d
  d=$(kc get pod "$1" -o json | jq -r '.spec.containers[0].env[]? | select(.name == "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS") | .value')
  [ -n "$d" ] || d=$OVERLAY_DELAY
  printf '%s' "$d"
}

leader_index() { # the pod whose IP the newest assignment names as the leader
  local p line='' ip
  for p in "${ACTIVE[@]}"; do
    line=$(kc logs --tail 5000 "$p" 2>/dev/null | grep -o "leaderUrl='http://[0-9.]*:8088/'" | tail -n 1) || true
    [ -n "$line" ] && break
  done
  ip=${line#leaderUrl=\'http://}
  ip=${ip%%:*}
  for p in "${ACTIVE[@]}"; do [ "$(wip "$p")" = "$ip" ] && { printf '%s' "$p"; return 0; }; done
  return 0
}

settled() { # SECONDS: no live pod logged a rebalance step in the last SECONDS
  local p
  for p in "${ACTIVE[@]}"; do
    if kc logs --since "${1}s" "$p" 2>&1 | grep -qE 'Rebalance started|Joined group|Finished starting connectors and tasks'; then
      return 1
    fi
  done
}

save_pod_log() { # POD: its log (and the previous container's, after a restart)
  kc logs "$1" >"$LOGS/$1.${GEN[$1]:-1}.log" 2>&1 || true
  [ "${RESTARTS[$1]:-0}" = 0 ] || kc logs --previous "$1" >"$LOGS/$1.$((${GEN[$1]:-1} - 1)).log" 2>&1 || true
}

# roll PHASE DELAY: a rolling update by the Deployment controller, its new pods with DELAY.
roll() {
  local phase=$1 d=$2 leader cur
  leader=$(leader_index)
  event phase name="$phase" start=true delay_ms="$d" leader_delay_ms="$(delay_of "$leader")"
  log "$phase: the Deployment replaces ${#ACTIVE[@]} pods (new pods: scheduled.rebalance.max.delay.ms=$d; the leader's: $(delay_of "$leader"))"
  cur=$(kc get deployment mm2-connect -o json |
    jq -r '.spec.template.spec.containers[0].env[]? | select(.name == "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS") | .value')
  if [ "$cur" = "$d" ]; then
    kc rollout restart deployment/mm2-connect >/dev/null
  else
    kc set env deployment/mm2-connect "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS=$d" >/dev/null
  fi
  sleep 2
  follow "$phase" 900
  leader=$(leader_index)
  wait_tasks $(($(delay_of "$leader" "$d") / 1000 + 180))
  sleep 5
  event phase name="$phase" end=true
}

# kills PHASE N: SIGKILL to a worker container's process (a member running a task, the
# leader, ...); the kubelet restarts the container in the same pod; Ready, the tasks back.
kills() {
  local phase=$1 n=$2 k leader victim p parts cid before
  event phase name="$phase" start=true
  log "$phase: $n hard kill(s)"
  for ((k = 1; k <= n; k++)); do
    wait_settled "$SETTLE" 120
    leader=$(leader_index)
    victim=
    if [ $((k % 2)) = 0 ]; then
      victim=$leader
    else
      for p in "${ACTIVE[@]}"; do
        parts=$(owned_partitions "$(wip "$p")")
        if [ "$p" != "$leader" ] && [ "$(jq length <<<"$parts")" -gt 0 ]; then victim=$p; break; fi
      done
    fi
    [ -n "$victim" ] || victim=${ACTIVE[0]}
    parts=$(owned_partitions "$(wip "$victim")")
    cid=$(kc get pod "$victim" -o jsonpath='{.status.containerStatuses[0].containerID}')
    before=$(kc get pod "$victim" -o jsonpath='{.status.containerStatuses[0].restartCount}')
    event sigkill worker="$victim" phase="$phase" leader="$([ "$leader" = "$victim" ] && echo true || echo false)" \
      leader_delay_ms="$(delay_of "$leader")" partitions="$parts"
    save_pod_log "$victim"
    timeout 60 ctr -a "$KUBE_DIR/containerd/containerd.sock" -n k8s.io tasks kill -s SIGKILL "${cid#containerd://}" >/dev/null ||
      die "could not kill the container of $victim"
    log "  SIGKILL $victim ($([ "$leader" = "$victim" ] && echo leader || echo member), tasks on $(jq -r 'join(" ")' <<<"$parts"))"
    LAST_KILLED=$victim
    forget "$victim"
    local end=$((SECONDS + 120))
    until [ "$(kc get pod "$victim" -o jsonpath='{.status.containerStatuses[0].restartCount}')" != "$before" ]; do
      [ $SECONDS -lt $end ] || die "the kubelet did not restart $victim within 120 s"
      sleep 1
    done
    kc wait --for=condition=Ready "pod/$victim" --timeout=300s >/dev/null || die "$victim was not Ready again within 300 s"
    follow "$phase" 300
    wait_tasks $(($(delay_of "$leader" "$KAFKA_DEFAULT_DELAY") / 1000 + 180))
    sleep 5
  done
  event phase name="$phase" end=true
}

# evict PHASE: the Eviction API on a member running tasks (a node drain); the Deployment's
# replacement; the delay in force runs its full course.
evict() {
  local phase=$1 leader victim='' p parts code
  wait_settled "$SETTLE" 120
  leader=$(leader_index)
  event phase name="$phase" start=true leader_delay_ms="$(delay_of "$leader")"
  log "$phase: one member evicted (the leader's delay: $(delay_of "$leader"))"
  for p in "${ACTIVE[@]}"; do
    parts=$(owned_partitions "$(wip "$p")")
    if [ "$p" != "$leader" ] && [ "$(jq length <<<"$parts")" -gt 0 ]; then victim=$p; break; fi
  done
  [ -n "$victim" ] || die "no member other than the leader runs a task"
  code=$(curl -s -m 30 -o "$KW/evict.json" -w '%{http_code}' --cacert "$KUBE_DIR/pki/ca.crt" \
    --cert "$KUBE_DIR/pki/admin.crt" --key "$KUBE_DIR/pki/admin.key" -H 'Content-Type: application/json' \
    -X POST "https://$KUBE_NODE_IP:$KUBE_API_PORT/api/v1/namespaces/$NS/pods/$victim/eviction" \
    -d "{\"apiVersion\": \"policy/v1\", \"kind\": \"Eviction\", \"metadata\": {\"name\": \"$victim\", \"namespace\": \"$NS\"}}")
  [ "$code" = 201 ] || die "the eviction of $victim answered $code: $(cat "$KW/evict.json")"
  follow "$phase" 600
  wait_tasks $(($(delay_of "$leader" "$KAFKA_DEFAULT_DELAY") / 1000 + 180))
  sleep 5
  event phase name="$phase" end=true
}

# operator_pod: step 1's operator pod, by the runbook's lines (the last, an interactive shell,
# is tests/rehearsal/runbook-skip's): the Job's pod template (less its Job's labels and the
# plan) sleeping; oj and rbo run mm2-offsets in it with the Job's files, Secret and identity.
operator_pod() {
  local n
  for n in 1 2 3 4; do rbw "operator-$n" operator "$n" || die "step 1's operator pod line $n failed: $(cat "$CUT/operator-$n.err")"; done
  cp "$CUT/operator.json" "$KW/operator.json"
}

# op_sh STEP LINE: a command line of the runbook's "in the operator pod" blocks, in the pod
# (tests/rehearsal/runbook.bash, rbo); its /work copied to CUT after.
op_sh() {
  local rc=0
  timeout 300 "$KUBE_BIN/kubectl" -n "$NS" exec mm2-operator -- sh -c "$2" >"$CUT/$1.out" 2>"$CUT/$1.err" || rc=$?
  kc exec mm2-operator -- tar -C /work -cf - . | tar -C "$CUT" -xf -
  return "$rc"
}

# oj STEP ARGS...: mm2-offsets ARGS in the operator's pod; its /work copied to CUT after.
oj() {
  local step=$1 t0 rc=0
  shift
  t0=$(now_ms)
  timeout 300 "$KUBE_BIN/kubectl" -n "$NS" exec mm2-operator -- mm2-offsets "$@" >"$CUT/$step.out" 2>"$CUT/$step.err" || rc=$?
  STEP_MS[$step]=$(($(now_ms) - t0))
  kc exec mm2-operator -- tar -C /work -cf - . | tar -C "$CUT" -xf -
  event step name="$step" rc="$rc" ms="${STEP_MS[$step]}" t0="$t0"
  return "$rc"
}

# run_job: step 7 as the runbook says: the reviewed plan as the ConfigMap the Job mounts, the Job
# resumed, to its end, its log kept.  Then, once, "Run the Job again" and step 7 again: apply on
# the unchanged STOPPED connector changes nothing and verifies.
JOB_RUNS=0
run_job() {
  local n
  JOB_RUNS=$((JOB_RUNS + 1))
  for n in 1 2; do rbw "job-$n" job "$n" || die "step 7's line $n failed: $(cat "$CUT/job-$n.err")"; done
  rbw job-3 job 3 || log "step 7's wait: $(cat "$CUT/job-3.err")"
  rbw job-4 job 4 || true
  rbw job-5 job 5 || true
  if [ "$JOB_RUNS" = 1 ] && [ "$(cat "$CUT/job-4.out")" = "1 " ]; then
    cp "$CUT/job.log" "$CUT/job-1.log"
    for n in 1 2 3; do rbw "job-again-$n" job-again "$n" || die "step 7's run the Job again, line $n failed: $(cat "$CUT/job-again-$n.err")"; done
    run_job
    return
  fi
  # The pod's log holds stdout and stderr together: every diagnostic line starts with the
  # program's name, the rest is the reports' JSON (one line each, or pretty-printed).
  grep -Ev '^mm2-offsets [a-z]+: ' "$CUT/job.log" >"$CUT/job.out" || true
  grep -E '^mm2-offsets [a-z]+: ' "$CUT/job.log" >"$CUT/job.err" || true
  [ "$(kc get job mm2-offsets-apply -o jsonpath='{.status.succeeded}')" = 1 ]
}

# pod_facts POD: "UID:GID READ_ONLY_ROOT CapEff:... LOGFILES" as the API and the pod say.
pod_facts() {
  local sc capeff files
  sc=$(kc get pod "$1" -o jsonpath='{.spec.containers[0].securityContext.runAsUser}:{.spec.containers[0].securityContext.runAsGroup} {.spec.containers[0].securityContext.readOnlyRootFilesystem}')
  capeff=$(kc exec "$1" -- sh -c 'grep -E "^CapEff:" /proc/1/status | tr -d "\t "')
  files=$(kc exec "$1" -- sh -c 'find /tmp -name "*.log" | wc -l')
  printf '%s %s %s' "$sc" "$capeff" "$files"
}
