#!/usr/bin/env bats
# The overlay on a real API server, kubelet and controllers (tests/kube/cluster.sh):
# Pod Security admission, server-side apply, the workers Ready through the kubelet's
# exec probes, the Downward API's POD_IP, and REST forwarding between pod IPs.  What needs
# no worker (the producer, the Flink-like copier, the pods of 25_bad_pods.bats, the
# operator's pod) is started while the workers' JVMs start.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

@test "the namespace enforces Pod Security restricted and the whole overlay applies server-side without a warning" {
  kubectl kustomize "$ROOT/k8s/overlays/kube-e2e" >"$W/render.yaml"
  objects=$(grep -c '^kind: ' "$W/render.yaml")
  run -0 --separate-stderr timeout 120 "$KUBE_BIN/kubectl" apply --server-side --field-manager=mm2kit-e2e -f "$W/render.yaml"
  assert_equal "$stderr" ""
  assert_equal "$(grep -c ' serverside-applied$' <<<"$output")" "$objects"
  run -0 kc get namespace "$NS" -o jsonpath='{.metadata.labels.pod-security\.kubernetes\.io/enforce}'
  assert_output restricted
  # The admission really enforces: a pod that is not restricted is rejected.
  run -1 --separate-stderr kc run mm2-not-restricted --image="$IMAGE" --image-pull-policy=Never --restart=Never --dry-run=server
  assert_equal "$stderr" 'Error from server (Forbidden): pods "mm2-not-restricted" is forbidden: violates PodSecurity "restricted:v1.34": allowPrivilegeEscalation != false (container "mm2-not-restricted" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "mm2-not-restricted" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "mm2-not-restricted" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "mm2-not-restricted" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")'
  # Every object the render holds is in the API, as rendered (the Job suspended).
  run -0 kc get deployment,service,configmap,secret,pdb,networkpolicy,servicemonitor,prometheusrule,job,serviceaccount -o name
  for want in deployment.apps/mm2-connect service/mm2-connect secret/mm2-connect-auth \
    poddisruptionbudget.policy/mm2-connect networkpolicy.networking.k8s.io/mm2-connect \
    networkpolicy.networking.k8s.io/mm2-offsets-job servicemonitor.monitoring.coreos.com/mm2-connect \
    prometheusrule.monitoring.coreos.com/mm2-connect job.batch/mm2-offsets-apply serviceaccount/mm2-connect; do
    assert_line "$want"
  done
  run -0 kc get job mm2-offsets-apply -o jsonpath='{.spec.suspend} {.status.active}'
  assert_output "true "
}

@test "while the workers start: a producer writes, a Flink-like copier stops at C, pods with one thing wrong and the operator's pod are created" {
  # None of this needs a worker, so it runs while their JVMs start (about half a minute).
  run -0 kit 120 create-topics --bootstrap "$BED_SRC_BOOTSTRAP" orders:3 payments:2
  run -0 kit 120 create-topics --bootstrap "$BED_TGT_BOOTSTRAP" orders:3 payments:2
  mkdir -p "$W/ctl"
  # Until 40_rollout.bats touches ctl/stop (teardown_suite stops it by its PID, whatever happens).
  BEDKIT_SASL_USERNAME=$BED_ADMIN_USER BEDKIT_SASL_PASSWORD=$BED_ADMIN_PASSWORD detach \
    timeout -s KILL 1200 "$MM2KIT_CACHE/venv/bin/python3" "$ROOT/tests/bed/bedkit.py" produce-loop \
    --bootstrap "$BED_SRC_BOOTSTRAP" --topics orders:3,payments:2 --rate 30 --control "$W/ctl" --seed 11 \
    >"$W/producer.out" 2>"$W/producer.log"
  echo $! >"$W/producer.pid"
  # The pods of 25_bad_pods.bats: the Deployment's template with a wrong POD_IP, without the
  # Secret's JAAS entry, or naming a Secret that does not exist.
  bad_pod mm2-bad-pod-ip '.spec.containers[0].env |= map(if .name == "POD_IP" then {name: "POD_IP", value: "198.18.23.77"} else . end)'
  bad_pod mm2-bad-secret '.spec.containers[0].env |= map(if .name == "CONNECT_SASL_JAAS_CONFIG" then .valueFrom.secretKeyRef = {name: "mm2-connect-auth-missing", key: "sasl-jaas-config", optional: true} else . end)'
  bad_pod mm2-no-secret '.spec.containers[0].env |= map(if .valueFrom.secretKeyRef then .valueFrom.secretKeyRef.name = "mm2-connect-auth-missing" else . end)'
  # The operator's pod (tests/kube/operator-pod.jq): the Job's pod template, sleeping.
  kc get job mm2-offsets-apply -o json | jq --arg sleep 7200 -f "$ROOT/tests/kube/operator-pod.jq" >"$W/operator.json"
  run -0 --separate-stderr kc apply --server-side --field-manager=mm2kit-e2e -f "$W/operator.json"
  assert_equal "$stderr" ""
  # A pod outside every NetworkPolicy's allowed set: the operator's, under a name and labels
  # of its own (the NetworkPolicy test below).
  jq '.metadata.name = "mm2-outsider" | .metadata.labels = {"app.kubernetes.io/name": "mm2-outsider"}' "$W/operator.json" >"$W/outsider.json"
  run -0 --separate-stderr kc apply --server-side --field-manager=mm2kit-e2e -f "$W/outsider.json"
  assert_equal "$stderr" ""
  # Prometheus as the policy knows it: a pod labelled app.kubernetes.io/name=prometheus in the
  # namespace monitoring (the image, sleeping: the NetworkPolicy test scrapes from it).
  run -0 --separate-stderr timeout 60 "$KUBE_BIN/kubectl" apply --server-side --field-manager=mm2kit-e2e -f - <<EOF
apiVersion: v1
kind: Namespace
metadata: {name: monitoring}
---
apiVersion: v1
kind: Pod
metadata: {name: mm2-scraper, namespace: monitoring, labels: {app.kubernetes.io/name: prometheus}}
spec:
  automountServiceAccountToken: false
  terminationGracePeriodSeconds: 1
  securityContext: {runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001, seccompProfile: {type: RuntimeDefault}}
  containers:
    - name: scraper
      image: $IMAGE
      imagePullPolicy: Never
      command: [sleep, "7200"]
      securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}
      resources: {requests: {cpu: 10m, memory: 16Mi}, limits: {memory: 64Mi}}
EOF
  assert_equal "$stderr" ""
  # Flink's last checkpoint: C some records behind the log end, orders-1 at C = 0.
  wait_for 60 jq -e '[.acked[]] | all(. >= 20)' "$W/ctl/state.json"
  ends_o=$(kit 120 ends --bootstrap "$BED_SRC_BOOTSTRAP" --topic orders)
  ends_p=$(kit 120 ends --bootstrap "$BED_SRC_BOOTSTRAP" --topic payments)
  upto_o=$(jq -r 'to_entries | map("\(.key):\(if .key == "1" then 0 else .value - 5 end)") | join(",")' <<<"$ends_o")
  upto_p=$(jq -r 'to_entries | map("\(.key):\(.value - 5)") | join(",")' <<<"$ends_p")
  run -0 kit 120 flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group flink-orders-copy --topic orders --upto "$upto_o"
  run -0 kit 120 flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group flink-orders-copy --topic payments --upto "$upto_p"
}

@test "the 3 workers become Ready through the kubelet's exec probes" {
  run -0 kc rollout status deployment/mm2-connect --timeout=300s
  run -0 kc get deployment mm2-connect -o jsonpath='{.status.readyReplicas}/{.status.replicas}'
  assert_output 3/3
  run -0 kc get deployment mm2-connect -o jsonpath='{.spec.template.spec.containers[0].startupProbe.exec.command} {.spec.template.spec.containers[0].readinessProbe.exec.command} {.spec.template.spec.containers[0].livenessProbe.exec.command}'
  a='"--user","mm2-probe","--password-file","/etc/mm2/rest-auth/probe-password"'
  assert_output "[\"mm2-probe\",\"live\",\"--timeout\",\"4\",$a] [\"mm2-probe\",\"ready\",\"--timeout\",\"12\",$a] [\"mm2-probe\",\"live\",\"--timeout\",\"4\",$a]"
  for p in $(worker_pods); do
    run -0 kc get pod "$p" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status} {.status.containerStatuses[0].started} {.status.containerStatuses[0].restartCount} {.spec.nodeName}'
    assert_output "True true 0 $KUBE_NODE"
  done
}

@test "each worker's POD_IP comes from the Downward API and is the address it advertises" {
  group=$(kc get configmap mm2-connect-env -o jsonpath='{.data.CONNECT_GROUP_ID}')
  ips=()
  for p in $(worker_pods); do
    ip=$(pod_ip "$p")
    ips+=("$ip")
    # The environment of the worker's PID 1 (the JVM the entrypoint became).
    run -0 kc exec "$p" -- sh -c 'tr "\0" "\n" </proc/1/environ | grep "^POD_IP="'
    assert_output "POD_IP=$ip"
    run -0 kc exec "$p" -- sh -c 'grep -E "^(Uid|CapEff|NoNewPrivs|Seccomp):" /proc/1/status | tr -s "\t " " "'
    assert_output $'Uid: 10001 10001 10001 10001\nCapEff: 0000000000000000\nNoNewPrivs: 1\nSeccomp: 2'
    wait_for 60 bash -c "$KUBE_BIN/kubectl -n $NS logs $p | grep -qF 'clientId=connect-$ip:8088, groupId=$group] Joined group'"
  done
  assert_equal "$(printf '%s\n' "${ips[@]}" | sort -u | wc -l)" 3
}

@test "a create sent to a non-leader pod is forwarded to the leader from the pod's own IP" {
  leader=
  for p in $(worker_pods); do
    leader=$(kc logs "$p" | grep -o "leaderUrl='http://[0-9.]*:8088/'" | tail -n 1 | sed "s|leaderUrl='http://||; s|:8088/'||")
    [ -n "$leader" ] && break
  done
  [ -n "$leader" ] || fail "no worker logged its leader"
  follower=
  for p in $(worker_pods); do
    ip=$(pod_ip "$p")
    [ "$ip" = "$leader" ] && leader_pod=$p
    [ "$ip" != "$leader" ] && [ -z "$follower" ] && follower=$ip
  done
  run -0 rest POST "$follower" /connectors "$(mirror_json kube-forward kube-forward STOPPED)"
  assert_line --index 0 201
  wait_for 30 bash -c "$KUBE_BIN/kubectl -n $NS logs $leader_pod | grep -F '$follower - ' | grep -qF '\"POST /connectors?forward=true HTTP/1.1\" 201'"
  run -0 rest DELETE "$follower" /connectors/kube-forward
  assert_line --index 0 204
}

@test "a connector that fails in start() is FAILED on a worker (it stays, for 30_liveness.bats)" {
  # A topics filter that is no regex fails the connector in start().
  run -0 rest POST "$SVC_IP" /connectors "$(mirror_json kube-failed '(')"
  assert_line --index 0 201
  wait_for 120 bash -c "curl -s -m 10 http://$SVC_IP:8088/connectors/kube-failed/status | jq -e '.connector.state == \"FAILED\"'"
  # The kubelet's liveness probe count of each worker from now on (30_liveness.bats).
  for p in $(worker_pods); do
    printf '%s %s\n' "$p" "$(liveness_counts "$p")"
  done >"$W/liveness-at-failed"
  [ "$(wc -l <"$W/liveness-at-failed")" = 3 ]
}

@test "the operator's pod runs mm2-offsets with the Job's own files, Secret and identity" {
  run -0 kc wait --for=condition=Ready pod/mm2-operator --timeout=120s
  run -0 op --version
  run -0 kc exec mm2-operator -- id -u
  assert_output 10001
}

@test "the headless Service names every worker by its own address, and preflight asks each one its version there" {
  want=$(kc get pods -l app.kubernetes.io/component=worker,app.kubernetes.io/name=mm2-connect -o jsonpath='{.items[*].status.podIP}' | tr ' ' '\n' | sort | tr '\n' ' ')
  [ "$(wc -w <<<"$want")" = 3 ] || fail "not 3 worker pod IPs: $want"
  got=$(kc get endpointslices -l kubernetes.io/service-name=mm2-connect-workers -o json | jq -r '[.items[].endpoints[].addresses[]] | sort | .[]' | tr '\n' ' ')
  assert_equal "$got" "$want"
  # No cluster DNS here: the addresses the Service's name would resolve to, listed by hand.
  list=$(for ip in $want; do printf 'http://%s:8088,' "$ip"; done)
  kc exec mm2-operator -- sh -c "sed 's|^workers = .*|workers = ${list%,}|' /etc/mm2-offsets/migration.ini >/work/pf.ini"
  run kc exec mm2-operator -- mm2-offsets preflight --config /work/pf.ini --report /work/pf.json
  [ "$status" -le 1 ] || fail "preflight exited $status: $output"
  run -0 kc exec mm2-operator -- cat /work/pf.json
  run -0 jq -r '.findings[] | select(.name == "workers") | "\(.severity) \(.message)"' <<<"$output"
  assert_output --regexp "^pass 3 workers answer, all Kafka [0-9.]+ \\(commit [0-9a-f]+\\): "
}

# sel POLICY JQ: the label selector (k=v,...) of the matchLabels JQ picks from POLICY.
sel() { kc get networkpolicy "$1" -o json | jq -r "$2 | to_entries | map(\"\\(.key)=\\(.value)\") | join(\",\")"; }

# pods_of SELECTOR: the names of the pods SELECTOR selects, sorted, on one line.
pods_of() { kc get pods -l "$1" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' | sort | tr '\n' ' '; }

# tcp_get POD [-n NAMESPACE] IP PORT PATH: from inside POD, an HTTP/1.0 GET with bash's
# /dev/tcp (the image has no curl), bounded at 5 s; prints the status line.
tcp_get() {
  local pod=$1 ns=$NS
  shift
  if [ "$1" = -n ]; then ns=$2; shift 2; fi
  # shellcheck disable=SC2016 # expanded by the pod's bash, from its arguments
  kc -n "$ns" exec "$pod" -- timeout 5 bash -c \
    'exec 3<>"/dev/tcp/$0/$1" && printf "GET %s HTTP/1.0\r\n\r\n" "$2" >&3 && head -n 1 <&3' "$@"
}

@test "the NetworkPolicies select the workers and are enforced: the Job's pods, the workers and Prometheus get through, any other pod gets nothing" {
  workers="$(worker_pods | sort | tr '\n' ' ')"
  [ "$(wc -w <<<"$workers")" = 3 ] || fail "not 3 worker pods: $workers"
  # mm2-connect guards exactly the 3 workers; its REST rule (8088) admits the workers and
  # the Job's pods (here the operator's, made from the Job's template), not the outsider.
  run -0 pods_of "$(sel mm2-connect .spec.podSelector.matchLabels)"
  assert_output "$workers"
  run -0 kc get networkpolicy mm2-connect -o jsonpath='{.spec.ingress[0].ports[0].port} {.spec.ingress[1].ports[0].port}'
  assert_output "8088 18088"
  run -0 pods_of "$(sel mm2-connect '.spec.ingress[0].from[0].podSelector.matchLabels')"
  assert_output "$workers"
  run -0 pods_of "$(sel mm2-connect '.spec.ingress[0].from[1].podSelector.matchLabels')"
  assert_output "mm2-operator "
  # mm2-offsets-job guards the Job's pods: no ingress at all, egress to the workers' REST.
  run -0 pods_of "$(sel mm2-offsets-job .spec.podSelector.matchLabels)"
  assert_output "mm2-operator "
  run -0 pods_of "$(sel mm2-offsets-job '.spec.egress[0].to[0].podSelector.matchLabels')"
  assert_output "$workers"
  run -0 kc get networkpolicy mm2-offsets-job -o jsonpath='{.spec.policyTypes} {.spec.ingress}'
  assert_output '["Ingress","Egress"] '

  # Enforced (kube-router's policy controller, tests/kube/cluster.sh): the outsider is the
  # operator's pod under other labels, with the same Secret and the operator's REST password.
  # The operator gets through; the outsider gets no answer (exit 4), not a 401: the packets
  # never reach REST.  Switch enforcement off and this fails.
  run -0 kc wait --for=condition=Ready pod/mm2-outsider pod/mm2-operator --timeout=60s
  run -0 kc wait -n monitoring --for=condition=Ready pod/mm2-scraper --timeout=60s
  w1=$(worker_pods | head -n 1)
  w2=$(worker_pods | sed -n 2p)
  ip=$(pod_ip "$w1")
  auth=(--user "$BED_REST_USER" --password-env MM2_REST_PASSWORD)
  run -0 kc exec mm2-operator -- mm2-probe live --url "http://$ip:8088" --timeout 5 "${auth[@]}"
  run -4 kc exec mm2-outsider -- mm2-probe live --url "http://$ip:8088" --timeout 5 "${auth[@]}"
  assert_output --partial "GET /: cannot connect to http://$ip:8088"
  refute_output --partial "HTTP 401"
  # The workers among themselves (REST forwarding to the leader), with the probe's credentials.
  run -0 kc exec "$w2" -- mm2-probe live --url "http://$ip:8088" --timeout 5 \
    --user "$BED_REST_PROBE_USER" --password-file /etc/mm2/rest-auth/probe-password
  # The metrics port: Prometheus (its labels, in the namespace monitoring) scrapes it; the
  # outsider, on the same port, gets nothing.
  run -0 tcp_get mm2-scraper -n monitoring "$ip" 18088 /metrics
  assert_output --regexp '^HTTP/1\.[01] 200 '
  run ! tcp_get mm2-outsider "$ip" 18088 /metrics
  refute_output --partial HTTP/
  # Egress: a worker reaches the brokers (9092), and nothing else, here the API server.
  run -0 kc exec "$w1" -- timeout 5 bash -c "exec 3<>/dev/tcp/${BED_SRC_BOOTSTRAP%:*}/9092"
  run ! kc exec "$w1" -- timeout 5 bash -c "exec 3<>/dev/tcp/$KUBE_NODE_IP/$KUBE_API_PORT"
  # The same connection from the outsider, whose egress no policy limits, goes through.
  run -0 kc exec mm2-outsider -- timeout 5 bash -c "exec 3<>/dev/tcp/$KUBE_NODE_IP/$KUBE_API_PORT"
  run -0 kc delete pod mm2-outsider --wait=false
}
