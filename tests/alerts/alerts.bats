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
load cases

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
  # From here on, the faults of cases.bash run side by side in the background, on pods of
  # Connect groups of their own (their tests, at the end, wait for each): the tests in between,
  # whose waits leave room for a loaded machine, ask about the main group's namespace alone.
  # The two longest first (a backlog to copy and 5 minutes of GC rate; a 120 s rebalance delay).
  case_start gc
  case_start skew
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
  case_start auth
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
  wait_for 30 alert_absent MM2WorkerNotScraped namespace="$BED_NAME" || fail "MM2WorkerNotScraped still active: $(alerts)"
  # A single restart is not an alert.
  target=$(metrics_target "$victim")
  wait_for 30 bash -c "[ \"\$(curl -sf --data-urlencode 'query=changes(process_start_time_seconds{instance=\"$target\"}[30m])' '$PROM/api/v1/query' | jq -r '.data.result[0].value[1]')\" = 1 ]" ||
    fail "Prometheus did not see the restart: $(query "process_start_time_seconds{instance=\"$target\"}[1m]")"
  run -0 alert_absent MM2WorkerRestarts
}

@test "a producer holding records back fires MM2ReplicationLatencyHigh against the operator's bound; the image's linger resolves it" {
  case_start heap
  case_start oc
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
  wait_for 150 alert_matches firing MM2ReplicationLatencyHigh namespace="$BED_NAME" severity=warning ||
    fail "MM2ReplicationLatencyHigh not firing: $(alerts); p99: $(query 'mm2:replication_latency_ms:p99'); per partition: $(query 'kafka_connect_mirror_source_connector_replication_latency_ms_avg')"
  p99=$(query_value "mm2:replication_latency_ms:p99{namespace=\"$BED_NAME\"}")
  echo "# p99 of replication-latency-ms with a 30 s linger: $p99 ms" >&3
  run -0 alerts
  assert_output --partial '"summary":"Replication latency p99 is'
  # The same connector with the image's producer settings: the latency falls under the bound
  # once the 30 s batches leave the metric's window, and the alert resolves.
  run -0 rest_write PUT 1 /connectors/al-lat/config "$("$HARNESS" connector-json al-lat 'al\.fail' '{"tasks.max":"1","source.consumer.auto.offset.reset":"latest"}' | jq -c .config)"
  wait_for 180 alert_absent MM2ReplicationLatencyHigh namespace="$BED_NAME" ||
    fail "MM2ReplicationLatencyHigh still active: $(alerts); p99: $(query 'mm2:replication_latency_ms:p99')"
  run -0 rest_write DELETE 1 /connectors/al-lat
}

@test "a pod that joins the group with another config topic keeps it rebalancing and fires MM2RebalanceStuck; gone, the group settles and it resolves" {
  wait_for 60 group_settled 5 || fail "the group did not settle: $(query 'kafka_connect_worker_rebalance_rebalancing')"
  run -0 alert_absent MM2RebalanceStuck namespace="$BED_NAME"
  # A rolling update whose ConfigMap names another config topic (the split the Connect docs
  # warn about): the new pod joins the same group, is assigned work at the leader's config
  # offset, cannot reach that offset in its own topic, and asks for another rebalance, forever
  # (DistributedHerder: "Current config state offset ... does not match group assignment").
  other=$BED_CONFIG_TOPIC-other
  run -0 "$BED" kit create-topics --no-grant --bootstrap "$BED_TGT_BOOTSTRAP" "$other:1:compact"
  run -0 "$BED" kit grant --role workers --name "config topic=$other"
  run -0 "$HARNESS" worker 4 "CONNECT_CONFIG_STORAGE_TOPIC=$other"
  run -0 "$HARNESS" scrape 4
  wait_for 180 alert_matches firing MM2RebalanceStuck namespace="$BED_NAME" severity=warning ||
    { drop_pods 4; fail "MM2RebalanceStuck not firing: $(alerts); rebalancing: $(query 'kafka_connect_worker_rebalance_rebalancing')"; }
  # It is the new pod that cannot finish.
  run -0 query_value "max(kafka_connect_worker_rebalance_rebalancing{instance=\"$(metrics_target 4)\"})"
  assert_output 1
  podman logs "$(bed_worker_name 4)" 2>&1 | grep -q 'does not match group assignment' ||
    { drop_pods 4; fail "worker 4 did not log the config offset mismatch"; }
  run -0 drop_pods 4
  wait_for 120 alert_absent MM2RebalanceStuck namespace="$BED_NAME" || fail "MM2RebalanceStuck still active: $(alerts)"
  wait_for 120 connector_tasks_running al 3 || fail "al is not RUNNING with 3 tasks again: $(rest GET 1 /connectors/al/status)"
  wait_for 60 alert_absent MM2WorkerNotScraped namespace="$BED_NAME" || fail "a target left behind: $(alerts)"
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
  wait_for 60 alert_matches firing MM2WorkersDown namespace="$BED_NAME" severity=critical || fail "MM2WorkersDown not firing: $(alerts)"
  for i in 1 2 3; do
    run -0 timeout 60 podman start "$(bed_worker_name "$i")"
  done
  wait_for 120 alert_absent MM2WorkersDown namespace="$BED_NAME" || fail "MM2WorkersDown still active: $(alerts); up: $(query up)"
  wait_for 120 connector_tasks_running al 3 || fail "al is not RUNNING with 3 tasks again: $(rest GET 1 /connectors/al/status)"
}

# The cases of cases.bash, started in the background from the task-failure test on: each test
# waits for its case, prints its figures and fails with the end of its log.
@test "the workers losing Write on their offsets topic fire MM2OffsetCommitFailing while the tasks stay RUNNING; the grant back resolves it" {
  case_wait oc 600
}

@test "the source consumer failing authentication fires MM2AuthenticationFailing naming the client, and MM2TasksFetchNothing; the right password resolves both" {
  case_wait auth 600
}

@test "a worker whose heap its producer's buffers fill fires MM2HeapAfterGCHigh for that worker; removed, it resolves" {
  case_wait heap 600
}

@test "a worker whose heap is too small for the backlog it copies fires MM2GCTimeHigh for that worker; removed, it resolves" {
  case_wait gc 600
}

@test "a worker restarted under a rebalance delay longer than the alert's for leaves the tasks spread unevenly and fires MM2TasksImbalanced; spread again, it resolves" {
  case_wait skew 600
}
