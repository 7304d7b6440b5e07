# shellcheck shell=bash
# The faults of alerts.bats that need pods of a Connect group of their own (a failing login,
# offset commits refused, the JVM's alerts and the tasks' spread), run side by side in the
# background while the main group's tests go on: each takes two to four minutes, mostly of
# waiting on a rule's window, and none touches the main group.  Each case's pods are scraped in a
# namespace of their own (harness.sh scrape), as a second Deployment in its own namespace would
# be, so that the rules that aggregate by namespace judge each group apart, and the main group's
# tests ask about their own namespace.
#
#   case_start NAME    run NAME_case in the background: its lines in $AL_DIR/case-NAME.log, its
#                      exit status in case-NAME.rc once it ends; its pods removed however it ends.
#                      Nothing in a run of some tags only (tests/run-bats --filter-tags: make
#                      alerts-e2e-short), which runs none of the cases' tests.
#   case_wait NAME S   wait up to S seconds for it (starting it first if this run has not), print
#                      its "# " lines to bats, and fail with its log's end unless it passed

# die MESSAGE: the case fails, saying why (its pods are removed on the way out).
die() { printf 'not ok: %s\n' "$*"; exit 1; }

# drop_pods I...: out of the targets first (file_sd rereads them every 5 s), so that
# no scrape of a stopped pod counts as a silent worker, then removed.
drop_pods() {
  local i names=()
  for i in "$@"; do names+=("$(bed_worker_name "$i")"); done
  "$HARNESS" unscrape "$@" && sleep 6
  timeout 60 podman rm -f -t 5 "${names[@]}" >/dev/null 2>&1 || true
}

case_start() {
  [ -z "${RUN_BATS_FILTER_TAGS:-}" ] || return 0
  case_run "$1"
}

case_run() {
  local name=$1
  rm -f "$AL_DIR/case-$name.rc"
  : >"$BATS_RUN_TMPDIR/case-$name.started"
  # The case in a subshell of its own (its EXIT trap its own); the status file is written once
  # the case and that trap are over.
  (
    # Not bats' traps: they would take this process's failures for the test's.  (No -e in the
    # cases either: an exit by -e undoes the redirections of the bats function this subshell
    # was forked in before the EXIT trap runs, whose lines then went to bats' own output; each
    # step that may fail says so with die.)
    exec 3>&- </dev/null >"$AL_DIR/case-$name.log" 2>&1
    trap - ERR DEBUG
    set +eET
    ("${name}_case") &
    local pid=$!
    # harness.sh down stops it by its recorded PID if the run ends first.
    "$HARNESS" adopt "case-$name" "$pid"
    wait "$pid"
    echo "$?" >"$AL_DIR/case-$name.rc"
  ) &
}

case_done() { [ -s "$AL_DIR/case-$1.rc" ]; }

# pod_ready I NAMESPACE: pod I, started by harness.sh worker, answers and is scraped in that
# namespace.
pod_ready() {
  "$BED" worker-wait "$1" 180 >/dev/null || die "worker $1 did not start"
  "$HARNESS" scrape "$1" "$2" || die "worker $1 not added to the targets"
}

# old_gen_share TARGET: the old generation after GC over the heap's maximum, as
# MM2HeapAfterGCHigh reads it, for that scrape target.
old_gen_share() {
  query_value "max(jvm_memory_pool_collection_used_bytes{instance=\"$1\",pool=\"G1 Old Gen\"}) / sum(jvm_memory_max_bytes{instance=\"$1\",area=\"heap\"})"
}

case_wait() {
  local name=$1 rc
  [ -e "$BATS_RUN_TMPDIR/case-$name.started" ] || case_run "$name"
  wait_for "$2" case_done "$name" ||
    fail "the $name case did not end within $2 s; its log: $(tail -n 20 "$AL_DIR/case-$name.log")"
  grep '^# ' "$AL_DIR/case-$name.log" >&3 || true
  rc=$(cat "$AL_DIR/case-$name.rc")
  [ "$rc" = 0 ] || fail "the $name case failed (exit $rc); the end of $AL_DIR/case-$name.log: $(tail -n 20 "$AL_DIR/case-$name.log")"
}

# ---- the cases: each in a subshell of its own; its pods removed by its EXIT trap ----

# A Connect group of its own (own_group) with one small worker: 128 MiB of heap, the size of a
# pod whose memory limit was set too low for its tasks.  Its connector's producer keeps one
# 92 MiB batch (batch.size) per partition for 30 s (linger.ms), and the producer's buffer pool
# keeps the buffer after each send: held for good, in the old generation (a humongous region).
# At 64 MiB of heap, a 28 MiB buffer gave 87 % and 32 MiB failed the task with
# OutOfMemoryError (MM2TaskFailed's case): the larger heap leaves room on both sides.
heap_case() {
  local ns=al-heap target
  trap 'drop_pods 5' EXIT
  own_group mm2kit-al-heap >/dev/null || die "the group mm2kit-al-heap was not set up"
  "$HARNESS" worker 5 "KAFKA_HEAP_OPTS=-Xms128m -Xmx128m" "${GROUP_ENV[@]}" >/dev/null || die "worker 5 not started"
  pod_ready 5 $ns
  rest_write POST 5 /connectors "$("$HARNESS" connector-json al-heap 'al\.fail' '{"tasks.max":"1","source.consumer.auto.offset.reset":"latest","producer.override.linger.ms":"30000","producer.override.batch.size":"96468992","producer.override.buffer.memory":"134217728","producer.override.max.request.size":"104857600","producer.override.delivery.timeout.ms":"120000"}')" ||
    die "al-heap not created"
  target=$(metrics_target 5)
  wait_for 180 alert_matches firing MM2HeapAfterGCHigh instance="$target" namespace=$ns severity=warning ||
    die "MM2HeapAfterGCHigh not firing: $(alerts); old gen after GC: $(query 'jvm_memory_pool_collection_used_bytes{pool="G1 Old Gen"}')"
  echo "# heap: old generation after GC on the small worker: $(old_gen_share "$target") of its heap"
  # Only that worker (none of the main group's, whose heaps are the image's, nor another case's),
  # and its task still RUNNING: nothing but the heap says it yet.
  alert_absent MM2HeapAfterGCHigh instance!="$target" || die "MM2HeapAfterGCHigh active for another worker: $(alerts)"
  connector_tasks_running al-heap 1 5 || die "al-heap's task is not RUNNING: $(rest GET 5 /connectors/al-heap/status)"
  trap - EXIT
  drop_pods 5
  wait_for 60 alert_absent MM2HeapAfterGCHigh instance="$target" || die "MM2HeapAfterGCHigh still active: $(alerts)"
}

# The catch-up of an undersized pod: one worker with a small heap in a Connect group of its own
# (own_group) copying a backlog of small records as fast as it can, while the other cases and
# the main group's tests take the CPU too.  The rule's rate over 5 minutes needs 60 s of GC in
# its window (a series younger than the window is not stretched to it), about 9 us of GC a
# record alone, all written before the copy starts (copied while they were written, 12,000,000
# gave 38 s of GC: the copy kept up with the producer).  Alone, 64 MiB of heap gave 59-67 % of
# the time in GC (its old generation 55-77 % of the heap after GC, under MM2HeapAfterGCHigh's
# 85 %); beside the others, on 2 cores, the same worker failed with OutOfMemoryError
# (2026-12-07, in AbstractWorkerSourceTask.sendRecords and in the consumer's poll: a task
# failing, MM2TaskFailed's case, not this one), its producers behind its fetches, even with
# their buffers bounded.  So 96 MiB, with one GC thread (ParallelGCThreads, ConcGCThreads, as a
# pod limited to one CPU gets): 30-57 % of its time in GC over a minute, its old generation about
# half the heap, fired 156 s after the connector with 6,100,000 of the records copied.  Each
# task's producer holds at most 256 KiB of batches (buffer.memory, batch.size; 32 MiB and
# 256 KiB by default here): a record waiting for its ack keeps its SourceRecord and Connect's
# callback, hundreds of bytes on the heap for a few in the batch.
# Segments of 16 MiB, the records deleted afterwards: the brokers' logs are tmpfs.  A backlog
# copied is latency as users feel it too: MM2ReplicationLatencyHigh fires in this namespace.
gc_case() {
  local ns=al-gc n=12000000 target t0 ends
  gc_gone() {
    drop_pods 6
    for b in "$BED_SRC_BOOTSTRAP" "$BED_TGT_BOOTSTRAP"; do
      "$BED" kit delete-records --bootstrap "$b" --topic al.gc --before 0:-1,1:-1,2:-1,3:-1,4:-1,5:-1 >/dev/null 2>&1 || true
    done
  }
  trap gc_gone EXIT
  own_group mm2kit-al-gc >/dev/null || die "the group mm2kit-al-gc was not set up"
  "$BED" kit create-topics --config segment.bytes=16777216 --bootstrap "$BED_SRC_BOOTSTRAP" al.gc:6 >/dev/null ||
    die "al.gc not created on the source"
  "$BED" kit create-topics --config segment.bytes=16777216 --bootstrap "$BED_TGT_BOOTSTRAP" al.gc:6 >/dev/null ||
    die "al.gc not created on the target"
  # The worker starts while the backlog is written.
  "$HARNESS" worker 6 "KAFKA_HEAP_OPTS=-Xms96m -Xmx96m -XX:ParallelGCThreads=1 -XX:ConcGCThreads=1" "${GROUP_ENV[@]}" >/dev/null || die "worker 6 not started"
  "$BED" kit produce --bootstrap "$BED_SRC_BOOTSTRAP" --topic al.gc --count "$n" --partitions 6 --timeout 600 >/dev/null ||
    die "the backlog of $n records was not written"
  pod_ready 6 $ns
  rest_write POST 6 /connectors "$("$HARNESS" connector-json al-gc 'al\.gc' '{"producer.override.buffer.memory":"262144","producer.override.batch.size":"32768"}')" || die "al-gc not created"
  target=$(metrics_target 6)
  t0=$SECONDS
  wait_for 300 alert_matches firing MM2GCTimeHigh instance="$target" namespace=$ns severity=warning ||
    die "MM2GCTimeHigh not firing: $(alerts); GC share over 5 m: $(query "sum(rate(jvm_gc_collection_seconds_sum{instance=\"$target\"}[5m]))"), over 1 m: $(query "sum(rate(jvm_gc_collection_seconds_sum{instance=\"$target\"}[1m]))"); copied: $("$BED" kit ends --bootstrap "$BED_TGT_BOOTSTRAP" --topic al.gc)"
  echo "# GC: fired $((SECONDS - t0)) s after the connector; time in GC over the last minute: $(query_value "sum(rate(jvm_gc_collection_seconds_sum{instance=\"$target\"}[1m]))"), old generation after GC $(old_gen_share "$target") of the heap"
  # Only that worker (none of the main group's nor another case's), its tasks RUNNING and
  # copying: nothing but the JVM says it.
  alert_absent MM2GCTimeHigh instance!="$target" || die "MM2GCTimeHigh active for another worker: $(alerts)"
  connector_tasks_running al-gc 3 6 || die "al-gc's tasks are not RUNNING: $(rest GET 6 /connectors/al-gc/status)"
  ends=$("$BED" kit ends --bootstrap "$BED_TGT_BOOTSTRAP" --topic al.gc | jq '[.[]] | add')
  [ "${ends:-0}" -gt 0 ] || die "nothing copied to the target's al.gc"
  echo "# GC: $ends of the $n records copied by then"
  trap - EXIT
  gc_gone
  wait_for 60 alert_absent MM2GCTimeHigh instance="$target" || die "MM2GCTimeHigh still active: $(alerts)"
}

# The skew the incremental cooperative protocol leaves after a restart
# (IncrementalCooperativeAssignor): a worker that leaves and rejoins within
# scheduled.rebalance.max.delay.ms gets its tasks back only when the delay ends, and runs none
# until then while its neighbour runs its own.  A group of its own (pods 7 and 8, another
# group.id and internal topics, granted as docs/acls.md says) whose workers keep that delay at
# 120 s, longer than the test overlay's `for` of 30 s (the base rule's 30 minutes is for a skew
# that stays; Kafka's default delay, 300 s, leaves this one for 5 minutes after every restart).
# 4 tasks: 2 and 2, then 2 and 0.
skew_case() {
  local ns=al-skew skew t0 msg
  trap 'drop_pods 7 8' EXIT
  "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" al.skew:4 >/dev/null || die "al.skew not created on the source"
  "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" al.skew:4 >/dev/null || die "al.skew not created on the target"
  own_group mm2kit-al-skew >/dev/null || die "the group mm2kit-al-skew was not set up"
  skew=("CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS=120000" "${GROUP_ENV[@]}")
  # Pod 7 first, so that it leads the group and pod 8, which restarts, does not.
  "$HARNESS" worker 7 "${skew[@]}" >/dev/null || die "worker 7 not started"
  pod_ready 7 $ns
  "$HARNESS" worker 8 "${skew[@]}" >/dev/null || die "worker 8 not started"
  pod_ready 8 $ns
  rest_write POST 7 /connectors "$("$HARNESS" connector-json al-skew 'al\.skew' '{"tasks.max":"4"}')" || die "al-skew not created"
  # What the alert reads: each pod's task-count, from its exporter.  (The REST status is no
  # witness here: it kept showing the restarted pod's two tasks RUNNING there, the status
  # topic's last word, while that pod ran none.)
  counts() { local i; for i in 7 8; do curl -sf -m 5 "http://$(metrics_target "$i")/metrics" | awk '/^kafka_connect_worker_task_count[{ ]/ { printf "%d ", $2 }'; done; }
  # shellcheck disable=SC2317 # called through wait_for
  spread() { [ "$(counts)" = "$1 $2 " ]; } # N7 N8
  wait_for 120 spread 2 2 || die "al-skew's 4 tasks are not 2 and 2: $(counts)"
  [ "$(leader_index 7)" = 7 ] || die "pod 7 does not lead its group (leader: pod $(leader_index 7))"
  wait_for 60 alert_absent MM2TasksImbalanced namespace=$ns || die "MM2TasksImbalanced active before the restart: $(alerts)"
  # Pod 8 restarts (a container restart: same address, a new JVM, a new member of the group).
  timeout 60 podman stop -t 30 "$(bed_worker_name 8)" >/dev/null || die "worker 8 not stopped"
  t0=$SECONDS
  timeout 60 podman start "$(bed_worker_name 8)" >/dev/null || die "worker 8 not started again"
  "$BED" worker-wait 8 180 >/dev/null || die "worker 8 did not start again"
  wait_for 60 spread 2 0 || die "pod 8 did not come back with no task: $(counts)"
  wait_for 60 alert_matches firing MM2TasksImbalanced namespace=$ns severity=warning ||
    die "MM2TasksImbalanced not firing: $(alerts); tasks per worker: $(query 'mm2:worker_tasks:sum')"
  # It fired while the tasks were 2 and 0, before the delay ended.
  msg=$(counts)
  [ "$msg" = "2 0 " ] || die "the tasks are not 2 and 0 while the alert fires: $msg"
  echo "# skew: fired $((SECONDS - t0)) s after pod 8 stopped, tasks per worker of its group: $msg"
  wait_for 150 spread 2 2 || die "al-skew's tasks did not spread again: $(counts)"
  echo "# skew: spread again $((SECONDS - t0)) s after pod 8 stopped (the delay: 120 s)"
  wait_for 60 alert_absent MM2TasksImbalanced namespace=$ns || die "MM2TasksImbalanced still active: $(alerts)"
}
# (skew_case's pods go by its EXIT trap: nothing is asserted after they go.)

# The workers' Write on their offsets topic revoked (the row of docs/acls.md, `bed.sh kit grant
# --revoke-line`), as an administrator might by mistake: Connect commits each task's source
# offsets every offset.flush.interval.ms (10 s), each refused (TopicAuthorizationException), and
# nothing else says it: the task RUNNING, the records still copied, until a restart copies them
# again.  Pod 10, a group of its own: its offsets topic is its own, and the failures must leave
# the metric's window before the alert resolves, which the main group's tests need not wait for.
oc_case() {
  local ns=al-oc g=mm2kit-al-oc line target t0
  line=$(grep -n '^| target | Write | Topic | {offsets topic} |' "$AL_ROOT/docs/acls.md" | cut -d: -f1)
  [ -n "$line" ] || die "docs/acls.md has no Write row on {offsets topic}"
  trap 'drop_pods 10' EXIT
  own_group $g >/dev/null || die "the group $g was not set up"
  "$HARNESS" worker 10 "${GROUP_ENV[@]}" >/dev/null || die "worker 10 not started"
  pod_ready 10 $ns
  target=$(metrics_target 10)
  rest_write POST 10 /connectors "$("$HARNESS" connector-json al-oc 'al\.fail' '{"tasks.max":"1"}')" || die "al-oc not created"
  wait_for 60 connector_tasks_running al-oc 1 10 || die "al-oc not RUNNING: $(rest GET 10 /connectors/al-oc/status)"
  "$BED" kit grant --role workers --name "offsets topic=$g-offsets" --revoke-line "$line" >/dev/null ||
    die "the workers' Write on $g-offsets not revoked"
  t0=$SECONDS
  wait_for 90 alert_matches firing MM2OffsetCommitFailing connector=al-oc namespace=$ns severity=warning ||
    die "MM2OffsetCommitFailing not firing: $(alerts); failures: $(query 'kafka_connect_task_offset_commit_failure_percentage')"
  alerts | jq -e 'any(.[]; .labels.alertname == "MM2OffsetCommitFailing" and (.annotations.summary | startswith("Connector al-oc: source offset commits fail")))' >/dev/null ||
    die "MM2OffsetCommitFailing's summary does not name al-oc: $(alerts)"
  echo "# offset commits: MM2OffsetCommitFailing fired $((SECONDS - t0)) s after the revoke"
  # Nothing else says it: the task RUNNING, the records still copied.
  connector_tasks_running al-oc 1 10 || die "al-oc's task is not RUNNING while its commits fail: $(rest GET 10 /connectors/al-oc/status)"
  # (MirrorSourceConnector's metrics name the topic and partition, not the connector: pod 10 runs al-oc alone.)
  [ -n "$(query_value "sum(rate(kafka_connect_mirror_source_connector_record_count{instance=\"$target\",topic=\"al.fail\"}[30s])) > 0")" ] ||
    die "al-oc copies nothing while its commits fail: $(query "kafka_connect_mirror_source_connector_record_count{instance=\"$target\"}")"
  "$BED" kit grant --role workers --name "offsets topic=$g-offsets" >/dev/null || die "the workers' Write on $g-offsets not granted again"
  # The next commits succeed; the ratio falls to 0 once the failures leave its window.
  t0=$SECONDS
  wait_for 180 alert_absent MM2OffsetCommitFailing connector=al-oc ||
    die "MM2OffsetCommitFailing still active: $(alerts); failures: $(query 'kafka_connect_task_offset_commit_failure_percentage')"
  echo "# offset commits: resolved $((SECONDS - t0)) s after the grant"
}

# A login that fails while nothing else says so: only the task's consumer gets a wrong password
# (source.consumer.*), so the connector's admin still lists the topic, the task starts and
# stays RUNNING while its poll fails (MirrorSourceTask logs it and goes on).  Pod 9, a group of
# its own: the failures must leave the alert's 2-minute window before it resolves, which the
# main group's tests need not wait for.
auth_case() {
  local ns=al-auth target
  trap 'drop_pods 9' EXIT
  own_group mm2kit-al-auth >/dev/null || die "the group mm2kit-al-auth was not set up"
  "$HARNESS" worker 9 "${GROUP_ENV[@]}" >/dev/null || die "worker 9 not started"
  pod_ready 9 $ns
  target=$(metrics_target 9)
  rest_write POST 9 /connectors "$("$HARNESS" connector-json al-auth 'al\.fail' '{"tasks.max":"1","source.consumer.sasl.jaas.config":"org.apache.kafka.common.security.plain.PlainLoginModule required username=\"mm2-source\" password=\"wrong-on-purpose\";"}')" ||
    die "al-auth not created"
  wait_for 60 connector_tasks_running al-auth 1 9 || die "al-auth not RUNNING: $(rest GET 9 /connectors/al-auth/status)"
  wait_for 60 alert_matches firing MM2AuthenticationFailing instance="$target" severity=critical ||
    die "MM2AuthenticationFailing not firing: $(alerts); counts: $(query 'kafka_consumer_failed_authentication')"
  # The summary names the client, so that the person paged knows whose login it is.
  alerts | jq -e --arg t "$target" 'any(.[]; .labels.alertname == "MM2AuthenticationFailing" and .labels.instance == $t and (.annotations.summary | contains("al-auth-0|replication-consumer")))' >/dev/null ||
    die "MM2AuthenticationFailing's summary does not name al-auth-0|replication-consumer: $(alerts)"
  wait_for 60 alert_matches firing MM2TasksFetchNothing connector=al-auth || die "MM2TasksFetchNothing not firing: $(alerts)"
  # Still RUNNING all along: no task state would have said it.
  connector_tasks_running al-auth 1 9 || die "al-auth is not RUNNING while its login fails: $(rest GET 9 /connectors/al-auth/status)"
  rest_write PUT 9 /connectors/al-auth/config "$("$HARNESS" connector-json al-auth 'al\.fail' '{"tasks.max":"1"}' | jq -c .config)" ||
    die "al-auth's config not fixed"
  wait_for 60 alert_absent MM2TasksFetchNothing connector=al-auth || die "MM2TasksFetchNothing still active: $(alerts)"
  # The failures leave the alert's 2-minute window.
  wait_for 180 alert_absent MM2AuthenticationFailing instance="$target" || die "MM2AuthenticationFailing still active: $(alerts)"
  echo "# auth: fired for $target's al-auth-0|replication-consumer, resolved once the right password's copy ran 2 minutes"
}
