#!/usr/bin/env bats
# The alerts of k8s/base/prometheusrule.yaml on a real Prometheus scraping
# real workers (make alerts-e2e; harness.sh builds the world once).  Each
# fault is made for real, and each step asserts on Prometheus's own API with a
# bounded wait.  The tests run in order and share the world: each leaves it
# as it found it (connector "al" RUNNING with 3 tasks on 3 workers). make test runs those
# tagged short (make alerts-e2e-short): no false alarm, a task FAILED, the connector FAILED and
# gone, a stall, the storm, the notification and the dashboard; the others (a connector without
# tasks and tasks unassigned, the source login failing, the latency bound crossed, offset commits
# refused, a rebalance that cannot end, a heap too small, tasks spread unevenly after a restart, a
# worker restarted three times, every worker stopped) take minutes of restarts and waits.
load prom

# no_alerts: nothing pending, nothing firing.
no_alerts() { [ "$(alerts)" = "[]" ]; }

# bats test_tags=short
@test "steady replication and an idle source partition raise no alert" {
  # Prometheus sees the workers, the replication and the idle partition.
  wait_for 60 bash -c "[ \"\$(curl -sf --data-urlencode 'query=count(up{job=\"mm2-connect\"} == 1)' '$PROM/api/v1/query' | jq -r '.data.result[0].value[1]')\" = 3 ]" ||
    fail "Prometheus does not scrape 3 workers: $(query 'up')"
  wait_for 60 bash -c "[ \"\$(curl -sf --data-urlencode 'query=count(kafka_connect_mirror_source_consumer_records_lag{connector=\"al\",topic=\"$LAG_TOPIC\"})' '$PROM/api/v1/query' | jq -r '.data.result[0].value[1]')\" = 4 ]" ||
    fail "no records-lag series for the 4 partitions: $(query 'kafka_connect_mirror_source_consumer_records_lag')"
  wait_for 60 bash -c "[ -n \"\$(curl -sf --data-urlencode 'query=sum(rate(kafka_connect_mirror_source_connector_record_count{topic=\"$TOPIC\",partition=\"0\"}[20s])) > 0' '$PROM/api/v1/query' | jq -r '.data.result[0].value[1] // empty')\" ]" ||
    fail "partition 0 is not replicated: $(query 'kafka_connect_mirror_source_connector_record_count')"
  # The group's start is not steady: its rebalances (MM2RebalanceStuck) and tasks whose
  # consumers have not fetched yet (MM2TasksFetchNothing) may be pending for a moment. Once
  # settled, watch a full `for` of the slowest alert (15 s) and more: nothing pending, nothing
  # firing.
  wait_for 60 group_settled 5 || fail "the group did not settle: $(query 'kafka_connect_worker_rebalance_rebalancing')"
  # The connector's first records waited for it since the producer started: the latency of
  # that catch-up (tests/alerts/overlay sets a 15 s bound) leaves the metric's window in about
  # a minute.
  wait_for 90 no_alerts || fail "alerts while the group starts: $(alerts)"
  end=$((SECONDS + 20))
  while [ $SECONDS -lt $end ]; do
    run -0 alerts
    [ "$output" = "[]" ] || fail "alerts during steady replication: $output"
    sleep 2
  done
  # The idle partition was watched all along: no record, nothing waiting.
  run -0 query_value "sum(kafka_connect_mirror_source_connector_record_count{topic=\"$TOPIC\",partition=\"3\"})"
  assert_output 0
  run -0 query_value "sum(kafka_connect_mirror_source_consumer_records_lag{topic=\"$LAG_TOPIC\",partition=\"3\"})"
  assert_output 0
}

# bats test_tags=short
@test "ten rebalances in a short time fire MM2RebalanceStorm" {
  # Right after the quiet first step, so the group's start-up rebalances are
  # the only ones before: too few for the alert.
  run -0 alert_absent MM2RebalanceStorm
  before=$(query_value 'max(kafka_connect_worker_rebalance_completed_rebalances)')
  # Each connector created or deleted makes the group rebalance.
  for n in 1 2 3 4 5 6; do
    run -0 rest_write POST 1 /connectors "$("$HARNESS" connector-json "al-storm-$n" 'al\.nothing' | jq -c '. + {initial_state: "STOPPED"}')"
    run -0 rest_write DELETE 1 "/connectors/al-storm-$n"
  done
  wait_for 30 bash -c "[ \"\$(curl -sf --data-urlencode 'query=max(kafka_connect_worker_rebalance_completed_rebalances) - $before >= 10' '$PROM/api/v1/query' | jq -r '.data.result | length')\" = 1 ]" ||
    fail "fewer than 10 rebalances: before $before, now $(query_value 'max(kafka_connect_worker_rebalance_completed_rebalances)')"
  wait_for 30 alert_matches firing MM2RebalanceStorm severity=warning || fail "MM2RebalanceStorm not firing: $(alerts)"
}

# bats test_tags=short
@test "a task FAILED at runtime fires MM2TaskFailed naming its connector, which resolves after the fix and a restart" {
  # A connector whose topics filter matches nothing (RUNNING, no task) for the
  # next test, made now so that its alert's `for` runs during this one.
  run -0 rest_write POST 1 /connectors "$("$HARNESS" connector-json al-none 'al\.nothing')"
  # The task's producer refuses every record as too large: RecordTooLargeException, not retriable.
  run -0 rest_write POST 1 /connectors "$("$HARNESS" connector-json al-fail 'al\.fail' '{"tasks.max":"1","producer.override.max.request.size":"64"}')"
  # How soon the task fails is Connect's: it throws only when it hands the
  # producer a record after the one refused, and its consumer's next fetch was
  # seen to take from under a second to 30 s.  A rebalance right after the two
  # creations may also start the failed task again on another worker, to fail
  # once more (another 30 s at worst): the alert's `for` restarts each time.
  # So each wait starts from the step before, the last with room for one more.
  wait_for 90 task_state_is al-fail 0 FAILED ||
    fail "the task did not fail: $(rest GET 1 /connectors/al-fail/status)"
  wait_for 60 failed_tasks_seen al-fail 1 ||
    fail "Prometheus does not see the FAILED task: $(failed_tasks_history al-fail); status: $(rest GET 1 /connectors/al-fail/status)"
  wait_for 60 alert_matches firing MM2TaskFailed connector=al-fail severity=critical ||
    fail "MM2TaskFailed not firing: $(alerts); failed tasks seen: $(failed_tasks_history al-fail); status: $(rest GET 1 /connectors/al-fail/status)"
  run -0 alerts
  assert_output --partial '"summary":"MirrorMaker 2 connector al-fail has 1 FAILED task(s)"'
  # The fix, then the restart the alert's description asks for.
  run -0 rest_write PUT 1 /connectors/al-fail/config "$("$HARNESS" connector-json al-fail 'al\.fail' '{"tasks.max":"1"}' | jq -c .config)"
  run -0 rest_write POST 1 "/connectors/al-fail/restart?includeTasks=true&onlyFailed=true"
  wait_for 60 connector_tasks_running al-fail 1 || fail "al-fail not RUNNING again: $(rest GET 1 /connectors/al-fail/status)"
  wait_for 30 alert_absent MM2TaskFailed connector=al-fail || fail "MM2TaskFailed still active: $(alerts)"
  run -0 rest_write DELETE 1 /connectors/al-fail
}

# bats test_tags=short
@test "a connector FAILED at its start fires MM2ConnectorFailed, resolved by the fix; deleted, it fires MM2ConnectorGone until it is back" {
  # Its source admin client cannot be made (a bootstrap name that resolves
  # nowhere): MirrorSourceConnector.start throws, the connector itself is
  # FAILED and has no task, which MM2TaskFailed never sees.
  run -0 rest_write POST 1 /connectors "$("$HARNESS" connector-json al-cfail 'al\.fail' '{"tasks.max":"1","source.cluster.bootstrap.servers":"nowhere.invalid:9092"}')"
  wait_for 60 connector_state_is al-cfail FAILED || fail "al-cfail is not FAILED: $(rest GET 1 /connectors/al-cfail/status)"
  wait_for 60 alert_matches firing MM2ConnectorFailed connector=al-cfail severity=critical ||
    fail "MM2ConnectorFailed not firing: $(alerts); status: $(rest GET 1 /connectors/al-cfail/status)"
  run -0 alerts
  assert_output --partial '"summary":"MirrorMaker 2 connector al-cfail is FAILED: none of its topics is replicated"'
  # The fix: the real bootstrap; a new config restarts the connector.
  run -0 rest_write PUT 1 /connectors/al-cfail/config "$("$HARNESS" connector-json al-cfail 'al\.fail' '{"tasks.max":"1"}' | jq -c .config)"
  wait_for 60 connector_tasks_running al-cfail 1 || fail "al-cfail not RUNNING after the fix: $(rest GET 1 /connectors/al-cfail/status)"
  wait_for 30 alert_absent MM2ConnectorFailed connector=al-cfail || fail "MM2ConnectorFailed still active: $(alerts)"
  # Deleted while the workers answer: gone, until it exists again.
  run -0 rest_write DELETE 1 /connectors/al-cfail
  wait_for 30 alert_matches firing MM2ConnectorGone connector=al-cfail severity=warning || fail "MM2ConnectorGone not firing: $(alerts)"
  run -0 rest_write POST 1 /connectors "$("$HARNESS" connector-json al-cfail 'al\.fail' '{"tasks.max":"1"}')"
  wait_for 60 alert_absent MM2ConnectorGone connector=al-cfail || fail "MM2ConnectorGone still active: $(alerts)"
  run -0 rest_write DELETE 1 /connectors/al-cfail
}

# Before the unassigned-tasks test: MM2ReplicationLagNotFalling reads the backlog's trend over
# 10 minutes (deriv), which the test overlay does not shorten, and that test's catch-up (a
# falling backlog) would outweigh a stall's flat one for up to 10 minutes; make test's short
# run has it in the same place.
# bats test_tags=short
@test "replication stalled while the source grows fires the stall and lag alerts, which resolve when it catches up" {
  wait_for 60 connector_tasks_running al 3 || fail "al is not RUNNING with 3 tasks"
  # The tasks' producer cannot reach the target (a bootstrap address nobody
  # answers: it waits for metadata, retriably, and nothing fails before
  # delivery.timeout.ms); the source keeps growing.  (A 1-replica topic with
  # min.insync.replicas=2 does not stall Kafka 4.x: the minimum is capped at
  # the replica count.)
  good=$(rest GET 1 /connectors/al/config)
  run -0 rest_write PUT 1 /connectors/al/config "$(printf '%s' "$good" | jq -c '. + {"producer.override.bootstrap.servers": "127.0.0.1:9"}')"
  t0=$SECONDS
  restore() { rest_write PUT 1 /connectors/al/config "$good"; }
  wait_for 60 alert_matches firing MM2OffsetsNotAdvancing connector=al severity=critical ||
    { restore; fail "MM2OffsetsNotAdvancing not firing: $(alerts)"; }
  wait_for 30 alert_matches firing MM2ReplicationLagNotFalling connector=al ||
    { restore; fail "MM2ReplicationLagNotFalling not firing: $(alerts)"; }
  echo "# both fired $((SECONDS - t0)) s into the stall" >&3
  backlog=$(query_value 'mm2:replication_backlog_records:sum{connector="al"}')
  echo "# records waiting: $backlog" >&3
  [ "${backlog%.*}" -gt 0 ] || { restore; fail "no records waiting during the stall: $backlog"; }
  # The target is reachable again: the copy catches up, both resolve.
  run -0 restore
  wait_for 60 alert_absent MM2OffsetsNotAdvancing connector=al || fail "MM2OffsetsNotAdvancing still active: $(alerts)"
  wait_for 60 alert_absent MM2ReplicationLagNotFalling connector=al || fail "MM2ReplicationLagNotFalling still active: $(alerts)"
  wait_for 60 connector_tasks_running al 3 || fail "al is not RUNNING with 3 tasks after the stall: $(rest GET 1 /connectors/al/status)"
}

@test "a connector RUNNING with no task, and tasks left unassigned past the rebalance delay, fire their alerts" {
  # al-none, made in the previous test: RUNNING, its filter matches no topic.
  run -0 rest GET 1 /connectors/al-none/status
  printf '%s' "$output" | jq -e '.connector.state == "RUNNING" and (.tasks | length == 0)' >/dev/null ||
    fail "al-none is not RUNNING without tasks: $output"
  wait_for 40 alert_matches firing MM2ConnectorWithoutTasks connector=al-none || fail "MM2ConnectorWithoutTasks not firing: $(alerts)"
  run -0 rest_write DELETE 1 /connectors/al-none
  wait_for 30 alert_absent MM2ConnectorWithoutTasks connector=al-none || fail "MM2ConnectorWithoutTasks still active: $(alerts)"
  # A worker that leaves in the middle of a rebalance was seen to have its
  # tasks reassigned at once: stop one in a settled group, as a rolling update
  # stops a pod only once the one before is Ready.
  wait_for 60 group_settled 5 || fail "the group did not settle: $(query 'kafka_connect_worker_rebalance_time_since_last_rebalance_ms')"
  # A worker that runs a task of al, but neither the connector itself nor the
  # group's leadership (a new leader assigns at once): its task waits
  # scheduled.rebalance.max.delay.ms (30 s in the test overlay), longer than
  # MM2TasksUnassigned's test `for`.
  status=$(rest GET 1 /connectors/al/status)
  conn_ip=$(printf '%s' "$status" | jq -r '.connector.worker_id' | cut -d: -f1)
  leader=$(leader_index 1)
  victim=
  for ip in $(printf '%s' "$status" | jq -r '.tasks[].worker_id' | cut -d: -f1 | sort -u); do
    i=$(worker_index_of "$ip")
    if [ "$ip" != "$conn_ip" ] && [ "$i" != "$leader" ]; then victim=$i; break; fi
  done
  [ -n "$victim" ] || fail "no worker runs a task of al without the connector or the leadership: $status (leader $leader)"
  echo "$victim" >"$AL_DIR/victim"
  other=$(( victim % 3 + 1 ))
  run -0 timeout 60 podman stop -t 30 "$(bed_worker_name "$victim")"
  wait_for 40 alert_matches firing MM2TasksUnassigned connector=al ||
    fail "MM2TasksUnassigned not firing: $(alerts); tasks: $(rest GET "$other" /connectors/al/status)"
  # Its exporter is silent too: that one worker, named.
  wait_for 30 alert_matches firing MM2WorkerNotScraped instance="$(metrics_target "$victim")" severity=warning ||
    fail "MM2WorkerNotScraped not firing: $(alerts)"
  # Still unassigned when it fired: the alert is not about a rebalance that ended in time.
  run -0 rest GET "$other" /connectors/al/status
  printf '%s' "$output" | jq -e '[.tasks[] | select(.state == "UNASSIGNED")] | length == 1' >/dev/null ||
    fail "no task UNASSIGNED while the alert fires: $output"
  # The worker comes back (a container restart: same address, a new JVM);
  # its task runs again and the alert resolves.
  run -0 timeout 60 podman start "$(bed_worker_name "$victim")"
  wait_for 90 connector_tasks_running al 3 "$other" || fail "al did not get its 3 tasks back: $(rest GET "$other" /connectors/al/status)"
  wait_for 30 alert_absent MM2TasksUnassigned connector=al || fail "MM2TasksUnassigned still active: $(alerts)"
  wait_for 30 alert_absent MM2WorkerNotScraped || fail "MM2WorkerNotScraped still active: $(alerts)"
  # A single restart is not an alert.
  target=$(metrics_target "$victim")
  wait_for 30 bash -c "[ \"\$(curl -sf --data-urlencode 'query=changes(process_start_time_seconds{instance=\"$target\"}[30m])' '$PROM/api/v1/query' | jq -r '.data.result[0].value[1]')\" = 1 ]" ||
    fail "Prometheus did not see the restart: $(query "process_start_time_seconds{instance=\"$target\"}[1m]")"
  run -0 alert_absent MM2WorkerRestarts
}

@test "the source consumer failing authentication fires MM2AuthenticationFailing naming the client, and MM2TasksFetchNothing; the right password resolves both" {
  # Only the task's consumer gets a wrong password (source.consumer.*): the
  # connector's admin still lists the topic, so the task starts and stays
  # RUNNING while its poll fails (MirrorSourceTask logs it and goes on).
  run -0 rest_write POST 1 /connectors "$("$HARNESS" connector-json al-auth 'al\.fail' '{"tasks.max":"1","source.consumer.sasl.jaas.config":"org.apache.kafka.common.security.plain.PlainLoginModule required username=\"mm2-source\" password=\"wrong-on-purpose\";"}')"
  wait_for 60 connector_tasks_running al-auth 1 || fail "al-auth not RUNNING: $(rest GET 1 /connectors/al-auth/status)"
  wait_for 60 alert_matches firing MM2AuthenticationFailing severity=critical ||
    fail "MM2AuthenticationFailing not firing: $(alerts); counts: $(query 'kafka_consumer_failed_authentication')"
  run -0 alerts
  assert_output --partial 'al-auth-0|replication-consumer'
  wait_for 60 alert_matches firing MM2TasksFetchNothing connector=al-auth || fail "MM2TasksFetchNothing not firing: $(alerts)"
  # Still RUNNING all along: no task state would have said it.
  run -0 connector_tasks_running al-auth 1
  run -0 rest_write PUT 1 /connectors/al-auth/config "$("$HARNESS" connector-json al-auth 'al\.fail' '{"tasks.max":"1"}' | jq -c .config)"
  wait_for 60 alert_absent MM2TasksFetchNothing connector=al-auth || fail "MM2TasksFetchNothing still active: $(alerts)"
  # The failures leave the alert's 2-minute window.
  wait_for 180 alert_absent MM2AuthenticationFailing || fail "MM2AuthenticationFailing still active: $(alerts)"
  run -0 rest_write DELETE 1 /connectors/al-auth
}

@test "a producer holding records back fires MM2ReplicationLatencyHigh against the operator's bound; the image's linger resolves it" {
  # The bound as an operator's overlay sets it (tests/alerts/overlay: 15 s; the bed's producer
  # stamps each record 5 to 6 s before it sends it, so the steady latency reads about 5.5 s).
  run -0 query_value 'mm2:replication_latency_threshold_ms'
  assert_output 15000
  # A connector whose producer holds each batch 30 s (linger.ms; batch.size large enough that no
  # batch fills first; delivery.timeout.ms at least linger.ms plus request.timeout.ms, as the
  # producer requires): each record reaches the target 0 to 30 s after its timestamp (about 15 s on average). It starts
  # at the end of the source ("latest"): records from before would count as late too.
  run -0 rest_write POST 1 /connectors "$("$HARNESS" connector-json al-lat 'al\.fail' '{"tasks.max":"1","source.consumer.auto.offset.reset":"latest","producer.override.linger.ms":"30000","producer.override.batch.size":"1048576","producer.override.delivery.timeout.ms":"120000"}')"
  wait_for 60 connector_tasks_running al-lat 1 || fail "al-lat not RUNNING: $(rest GET 1 /connectors/al-lat/status)"
  wait_for 150 alert_matches firing MM2ReplicationLatencyHigh severity=warning ||
    fail "MM2ReplicationLatencyHigh not firing: $(alerts); p99: $(query 'mm2:replication_latency_ms:p99'); per partition: $(query 'kafka_connect_mirror_source_connector_replication_latency_ms_avg')"
  p99=$(query_value 'mm2:replication_latency_ms:p99')
  echo "# p99 of replication-latency-ms with a 30 s linger: $p99 ms" >&3
  run -0 alerts
  assert_output --partial '"summary":"Replication latency p99 is'
  # The same connector with the image's producer settings: the latency falls under the bound
  # once the 30 s batches leave the metric's window, and the alert resolves.
  run -0 rest_write PUT 1 /connectors/al-lat/config "$("$HARNESS" connector-json al-lat 'al\.fail' '{"tasks.max":"1","source.consumer.auto.offset.reset":"latest"}' | jq -c .config)"
  wait_for 180 alert_absent MM2ReplicationLatencyHigh ||
    fail "MM2ReplicationLatencyHigh still active: $(alerts); p99: $(query 'mm2:replication_latency_ms:p99')"
  run -0 rest_write DELETE 1 /connectors/al-lat
}

@test "the workers losing Write on their offsets topic fire MM2OffsetCommitFailing while the tasks stay RUNNING; the grant back resolves it" {
  wait_for 60 connector_tasks_running al 3 || fail "al is not RUNNING with 3 tasks: $(rest GET 1 /connectors/al/status)"
  # The workers' row of docs/acls.md, revoked as an administrator might by mistake.
  line=$(grep -n '^| target | Write | Topic | {offsets topic} |' "$AL_ROOT/docs/acls.md" | cut -d: -f1)
  [ -n "$line" ] || fail "docs/acls.md has no Write row on {offsets topic}"
  regrant() { "$BED" kit grant --role workers --name "offsets topic=$BED_OFFSET_TOPIC" >/dev/null; }
  run -0 "$BED" kit grant --role workers --name "offsets topic=$BED_OFFSET_TOPIC" --revoke-line "$line"
  # Commits every offset.flush.interval.ms (10 s), each refused (TopicAuthorizationException).
  wait_for 90 alert_matches firing MM2OffsetCommitFailing connector=al severity=warning ||
    { regrant; fail "MM2OffsetCommitFailing not firing: $(alerts); failures: $(query 'kafka_connect_task_offset_commit_failure_percentage')"; }
  run -0 alerts
  assert_output --partial '"summary":"Connector al: source offset commits fail'
  # Nothing else says it: the tasks RUNNING, the records still copied.
  run -0 connector_tasks_running al 3
  run -0 regrant
  # The next commits succeed; the ratio falls to 0 once the failures leave its window.
  wait_for 180 alert_absent MM2OffsetCommitFailing ||
    fail "MM2OffsetCommitFailing still active: $(alerts); failures: $(query 'kafka_connect_task_offset_commit_failure_percentage')"
}

@test "a pod that joins the group with another config topic keeps it rebalancing and fires MM2RebalanceStuck; gone, the group settles and it resolves" {
  wait_for 60 group_settled 5 || fail "the group did not settle: $(query 'kafka_connect_worker_rebalance_rebalancing')"
  run -0 alert_absent MM2RebalanceStuck
  # A rolling update whose ConfigMap names another config topic (the split the Connect docs
  # warn about): the new pod joins the same group, is assigned work at the leader's config
  # offset, cannot reach that offset in its own topic, and asks for another rebalance, forever
  # (DistributedHerder: "Current config state offset ... does not match group assignment").
  other=$BED_CONFIG_TOPIC-other
  run -0 "$BED" kit create-topics --no-grant --bootstrap "$BED_TGT_BOOTSTRAP" "$other:1:compact"
  run -0 "$BED" kit grant --role workers --name "config topic=$other"
  run -0 "$HARNESS" worker 4 "CONNECT_CONFIG_STORAGE_TOPIC=$other"
  run -0 "$HARNESS" targets 1 2 3 4
  # Out of the targets first (file_sd rereads them every 5 s), so that no scrape of a
  # stopped pod counts as a silent worker.
  gone() {
    "$HARNESS" targets 1 2 3 && sleep 6
    timeout 60 podman rm -f -t 5 "$(bed_worker_name 4)" >/dev/null 2>&1
  }
  wait_for 180 alert_matches firing MM2RebalanceStuck severity=warning ||
    { gone; fail "MM2RebalanceStuck not firing: $(alerts); rebalancing: $(query 'kafka_connect_worker_rebalance_rebalancing')"; }
  # It is the new pod that cannot finish.
  run -0 query_value "max(kafka_connect_worker_rebalance_rebalancing{instance=\"$(metrics_target 4)\"})"
  assert_output 1
  podman logs "$(bed_worker_name 4)" 2>&1 | grep -q 'does not match group assignment' ||
    { gone; fail "worker 4 did not log the config offset mismatch"; }
  run -0 gone
  wait_for 120 alert_absent MM2RebalanceStuck || fail "MM2RebalanceStuck still active: $(alerts)"
  wait_for 120 connector_tasks_running al 3 || fail "al is not RUNNING with 3 tasks again: $(rest GET 1 /connectors/al/status)"
  wait_for 60 alert_absent MM2WorkerNotScraped || fail "a target left behind: $(alerts)"
}

@test "a worker whose heap its producer's buffers fill fires MM2HeapAfterGCHigh for that worker; removed, it resolves" {
  # A Connect group of its own (own_group) with one small worker: 128 MiB of heap, the size of
  # a pod whose memory limit was set too low for its tasks.  Its connector's producer keeps one
  # 92 MiB batch (batch.size) per partition for 30 s (linger.ms), and the producer's buffer
  # pool keeps the buffer after each send: held for good, in the old generation (a humongous
  # region).  At 64 MiB of heap, a 28 MiB buffer gave 87 % and 32 MiB failed the task with
  # OutOfMemoryError (MM2TaskFailed's case): the larger heap leaves room on both sides.
  own_group mm2kit-al-heap >/dev/null || fail "the group mm2kit-al-heap was not set up"
  run -0 "$HARNESS" worker 5 "KAFKA_HEAP_OPTS=-Xms128m -Xmx128m" "${GROUP_ENV[@]}"
  gone() {
    "$HARNESS" targets 1 2 3 && sleep 6
    timeout 60 podman rm -f -t 5 "$(bed_worker_name 5)" >/dev/null 2>&1
  }
  "$BED" worker-wait 5 180 >/dev/null || { gone; fail "worker 5 did not start"; }
  "$HARNESS" targets 1 2 3 5 || { gone; fail "the targets were not rewritten"; }
  rest_write POST 5 /connectors "$("$HARNESS" connector-json al-heap 'al\.fail' '{"tasks.max":"1","source.consumer.auto.offset.reset":"latest","producer.override.linger.ms":"30000","producer.override.batch.size":"96468992","producer.override.buffer.memory":"134217728","producer.override.max.request.size":"104857600","producer.override.delivery.timeout.ms":"120000"}')" ||
    { gone; fail "al-heap not created"; }
  target=$(metrics_target 5)
  wait_for 180 alert_matches firing MM2HeapAfterGCHigh instance="$target" severity=warning ||
    { gone; fail "MM2HeapAfterGCHigh not firing: $(alerts); old gen after GC: $(query 'jvm_memory_pool_collection_used_bytes{pool="G1 Old Gen"}')"; }
  echo "# old generation after GC on the small worker: $(query_value "max(jvm_memory_pool_collection_used_bytes{instance=\"$target\",pool=\"G1 Old Gen\"}) / sum(jvm_memory_max_bytes{instance=\"$target\",area=\"heap\"})") of its heap" >&3
  # Only that worker, and its task still RUNNING: nothing but the heap says it yet.
  run -0 bash -c "curl -sf '$PROM/api/v1/alerts' | jq '[.data.alerts[] | select(.labels.alertname == \"MM2HeapAfterGCHigh\")] | length'"
  assert_output 1
  connector_tasks_running al-heap 1 5 || { gone; fail "al-heap's task is not RUNNING: $(rest GET 5 /connectors/al-heap/status)"; }
  run -0 gone
  wait_for 60 alert_absent MM2HeapAfterGCHigh || fail "MM2HeapAfterGCHigh still active: $(alerts)"
}

@test "a worker whose heap is too small for the backlog it copies fires MM2GCTimeHigh for that worker; removed, it resolves" {
  # The catch-up of an undersized pod: one worker of 64 MiB of heap in a Connect group of its
  # own (own_group) copying a backlog of small records as fast as it can.  Measured on this bed
  # (2026-12-07, a backlog of 4,000,000): 59-67 % of its time in GC, its old generation 55-77 %
  # of the heap after GC (under MM2HeapAfterGCHigh's 85 %), its tasks RUNNING, about 70,000
  # records/s; at 56 MiB a task failed with OutOfMemoryError.  The rule's rate over 5 minutes
  # needs 60 s of GC in its window (a series younger than the window is not stretched to it),
  # about 9 us of GC a record, all written before the copy starts (copied while they were
  # written, 12,000,000 gave 38 s of GC: the copy kept up with the producer).  9,000,000 fired
  # it 125 s after the connector's start with 88 % of them copied: 12,000,000 leave a margin.
  # Segments of 16 MiB, the records deleted afterwards: the brokers' logs are tmpfs.
  local n=12000000 ends
  own_group mm2kit-al-gc >/dev/null || fail "the group mm2kit-al-gc was not set up"
  run -0 "$BED" kit create-topics --config segment.bytes=16777216 --bootstrap "$BED_SRC_BOOTSTRAP" al.gc:6
  run -0 "$BED" kit create-topics --config segment.bytes=16777216 --bootstrap "$BED_TGT_BOOTSTRAP" al.gc:6
  gone() {
    "$HARNESS" targets 1 2 3 && sleep 6
    timeout 60 podman rm -f -t 5 "$(bed_worker_name 5)" >/dev/null 2>&1 || true
    for b in "$BED_SRC_BOOTSTRAP" "$BED_TGT_BOOTSTRAP"; do
      "$BED" kit delete-records --bootstrap "$b" --topic al.gc --before 0:-1,1:-1,2:-1,3:-1,4:-1,5:-1 >/dev/null 2>&1 || true
    done
  }
  # The worker starts while the backlog is written.
  run -0 "$HARNESS" worker 5 "KAFKA_HEAP_OPTS=-Xms64m -Xmx64m" "${GROUP_ENV[@]}"
  "$BED" kit produce --bootstrap "$BED_SRC_BOOTSTRAP" --topic al.gc --count "$n" --partitions 6 --timeout 600 >/dev/null ||
    { gone; fail "the backlog of $n records was not written"; }
  "$BED" worker-wait 5 180 >/dev/null || { gone; fail "worker 5 did not start"; }
  "$HARNESS" targets 1 2 3 5 || { gone; fail "the targets were not rewritten"; }
  rest_write POST 5 /connectors "$("$HARNESS" connector-json al-gc 'al\.gc')" || { gone; fail "al-gc not created"; }
  target=$(metrics_target 5)
  local t0=$SECONDS
  wait_for 300 alert_matches firing MM2GCTimeHigh instance="$target" severity=warning ||
    { msg="MM2GCTimeHigh not firing: $(alerts); GC share over 5 m: $(query "sum(rate(jvm_gc_collection_seconds_sum{instance=\"$target\"}[5m]))"), over 1 m: $(query "sum(rate(jvm_gc_collection_seconds_sum{instance=\"$target\"}[1m]))"); copied: $("$BED" kit ends --bootstrap "$BED_TGT_BOOTSTRAP" --topic al.gc)"; gone; fail "$msg"; }
  echo "# fired $((SECONDS - t0)) s after the connector; time in GC over the last minute: $(query_value "sum(rate(jvm_gc_collection_seconds_sum{instance=\"$target\"}[1m]))"), old generation after GC $(query_value "max(jvm_memory_pool_collection_used_bytes{instance=\"$target\",pool=\"G1 Old Gen\"}) / sum(jvm_memory_max_bytes{instance=\"$target\",area=\"heap\"})") of the heap" >&3
  # Only that worker, its tasks RUNNING and copying: nothing but the JVM says it.
  run -0 bash -c "curl -sf '$PROM/api/v1/alerts' | jq '[.data.alerts[] | select(.labels.alertname == \"MM2GCTimeHigh\")] | length'"
  assert_output 1
  connector_tasks_running al-gc 3 5 || { msg="al-gc's tasks are not RUNNING: $(rest GET 5 /connectors/al-gc/status)"; gone; fail "$msg"; }
  ends=$("$BED" kit ends --bootstrap "$BED_TGT_BOOTSTRAP" --topic al.gc | jq '[.[]] | add')
  [ "${ends:-0}" -gt 0 ] || { gone; fail "nothing copied to the target's al.gc"; }
  echo "# $ends of the $n records copied by then" >&3
  run -0 gone
  wait_for 60 alert_absent MM2GCTimeHigh || fail "MM2GCTimeHigh still active: $(alerts)"
}

@test "a worker restarted under a rebalance delay longer than the alert's for leaves the tasks spread unevenly and fires MM2TasksImbalanced; spread again, it resolves" {
  # The skew the incremental cooperative protocol leaves after a restart (IncrementalCooperativeAssignor):
  # a worker that leaves and rejoins within scheduled.rebalance.max.delay.ms gets its tasks back
  # only when the delay ends, and runs none until then while its neighbour runs its own.  A group
  # of its own (pods 5 and 6, another group.id and internal topics, granted as docs/acls.md says)
  # whose workers keep that delay at 120 s, longer than the test overlay's `for` of 30 s (the base
  # rule's 30 minutes is for a skew that stays; Kafka's default delay, 300 s, leaves this one for
  # 5 minutes after every restart).  4 tasks: 2 and 2, then 2 and 0 (the pods of the main group
  # run 1 each).
  run -0 "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" al.skew:4
  run -0 "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" al.skew:4
  own_group mm2kit-al-skew >/dev/null || fail "the group mm2kit-al-skew was not set up"
  skew=("CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS=120000" "${GROUP_ENV[@]}")
  gone() {
    "$HARNESS" targets 1 2 3 && sleep 6
    timeout 60 podman rm -f -t 5 "$(bed_worker_name 5)" "$(bed_worker_name 6)" >/dev/null 2>&1
  }
  # Pod 5 first, so that it leads the group and pod 6, which restarts, does not.
  run -0 "$HARNESS" worker 5 "${skew[@]}"
  "$BED" worker-wait 5 180 >/dev/null || { gone; fail "worker 5 did not start"; }
  run -0 "$HARNESS" worker 6 "${skew[@]}"
  "$BED" worker-wait 6 180 >/dev/null || { gone; fail "worker 6 did not start"; }
  "$HARNESS" targets 1 2 3 5 6 || { gone; fail "the targets were not rewritten"; }
  rest_write POST 5 /connectors "$("$HARNESS" connector-json al-skew 'al\.skew' '{"tasks.max":"4"}')" ||
    { gone; fail "al-skew not created"; }
  # What the alert reads: each pod's task-count, from its exporter.  (The REST status is no
  # witness here: it kept showing the restarted pod's two tasks RUNNING there, the status topic's
  # last word, while that pod ran none.)
  counts() { local i; for i in 5 6; do curl -sf -m 5 "http://$(metrics_target "$i")/metrics" | awk '/^kafka_connect_worker_task_count[{ ]/ { printf "%d ", $2 }'; done; }
  spread() { [ "$(counts)" = "$1 $2 " ]; } # N5 N6
  wait_for 120 spread 2 2 || { msg="al-skew's 4 tasks are not 2 and 2: $(counts)"; gone; fail "$msg"; }
  [ "$(leader_index 5)" = 5 ] || { msg="pod 5 does not lead its group (leader: pod $(leader_index 5))"; gone; fail "$msg"; }
  wait_for 60 alert_absent MM2TasksImbalanced || { gone; fail "MM2TasksImbalanced active before the restart: $(alerts)"; }
  # Pod 6 restarts (a container restart: same address, a new JVM, a new member of the group).
  run -0 timeout 60 podman stop -t 30 "$(bed_worker_name 6)"
  t0=$SECONDS
  run -0 timeout 60 podman start "$(bed_worker_name 6)"
  "$BED" worker-wait 6 180 >/dev/null || { gone; fail "worker 6 did not start again"; }
  wait_for 60 spread 2 0 || { msg="pod 6 did not come back with no task: $(counts)"; gone; fail "$msg"; }
  wait_for 60 alert_matches firing MM2TasksImbalanced severity=warning ||
    { gone; fail "MM2TasksImbalanced not firing: $(alerts); tasks per worker: $(query 'mm2:worker_tasks:sum')"; }
  # It fired while the tasks were 2 and 0, before the delay ended.
  spread 2 0 || { msg="the tasks are not 2 and 0 while the alert fires: $(counts)"; gone; fail "$msg"; }
  echo "# fired $((SECONDS - t0)) s after pod 6 stopped, tasks per worker of its group: $(counts)" >&3
  wait_for 150 spread 2 2 || { msg="al-skew's tasks did not spread again: $(counts)"; gone; fail "$msg"; }
  echo "# spread again $((SECONDS - t0)) s after pod 6 stopped (the delay: 120 s)" >&3
  wait_for 60 alert_absent MM2TasksImbalanced || { gone; fail "MM2TasksImbalanced still active: $(alerts)"; }
  run -0 gone
}

@test "a worker restarted three times fires MM2WorkerRestarts for that worker" {
  victim=$(cat "$AL_DIR/victim")
  target=$(metrics_target "$victim")
  # The first restart was in the unassigned-tasks test; the others here.
  seen=$(query_value "changes(process_start_time_seconds{instance=\"$target\"}[30m])")
  for n in $(seq $(( ${seen:-0} + 1 )) 3); do
    run -0 timeout 60 podman restart -t 30 "$(bed_worker_name "$victim")"
    wait_for 60 bash -c "[ \"\$(curl -sf --data-urlencode 'query=changes(process_start_time_seconds{instance=\"$target\"}[30m])' '$PROM/api/v1/query' | jq -r '.data.result[0].value[1]')\" = $n ]" ||
      fail "Prometheus did not see restart $n: $(query "changes(process_start_time_seconds{instance=\"$target\"}[30m])")"
  done
  wait_for 30 alert_matches firing MM2WorkerRestarts instance="$target" || fail "MM2WorkerRestarts not firing: $(alerts)"
  run -0 alerts
  assert_output --partial "\"summary\":\"Worker $target restarted 3 times in 30 minutes\""
  # Only that worker.
  run -0 bash -c "curl -sf '$PROM/api/v1/alerts' | jq '[.data.alerts[] | select(.labels.alertname == \"MM2WorkerRestarts\")] | length'"
  assert_output 1
}

# bats test_tags=short
@test "a firing alert reaches Alertmanager and from it the webhook receiver on 127.0.0.1" {
  # MM2TaskFailed fired in the second test; Alertmanager groups, then posts.
  wait_for 30 jq -e -s 'any(.[]; .status == "firing" and any(.alerts[]; .labels.alertname == "MM2TaskFailed" and .labels.connector == "al-fail" and .status == "firing"))' "$AL_DIR/webhook.jsonl" ||
    fail "no firing MM2TaskFailed notification reached the receiver: $(head -c 2000 "$AL_DIR/webhook.jsonl" 2>/dev/null)"
  # And its resolution, after the restart.
  wait_for 30 jq -e -s 'any(.[]; any(.alerts[]; .labels.alertname == "MM2TaskFailed" and .status == "resolved"))' "$AL_DIR/webhook.jsonl" ||
    fail "no resolved MM2TaskFailed notification"
}

# panel_has_data EXPR: the query answers and its result is not empty.
panel_has_data() {
  local result
  result=$(query "$1") && [ "$result" != "[]" ]
}

# bats test_tags=short
@test "every panel query of the dashboard returns data from that Prometheus" {
  # The worker restarts of the test before rebalanced the group: a task being
  # restarted drops its per-partition metrics until its first scrape after the
  # start, so the panels are read once the copy runs again, each retried for
  # two scrapes.
  wait_for 90 connector_tasks_running al 3 || fail "al is not RUNNING with 3 tasks: $(rest GET 1 /connectors/al/status)"
  n=0
  while IFS=$'\t' read -r title expr; do
    query "$expr" >/dev/null || fail "panel \"$title\": the query failed: $expr"
    # kube-state-metrics' panels: no Kubernetes API here; tests/kube/70_alerts.bats reads them.
    case $expr in *kube_pod_*) continue ;; esac
    wait_for 45 panel_has_data "$expr" ||
      fail "panel \"$title\": no data for $expr; series per target: $(query 'count by (instance) ({__name__=~"kafka_connect_mirror_source_connector_.*"})'); up: $(query up)"
    n=$((n + 1))
  done < <("$MM2KIT_CACHE/lint-venv/bin/python3" "$AL_ROOT/tests/alerts/dashboard-queries.py" --lines --interval 20s "$AL_ROOT"/k8s/dashboards/*.json)
  echo "# $n panel queries, each with data" >&3
  [ "$n" -ge 10 ] || fail "only $n panel queries"
}

@test "every worker stopped fires MM2WorkersDown; started again, it resolves" {
  for i in 1 2 3; do
    run -0 timeout 60 podman stop -t 30 "$(bed_worker_name "$i")"
  done
  wait_for 60 alert_matches firing MM2WorkersDown severity=critical || fail "MM2WorkersDown not firing: $(alerts)"
  for i in 1 2 3; do
    run -0 timeout 60 podman start "$(bed_worker_name "$i")"
  done
  wait_for 120 alert_absent MM2WorkersDown || fail "MM2WorkersDown still active: $(alerts); up: $(query up)"
  wait_for 120 connector_tasks_running al 3 || fail "al is not RUNNING with 3 tasks again: $(rest GET 1 /connectors/al/status)"
}
