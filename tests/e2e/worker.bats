#!/usr/bin/env bats
# The worker image on the bed, as pods would run it: mm2-entrypoint is PID 1,
# each worker advertises its own POD_IP, and the lifecycle behaves as the
# Deployment's grace period and probes assume (docs/ARCHITECTURE.md §3.2, §4.3).
load helpers

# make compat runs this file on every Kafka version (tests/compat/run.sh).
# bats file_tags=compat

TOPIC=wk.events
CONN=wk

@test "each worker advertises its own POD_IP" {
  run -0 podman exec "$(bed_worker_name 1)" sh -c 'ls /opt/kafka/libs | grep -E "^kafka-clients-[0-9.]+\.jar$"'
  clients=$output
  for i in 1 2 3; do
    # ${env:POD_IP} resolved in-process, and the worker id the group sees
    # (conmon may still be writing the log: give it a moment).
    wait_for 60 bash -c "podman logs $(bed_worker_name "$i") 2>&1 | grep -qF 'rest.advertised.host.name = $(bed_worker_ip "$i")'"
    # Since Kafka 3.7 the group client id is connect-<worker id> (DistributedHerder); before,
    # connect-<n> (the worker id then shows in the tasks' worker_id, as the SIGTERM test reads it).
    case "$clients" in
      kafka-clients-3.6.*) id="[Worker clientId=connect-1, groupId=$BED_GROUP]" ;;
      *) id="[Worker clientId=connect-$(bed_worker_ip "$i"):8088, groupId=$BED_GROUP]" ;;
    esac
    wait_for 60 bash -c "podman logs $(bed_worker_name "$i") 2>&1 | grep -qF '$id'"
    run -0 podman inspect -f '{{.Config.User}} {{.Path}}' "$(bed_worker_name "$i")"
    assert_output "10001:10001 /usr/local/bin/mm2-entrypoint"
  done
  # PID 1 is the JVM the entrypoint exec'd, logging as the Kafka version needs.
  case "$clients" in
    kafka-clients-3.*) want=-Dlog4j.configuration=file:/etc/mm2/connect-log4j.properties ;;
    *) want=-Dlog4j2.configurationFile=/etc/mm2/connect-log4j2.yaml ;;
  esac
  run -0 podman exec "$(bed_worker_name 1)" sh -c "tr '\\0' ' ' </proc/1/cmdline"
  assert_output --regexp "^java .* $want .*org.apache.kafka.connect.cli.ConnectDistributed /etc/mm2/connect-mm2.properties $"
}

@test "a create and a stop sent to a worker that is not the leader are forwarded and succeed" {
  run -0 "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" "$TOPIC:6"
  run -0 "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" "$TOPIC:6"
  wait_for 90 leader_known || fail "no leader found in the workers' logs within 90 s"
  leader=$(leader_index)
  other=$(( leader % 3 + 1 ))
  third=$(( other % 3 + 1 ))
  run -0 rest POST "$other" /connectors "$(mirror_connector_json "$CONN" 'wk\\.events')"
  assert_line --index 0 201
  # Each worker learns of the connector from the config topic, and checks that it knows it
  # before it forwards a stop (DistributedHerder.stopConnector): one that has not read the new
  # record yet answers 404 itself (seen once in make compat, on 3.9.1).  A client asks once the
  # worker knows it.
  knows() { [ "$(rest GET "$1" "/connectors/$CONN" | head -n 1)" = 200 ]; }
  wait_for 30 knows "$third" || fail "worker $third did not learn of $CONN within 30 s"
  run -0 rest PUT "$third" "/connectors/$CONN/stop"
  assert_line --index 0 204
  wait_for 60 bash -c "curl -s http://$(bed_worker_ip "$leader"):8088/connectors/$CONN/status | grep -q '\"state\":\"STOPPED\"'"
  run -0 rest PUT "$other" "/connectors/$CONN/resume"
  assert_line --index 0 202
  wait_for 120 connector_running "$CONN"
}

@test "SIGTERM stops a worker well inside the grace period, after its final offset commit, and the group rebalances" {
  # Earlier tests (probe.bats) make workers join and leave: let the group
  # settle first, as a rolling update waits for the previous pod to be Ready.
  # Then replicate and stop at once, well inside the 10 s flush interval.
  wait_for $(( BED_REBALANCE_DELAY_MS / 1000 + 120 )) group_settled 15
  wait_for 120 connector_running "$CONN"
  run -0 "$BED" kit produce --bootstrap "$BED_SRC_BOOTSTRAP" --topic "$TOPIC" --count 3000 --partitions 6 --seed 7
  run -0 "$BED" kit compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic "$TOPIC" --timeout 120
  # The worker running task 0, and the partitions that task owns.
  status=$(curl -s "http://$(bed_worker_ip 1):8088/connectors/$CONN/status")
  ip=$(printf '%s' "$status" | jq -r '.tasks[] | select(.id == 0) | .worker_id' | cut -d: -f1)
  victim=$(worker_index_of "$ip")
  parts=$(curl -s "http://$(bed_worker_ip 1):8088/connectors/$CONN/tasks" |
    jq -r '.[] | select(.id.task == 0) | .config["task.assigned.partitions"]')
  [ -n "$parts" ] || fail "task 0 has no assigned partitions"

  t0=$(date +%s%N)
  run -0 timeout 90 podman stop -t 60 "$(bed_worker_name "$victim")"
  elapsed_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "# worker $victim stopped in $elapsed_ms ms" >&3
  # The Deployment's grace period is 60 s; the stop must leave most of it.
  [ "$elapsed_ms" -lt 30000 ] || fail "SIGTERM took $elapsed_ms ms"
  # The JVM exits 143 (128 + SIGTERM) after Connect's shutdown hook ran:
  # a clean stop, not a kill at the deadline (that would be 137).
  run -0 podman inspect -f '{{.State.ExitCode}}' "$(bed_worker_name "$victim")"
  assert_output 143
  run -0 podman logs "$(bed_worker_name "$victim")"
  assert_output --partial "Kafka Connect stopped"

  # Its final commit holds the last replicated record of each of its partitions.
  ends=$("$BED" kit ends --bootstrap "$BED_SRC_BOOTSTRAP" --topic "$TOPIC")
  committed=$("$BED" kit connect-offsets --bootstrap "$BED_TGT_BOOTSTRAP" --offsets-topic "$BED_OFFSET_TOPIC" --connector "$CONN" --topic "$TOPIC")
  for tp in ${parts//,/ }; do
    p=${tp##*-}
    want=$(( $(printf '%s' "$ends" | jq -r --arg p "$p" '.[$p]') - 1 ))
    got=$(printf '%s' "$committed" | jq -r --arg p "$p" '.[$p]')
    [ "$got" = "$want" ] || fail "partition $p: committed offset $got, last replicated record $want"
  done

  # The rest of the group takes the tasks over after the scheduled delay.
  wait_for $(( BED_REBALANCE_DELAY_MS / 1000 + 90 )) bash -c "
    curl -s http://$(bed_worker_ip $(( victim % 3 + 1 ))):8088/connectors/$CONN/status |
    jq -e '(.tasks | length == 3) and all(.tasks[]; .state == \"RUNNING\" and (.worker_id | startswith(\"$ip:\") | not))' >/dev/null"
  run -0 timeout 60 podman rm "$(bed_worker_name "$victim")"
  echo "$victim" >"$BED_DIR/stopped-worker"
}

@test "with JMX_EXPORTER_PORT the metrics port serves Connect and MirrorSourceConnector metrics, and the heap follows the memory limit" {
  victim=$(cat "$BED_DIR/stopped-worker")
  run -0 "$BED" worker-start "$victim" -e JMX_EXPORTER_PORT=18088
  run -0 "$BED" worker-wait "$victim" 180
  url="http://$(bed_worker_ip "$victim"):18088/metrics"
  wait_for 60 curl -sf -o /dev/null "$url"
  run -0 curl -sf "$url"
  assert_output --partial "kafka_connect_worker_connector_count "
  assert_output --partial "kafka_connect_worker_rebalance_completed_rebalances "
  # The rejoined worker gets a task back once the group rebalances.
  wait_for 240 bash -c "
    '$BED' kit produce --bootstrap '$BED_SRC_BOOTSTRAP' --topic '$TOPIC' --count 60 --partitions 6 --seed 9 >/dev/null
    curl -sf '$url' | grep -q '^kafka_connect_mirror_source_connector_record_count{'"
  run -0 curl -sf "$url"
  assert_output --partial "kafka_connect_mirror_source_connector_replication_latency_ms"
  assert_output --partial "kafka_connect_mirror_source_connector_byte_rate"
  assert_output --partial "kafka_connect_mirror_source_connector_record_age_ms"
  assert_output --partial "kafka_connect_source_task_source_record_poll_rate"
  # 1 GiB limit, no KAFKA_HEAP_OPTS: MaxRAMPercentage=50 gives about 512 MiB.
  heap=$(curl -sf "$url" | sed -n 's/^jvm_memory_max_bytes{area="heap",} \([0-9.E+]*\)$/\1/p; s/^jvm_memory_max_bytes{area="heap"} \([0-9.E+]*\)$/\1/p')
  [ -n "$heap" ] || fail "no jvm_memory_max_bytes{area=heap} metric"
  heap_mib=$(python3 -c "print(int(float('$heap') / 1048576))")
  echo "# max heap $heap_mib MiB under a $BED_WORKER_MEMORY limit" >&3
  [ "$heap_mib" -ge 400 ] && [ "$heap_mib" -le 540 ] || fail "max heap $heap_mib MiB does not follow the 1 GiB limit"
}

@test "without JMX_EXPORTER_PORT nothing listens on the metrics port" {
  victim=$(cat "$BED_DIR/stopped-worker")
  run -7 curl -s -m 5 -o /dev/null "http://$(bed_worker_ip $(( victim % 3 + 1 ))):18088/metrics"
}

@test "nothing is written outside /tmp and the sentinel secret is in no file and no log line" {
  for i in 1 2 3; do
    w=$(bed_worker_name "$i")
    # The only change is podman's own /etc/hosts and /etc/resolv.conf mounts.
    run -0 podman diff "$w"
    assert_output "C /etc"
    run -1 podman exec "$w" touch /opt/kafka/probe
    run -0 podman logs "$w"
    refute_output --partial "$BED_CONNECT_PASSWORD"
    refute_output --partial "$BED_SOURCE_PASSWORD"
    refute_output --partial "$BED_TARGET_PASSWORD"
    refute_output --partial "$BED_REST_PASSWORD"
    refute_output --partial "$BED_REST_PROBE_PASSWORD"
    # Lists every readable file holding a secret (unreadable ones are the
    # image's root-only files, which the worker cannot have written either),
    # the REST Secret's own mount apart: only its files hold the REST passwords.
    run -0 podman exec "$w" sh -c "grep -rIlsF -e '$BED_CONNECT_PASSWORD' -e '$BED_SOURCE_PASSWORD' -e '$BED_TARGET_PASSWORD' -e '$BED_REST_PASSWORD' -e '$BED_REST_PROBE_PASSWORD' --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev / | sort || true"
    assert_output - <<OUT
/etc/mm2/rest-auth/credentials.properties
/etc/mm2/rest-auth/probe-password
OUT
  done
}

# make test leaves it out (make e2e-short); make compat runs it on every version.
# bats test_tags=long
@test "with a wrong advertised address, forwarding to the leader fails with Connect's IO error" {
  # Bypasses mm2-entrypoint (which refuses such a POD_IP) to show what it
  # prevents: the leader advertises an address nobody can reach. (The REST JAAS file is
  # given by hand, as the entrypoint would.)
  run -0 "$BED" kit create-topics --no-grant --bootstrap "$BED_TGT_BOOTSTRAP" wrong-configs:1:compact wrong-offsets:5:compact wrong-status:1:compact
  # A Connect group of its own: the workers' rows of docs/acls.md for its group and topics.
  run -0 "$BED" kit grant --role workers --name "worker group=mm2kit-bed-wrong" --name "config topic=wrong-configs" \
    --name "offsets topic=wrong-offsets" --name "status topic=wrong-status"
  group=(-e CONNECT_GROUP_ID=mm2kit-bed-wrong -e CONNECT_CONFIG_STORAGE_TOPIC=wrong-configs
    -e CONNECT_OFFSET_STORAGE_TOPIC=wrong-offsets -e CONNECT_STATUS_STORAGE_TOPIC=wrong-status)
  run -0 "$BED" worker-start 8 "${group[@]}" -e "POD_IP=198.18.$BED_OCTET.99" -e CONNECT_REST_PORT=8088 \
    -e KAFKA_HEAP_OPTS=-Xmx256m -e LOG_DIR=/tmp -e KAFKA_LOG4J_OPTS=-Dlog4j2.configurationFile=/etc/mm2/connect-log4j2.yaml \
    -e KAFKA_OPTS=-Djava.security.auth.login.config=/etc/mm2/rest-auth/jaas.conf \
    --entrypoint /opt/kafka/bin/connect-distributed.sh -- /etc/mm2/connect-mm2.properties
  run -0 "$BED" worker-wait 8 180
  run -0 "$BED" worker-start 9 "${group[@]}"
  run -0 "$BED" worker-wait 9 180
  wait_for 60 bash -c "podman logs $(bed_worker_name 9) 2>&1 | grep -q \"leaderUrl='http://198.18.$BED_OCTET.99:8088/'\""
  run -0 rest POST 9 /connectors "$(mirror_connector_json wrong 'wk\\.events')"
  assert_line --index 0 500
  assert_line --index 1 --partial "IO Error trying to forward REST request"
  podman rm -f -t 0 "$(bed_worker_name 8)" "$(bed_worker_name 9)" >/dev/null
}
