#!/usr/bin/env bats
# A worker started exactly as the rendered Deployment says (k8s/overlays/bed:
# the bed's Kafka and group), with only the Downward API and the Secret filled
# in by hand (podman kube play rejects fieldRef status.podIP), joins the
# cluster, and the manifest's own probe commands pass through podman exec.
load helpers

PY=${MM2KIT_CACHE:-/var/cache/mm2kit}/lint-venv/bin/python3

setup_file() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  mkdir -p "$BED_DIR"
  kubectl kustomize "$root/k8s/overlays/bed" >"$BED_DIR/k8s-bed.yaml"
}

@test "a worker run from the rendered Deployment joins the cluster and its manifest probes pass" {
  umask 077
  secrets=$BED_DIR/k8s-secrets.json
  jq -n --arg j "$BED_JAAS" '{"mm2-connect-auth": {"sasl-jaas-config": $j, "source-sasl-jaas-config": $j, "target-sasl-jaas-config": $j}}' >"$secrets"
  mapfile -t args < <("$PY" "$E2E_ROOT/tests/k8s/podman_args.py" run "$BED_DIR/k8s-bed.yaml" "$(bed_worker_ip 5)" "$secrets")
  rm -f "$secrets"
  [ "${#args[@]}" -gt 20 ] || fail "podman_args gave ${#args[@]} arguments"
  name=$(bed_worker_name 5)
  podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  run -0 podman run -d --name "$name" --hostname "$name" --network "$BED_NET" --ip "$(bed_worker_ip 5)" "${args[@]}" "$IMAGE"
  # The startup probe's budget from the manifest: periodSeconds x failureThreshold.
  start_budget=$("$PY" "$E2E_ROOT/tests/k8s/podman_args.py" budget "$BED_DIR/k8s-bed.yaml" startupProbe)
  mapfile -t startup < <("$PY" "$E2E_ROOT/tests/k8s/podman_args.py" probe "$BED_DIR/k8s-bed.yaml" startupProbe)
  wait_for "$start_budget" podman exec "$name" "${startup[@]}"
  for p in livenessProbe readinessProbe; do
    mapfile -t cmd < <("$PY" "$E2E_ROOT/tests/k8s/podman_args.py" probe "$BED_DIR/k8s-bed.yaml" "$p")
    wait_for 60 podman exec "$name" "${cmd[@]}"
    run -0 podman exec "$name" "${cmd[@]}"
  done
  # It is a member of the bed's group: the others see its worker id.
  wait_for 60 bash -c "podman logs $name 2>&1 | grep -qF 'clientId=connect-$(bed_worker_ip 5):8088, groupId=$BED_GROUP] Joined group'"
  # The pod's limits and identity, as the kubelet would set them.
  run -0 podman inspect -f '{{.HostConfig.Memory}} {{.Config.User}} {{.HostConfig.ReadonlyRootfs}}' "$name"
  assert_output "1073741824 10001:10001 true"
  run -0 podman exec "$name" sh -c 'grep -E "^(CapEff|NoNewPrivs):" /proc/1/status | tr -s "\t " " "'
  assert_output $'CapEff: 0000000000000000\nNoNewPrivs: 1'
  # The metrics port the ConfigMap turns on answers.
  wait_for 60 curl -sf -o /dev/null "http://$(bed_worker_ip 5):18088/metrics"
  podman rm -f -t 30 "$name" >/dev/null
}
