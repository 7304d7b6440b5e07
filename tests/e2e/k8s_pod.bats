#!/usr/bin/env bats
# A worker started exactly as the rendered Deployment says (k8s/overlays/bed:
# the bed's Kafka and group), with only the Downward API and the Secret filled
# in by hand (podman kube play rejects fieldRef status.podIP), joins the
# cluster, and the manifest's own probe commands pass through podman exec.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

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
  { jq -n --arg j "$BED_JAAS" --arg sj "$BED_SOURCE_JAAS" --arg tj "$BED_TARGET_JAAS" \
      '{"mm2-connect-auth": {"sasl-jaas-config": $j, "source-sasl-jaas-config": $sj, "target-sasl-jaas-config": $tj}}'
    bed_rest_secret_json; } | jq -s add >"$secrets"
  mapfile -t args < <("$PY" "$E2E_ROOT/tests/k8s/podman_args.py" run "$BED_DIR/k8s-bed.yaml" "$(bed_worker_ip 5)" "$secrets")
  rm -f "$secrets"
  [ "${#args[@]}" -gt 20 ] || fail "podman_args gave ${#args[@]} arguments"
  name=$(bed_worker_name 5)
  podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  run -0 podman run -d --name "$name" --hostname "$name" --network "$BED_NET" --ip "$(bed_worker_ip 5)" "${BED_HOSTS[@]}" "${args[@]}" "$IMAGE"
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

# The Secret's keys the Job reads, with the bed's test values.
job_secrets() {
  jq -n --arg su "$BED_SOURCE_USER" --arg sp "$BED_SOURCE_PASSWORD" --arg tu "$BED_TARGET_USER" \
    --arg tp "$BED_TARGET_PASSWORD" --arg j "$BED_JAAS" --arg sj "$BED_SOURCE_JAAS" --arg tj "$BED_TARGET_JAAS" \
    '{"mm2-connect-auth": {"source-username": $su, "source-password": $sp, "target-username": $tu,
      "target-password": $tp, "sasl-jaas-config": $j, "source-sasl-jaas-config": $sj,
      "target-sasl-jaas-config": $tj}}'
  bed_rest_secret_json
}

@test "the offset Job's rendered command and files apply and verify a plan on the bed, and never resume" {
  umask 077
  w=$BED_DIR/k8s-job
  rm -rf "$w"
  mkdir -p "$w/plan"
  chmod 0755 "$w" "$w/plan"
  job_secrets | jq -s add >"$w/secrets.json"
  # The Service name the Job's INI uses, resolved to one worker as a Service would.
  hosts=("${BED_HOSTS[@]}" --add-host "mm2-connect:$(bed_worker_ip 1)")
  mapfile -t job < <("$PY" "$E2E_ROOT/tests/k8s/podman_args.py" job "$BED_DIR/k8s-bed.yaml" "$w/secrets.json" "$w/files" "mm2-offsets-plan=$w/plan")
  rm -f "$w/secrets.json"
  sep=0
  for i in "${!job[@]}"; do [ "${job[$i]}" = -- ] && sep=$i; done
  [ "$sep" -gt 10 ] || fail "podman_args job gave no command: ${job[*]}"
  opts=("${job[@]:0:$sep}")
  cmd=("${job[@]:$((sep + 1))}")
  # The Flink job the Job's INI names: group flink-orders-copy on orders and payments.
  topics_both orders:3 payments:2
  produce orders 90 3
  produce payments 40 2 0 2
  flink flink-orders-copy orders 0:10,1:0,2:30
  flink flink-orders-copy payments 0:20,1:5
  # The operator's steps before the Job, with the same rendered files.
  d=$(oj_dir k8s-job)
  ojk() {
    timeout 300 podman run --rm --network "$BED_NET" "${hosts[@]}" --user 10001:10001 --read-only \
      --tmpfs /tmp:rw,size=64m,mode=1777 --cap-drop ALL --security-opt no-new-privileges \
      -v "$w/files/job-files:/etc/mm2-offsets:ro" -v "$d:/work:rw" -w /work \
      -e "MM2_SOURCE_SASL_USERNAME=$BED_SOURCE_USER" -e "MM2_SOURCE_SASL_PASSWORD=$BED_SOURCE_PASSWORD" \
      -e "MM2_TARGET_SASL_USERNAME=$BED_TARGET_USER" -e "MM2_TARGET_SASL_PASSWORD=$BED_TARGET_PASSWORD" \
      -e "MM2_REST_PASSWORD=$BED_REST_PASSWORD" \
      --entrypoint mm2-offsets "$IMAGE" "$@" 3>&-
  }
  run -0 ojk export --config /etc/mm2-offsets/migration.ini --out export.json --stable-wait 2 -q
  run -0 ojk plan --config /etc/mm2-offsets/migration.ini --export export.json --out plan.json -q
  install -m 0644 "$d/plan.json" "$w/plan/plan.json"
  # The Job itself: exactly its command, env, identity, limits and mounts.
  run -0 --separate-stderr timeout 300 podman run --rm --network "$BED_NET" "${hosts[@]}" "${opts[@]}" "$IMAGE" "${cmd[@]}"
  no_secret "$output" "$stderr"
  # apply's report, then verify's: both all-matching, the connector STOPPED.
  [ "$(jq -s 'length' <<<"$output")" -eq 2 ] || fail "expected two reports, got: $output"
  assert_equal "$(jq -sc 'map([.ok, .state, .checked])' <<<"$output")" '[[true,"STOPPED",5],[true,"STOPPED",5]]'
  [[ "$stderr" == *"creating connector flink-to-mm2-source STOPPED"* ]]
  # Never resumed: still STOPPED with no task.
  run -0 curl -s "http://$(bed_worker_ip 1):8088/connectors/flink-to-mm2-source/status"
  assert_equal "$(jq -c '[.connector.state, (.tasks | length)]' <<<"$output")" '["STOPPED",0]'
  assert_equal "$(offsets_json flink-to-mm2-source | jq -c 'map([.partition.topic, .partition.partition, .offset.offset])')" \
    '[["orders",0,9],["orders",2,29],["payments",0,19],["payments",1,4]]'
}
