#!/usr/bin/env bats
# The overlay on a real API server, kubelet and controllers (tests/kube/cluster.sh):
# Pod Security admission, server-side apply, the workers Ready through the kubelet's
# exec probes, the Downward API's POD_IP, and REST forwarding between pod IPs.
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

@test "the 3 workers become Ready through the kubelet's exec probes" {
  run -0 kc rollout status deployment/mm2-connect --timeout=300s
  run -0 kc get deployment mm2-connect -o jsonpath='{.status.readyReplicas}/{.status.replicas}'
  assert_output 3/3
  run -0 kc get deployment mm2-connect -o jsonpath='{.spec.template.spec.containers[0].startupProbe.exec.command} {.spec.template.spec.containers[0].readinessProbe.exec.command} {.spec.template.spec.containers[0].livenessProbe.exec.command}'
  assert_output '["mm2-probe","live","--timeout","4"] ["mm2-probe","ready","--timeout","12"] ["mm2-probe","live","--timeout","4"]'
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
  body='{"name": "kube-forward", "initial_state": "STOPPED", "config": {
    "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
    "source.cluster.alias": "source", "target.cluster.alias": "target",
    "source.cluster.bootstrap.servers": "source-kafka:9092", "target.cluster.bootstrap.servers": "target-kafka:9092",
    "topics": "kube-forward"}}'
  run -0 rest POST "$follower" /connectors "$body"
  assert_line --index 0 201
  wait_for 30 bash -c "$KUBE_BIN/kubectl -n $NS logs $leader_pod | grep -F '$follower - ' | grep -qF '\"POST /connectors?forward=true HTTP/1.1\" 201'"
  run -0 rest DELETE "$follower" /connectors/kube-forward
  assert_line --index 0 204
}

@test "the operator's pod runs mm2-offsets with the Job's own files, Secret and identity" {
  # The Job's pod template (not its Job's labels), less the reviewed plan (not made yet),
  # sleeping: the operator runs export, plan, resume and check in it (kubectl exec).
  kc get job mm2-offsets-apply -o json | jq '{apiVersion: "v1", kind: "Pod",
    metadata: {name: "mm2-operator",
      labels: (.spec.template.metadata.labels | with_entries(select(.key | startswith("app.kubernetes.io/"))))},
    spec: (.spec.template.spec | .terminationGracePeriodSeconds = 1
      | .containers[0].command = ["sleep", "7200"] | del(.containers[0].args)
      | .volumes |= map(select(.name != "plan")) + [{name: "work", emptyDir: {sizeLimit: "64Mi"}}]
      | .containers[0].volumeMounts |= map(select(.name != "plan")) + [{name: "work", mountPath: "/work"}]
      | .containers[0].workingDir = "/work")}' >"$W/operator.json"
  run -0 --separate-stderr kc apply --server-side --field-manager=mm2kit-e2e -f "$W/operator.json"
  assert_equal "$stderr" ""
  run -0 kc wait --for=condition=Ready pod/mm2-operator --timeout=120s
  run -0 op --version
  run -0 kc exec mm2-operator -- id -u
  assert_output 10001
}
