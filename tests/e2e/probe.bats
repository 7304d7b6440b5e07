#!/usr/bin/env bats
# mm2-probe against real workers, run as the kubelet would: podman exec in
# the worker's container (docs/ARCHITECTURE.md §3.3).
load helpers

probe() { # WORKER_INDEX ARGS...: mm2-probe inside worker I
  local i=$1; shift
  timeout 30 podman exec "$(bed_worker_name "$i")" mm2-probe "$@" "${BED_PROBE_AUTH[@]}"
}

@test "through a worker's start, live passes as soon as REST answers and ready only once /health is healthy" {
  run -0 "$BED" worker-start 4
  local t0=$SECONDS round live_at="" ready_at="" ready_fail=0 ready_codes=""
  # Each round asks ready first, then live: once ready has passed, REST is
  # up, so live must pass in that same round (asking live first would race
  # against REST coming up between the two).
  # Both are stamped with the round's start: a probe that ends a second later
  # in the same round is not "later" than the other.
  while [ $((SECONDS - t0)) -lt 180 ] && [ -z "$ready_at" ]; do
    round=$SECONDS
    set +e
    probe 4 ready --timeout 2 >/dev/null 2>&1
    rc=$?
    set -e
    case "$rc" in
      0) ready_at=$round ;;
      1 | 4) ready_fail=$((ready_fail + 1)); ready_codes="$ready_codes $rc" ;;
      *) ;; # the container is not up yet: podman exec's own codes
    esac
    if [ -z "$live_at" ] && probe 4 live --timeout 2 >/dev/null 2>&1; then live_at=$round; fi
    sleep 0.2
  done
  [ -n "$ready_at" ] || fail "ready never passed in 180 s (codes:$ready_codes)"
  [ -n "$live_at" ] || fail "live never passed"
  [ "$live_at" -le "$ready_at" ] || fail "ready passed before live"
  [ "$ready_fail" -gt 0 ] || fail "ready never failed during the start"
  echo "# live at +$((live_at - t0)) s, ready at +$((ready_at - t0)) s, ready failed $ready_fail times (codes:$ready_codes)" >&3
}

# make test leaves it out (make e2e-short): the kubelet's own probes through rebalances are
# kube-e2e's (30_liveness.bats).
# bats test_tags=long
@test "during a rebalance live keeps passing on every worker" {
  # Worker 4 leaving makes the group rebalance; live must not care.
  podman stop -t 30 "$(bed_worker_name 4)" >/dev/null &
  local stopper=$! end=$((SECONDS + 20)) runs=0
  while [ $SECONDS -lt $end ]; do
    for i in 1 2 3; do
      run -0 probe "$i" live --timeout 2
      runs=$((runs + 1))
    done
  done
  wait "$stopper"
  echo "# $runs live probes during the rebalance, all passed" >&3
  podman rm -f "$(bed_worker_name 4)" >/dev/null
}

@test "after SIGTERM both live and ready fail quickly" {
  run -0 "$BED" worker-start 4
  run -0 "$BED" worker-wait 4 180
  url="http://$(bed_worker_ip 4):8088"
  # From the host (the container may be gone already), with the probe's own
  # credentials: without them a worker that still serves would answer 401
  # (exit 1), and the test would not see what the kubelet sees.
  local auth=(--user "$BED_REST_PROBE_USER" --password-file "$BED_DIR/rest-auth/secret/probe-password")
  run -0 "$E2E_ROOT/build/mm2-probe" live --url "$url" --timeout 2 "${auth[@]}"
  podman kill --signal TERM "$(bed_worker_name 4)" >/dev/null
  # The JVM's shutdown hook stops REST first, but it runs a moment after the
  # signal: live may pass in that window. Once it has failed, it must fail
  # for good and both probes within their deadline.
  local t0 end=$((SECONDS + 5))
  while "$E2E_ROOT/build/mm2-probe" live --url "$url" --timeout 2 "${auth[@]}" 2>/dev/null; do
    [ $SECONDS -lt $end ] || fail "live still passed 5 s after SIGTERM"
    sleep 0.1
  done
  t0=$(date +%s%N)
  run -4 "$E2E_ROOT/build/mm2-probe" live --url "$url" --timeout 2 "${auth[@]}"
  run -4 "$E2E_ROOT/build/mm2-probe" ready --url "$url" --timeout 2 "${auth[@]}"
  elapsed=$(( ($(date +%s%N) - t0) / 1000000 ))
  [ "$elapsed" -lt 5000 ] || fail "the probes took $elapsed ms to fail"
  podman rm -f -t 30 "$(bed_worker_name 4)" >/dev/null
}

@test "connectors passes for a running MirrorSourceConnector" {
  run -0 "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" probe.t:3
  run -0 "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" probe.t:3
  run -0 rest POST 1 /connectors "$(mirror_connector_json probe-ok 'probe\\.t')"
  assert_line --index 0 201
  wait_for 120 connector_running probe-ok
  run -0 probe 2 connectors --connector probe-ok --timeout 10
  run -0 probe 2 connectors --connector probe-ok --format json --timeout 10
  printf '%s' "$output" | jq -e '.' >/dev/null
}

@test "connectors fails and names a connector that FAILED" {
  # A topics filter that is not a regex passes validation and fails the
  # connector in start(): a real FAILED MirrorSourceConnector.
  run -0 rest POST 1 /connectors "$(mirror_connector_json probe-bad '(')"
  assert_line --index 0 201
  wait_for 120 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/probe-bad/status | jq -e '.connector.state == \"FAILED\"' >/dev/null"
  run -1 probe 3 connectors --timeout 10
  assert_output --partial "probe-bad"
  run -1 probe 3 connectors --connector probe-bad --timeout 10
  assert_output --partial "probe-bad"
  run -0 probe 3 connectors --connector probe-ok --timeout 10
  run -0 rest DELETE 1 /connectors/probe-bad
  assert_line --index 0 204
}

@test "connectors fails for a RUNNING connector without tasks" {
  # Wrong source credentials: the connector runs but can list no topic, so
  # it creates no task, and nothing is replicated.
  # shellcheck disable=SC2016 # ${env:...} is Connect's syntax, matched literally
  body=$(mirror_connector_json probe-idle 'probe\\.t' |
    sed 's|"source.cluster.sasl.jaas.config": "${env:MM2_SOURCE_SASL_JAAS_CONFIG}"|"source.cluster.sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule required username=\\"connect\\" password=\\"wrong\\";"|')
  run -0 rest POST 1 /connectors "$body"
  assert_line --index 0 201
  wait_for 60 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/probe-idle/status | jq -e '.connector.state == \"RUNNING\" and (.tasks | length == 0)' >/dev/null"
  run -1 probe 2 connectors --connector probe-idle --timeout 10
  assert_output --partial "probe-idle"
  run -0 rest DELETE 1 /connectors/probe-idle
}
