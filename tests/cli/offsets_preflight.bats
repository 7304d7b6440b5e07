#!/usr/bin/env bats
# mm2-offsets preflight without Kafka: its command line, the INI keys it reads, and the exit
# codes of what it cannot reach. Its judgements are lib/mm2_preflight's, unit-tested in
# tests/unit/test_preflight.c; librdkafka's mock clusters (fake_kafka) answer no admin request
# sent to a controller, so the checks themselves run against a real Kafka, not here.
# The parsers' output is read through variables bats sets (lines, output, stderr):
# shellcheck disable=SC2154
load offsets_helpers

@test "preflight --help says it changes nothing and lists its exit codes" {
  run -0 --separate-stderr offsets preflight --help
  assert_equal "$stderr" ""
  assert_line --index 0 "Usage: mm2-offsets preflight --config FILE [--report FILE] [--rate-wait SECONDS]"
  assert_line --index 1 "       mm2-offsets preflight --workers [--replication-factor N]"
  assert_line "cannot be asked is \"not checked\", never a pass. Changes nothing anywhere."
  assert_line --regexp '^  -r, --report FILE +also write the report there$'
  assert_line "A topic's retention.bytes is judged by an estimate (a partition's size cannot"
  assert_line --regexp '^  -W, --rate-wait SECONDS +between the two reads of the log ends that give$'
  assert_line --regexp "^ +retention.bytes' produce rate \(10\)$"
  assert_line "Exit codes: 0 success (nothing refused; warnings may remain), 1 check failed (a"
  assert_line "finding refuses the cutover), 2 usage error, 3 invalid configuration (the INI"
  assert_line "file, the connector JSON or the workers' environment), 4 dependency unreachable"
}
@test "preflight without --config exits 2 and points at its help" {
  run -2 offsets preflight --report "$WORK/r.json"
  assert_output "$E preflight: error: --config FILE is required (the migration INI file)
$(try preflight)"
}
@test "preflight takes the INI as --config, not as an argument" {
  run -2 offsets preflight "$INI"
  assert_output "$E preflight: error: unexpected argument '$INI'
$(try preflight)"
}
@test "preflight --rate-wait takes seconds above 0, and goes with --config, not --workers" {
  run -2 offsets preflight --config "$INI" --rate-wait 0
  assert_output "$E preflight: error: --rate-wait must be seconds above 0 and at most 86400, up to 3 decimals, as in 30 or 0.5, got \"0\"
$(try preflight)"
  run -2 offsets preflight --config "$INI" -W 1x
  assert_line --index 0 --partial "$E preflight: error: --rate-wait must be seconds above 0"
  run -2 offsets preflight --workers --rate-wait 5
  assert_output "$E preflight: error: --rate-wait goes with --config: --workers reads no source topic
$(try preflight)"
}
@test "preflight: a bad [flink] isolation.level exits 3 naming the values it takes" {
  ini_add flink "isolation.level = serializable"
  run -3 offsets preflight --config "$INI"
  assert_output "$E preflight: error: $INI: [flink] isolation.level must be read_committed or read_uncommitted (what the Flink job's Kafka source read with), got \"serializable\""
}
@test "preflight: a bad [flink] retention.margin.seconds exits 3 naming its range" {
  ini_add flink "retention.margin.seconds = 0"
  run -3 offsets preflight --config "$INI"
  assert_output "$E preflight: error: $INI: [flink] retention.margin.seconds must be seconds from 1.000 to 31622400 (up to 3 decimals), got \"0\""
}
@test "preflight: the internal topics' keys are checked, every problem at once" {
  ini_add connect "config.topic = connect configs" "internal.replication.factor = 0" \
    "internal.min.insync.replicas = 40000"
  ini_add source "principal = mm2-src"
  run -3 offsets preflight --config "$INI"
  assert_line "$E preflight: error: $INI: [source] principal must be TYPE:NAME as Kafka's ACLs name it (User:alice), at most 255 characters, got \"mm2-src\""
  assert_line "$E preflight: error: $INI: [connect] config.topic must be a topic name: topic name \"connect configs\" has an illegal character at position 8 (allowed: [a-zA-Z0-9._-])"
  assert_line "$E preflight: error: $INI: [connect] internal.replication.factor must be a whole number from 1 to 32767, got \"0\""
  assert_line "$E preflight: error: $INI: [connect] internal.min.insync.replicas must be a whole number from 1 to 32767, got \"40000\""
  assert_equal "${#lines[@]}" 4
}
@test "preflight: a bad [connect] workers exits 3 naming the entry" {
  ini_add connect "workers = http://mm2-connect-workers:8088, connect-1:8088"
  run -3 offsets preflight --config "$INI"
  assert_output "$E preflight: error: $INI: [connect] workers: each must be http[s]://HOST[:PORT]: \"connect-1:8088\" does not start with http:// or https://"
}
@test "preflight: the new keys are taken, and Connect not answering exits 4 before Kafka is asked" {
  ini_add connect "config.topic = c" "offset.topic = o" "status.topic = s" \
    "internal.replication.factor = 1" "internal.min.insync.replicas = 1"
  ini_add flink "isolation.level = read_committed"
  ini_add target "principal = User:mm2-target"
  run -4 --separate-stderr offsets preflight --config "$INI" --report "$WORK/preflight.json" --rate-wait 0.5
  assert_output ""
  assert_equal "${stderr_lines[0]}" "$E preflight: error: GET /: cannot connect to http://127.0.0.1:$PORT: Connection refused"
  assert_summary --stderr preflight 4 0 1
  [ ! -e "$WORK/preflight.json" ] || fail "a report was written without a run"
}
@test "preflight: Connect answers, Kafka does not: exit 4 naming the cluster, no report" {
  start_fake offsets-stopped
  run -4 --separate-stderr offsets preflight --config "$INI" --report "$WORK/preflight.json"
  assert_output ""
  assert_summary --stderr preflight 4 '[0-9]+' 1
  assert_equal "${stderr_lines[0]}" "$E preflight: info: Connect 4.1.0 on Kafka cluster fake-cluster"
  [[ ${stderr_lines[1]} == "$E preflight: error: [source] "* ]] || fail "not the source's error: ${stderr_lines[1]}"
  assert_equal "${#stderr_lines[@]}" 2
  [ ! -e "$WORK/preflight.json" ] || fail "a report was written without a run"
}

# --- preflight --workers: the workers' own principal, from their environment -------------------
JAAS_PLAIN='org.apache.kafka.common.security.plain.PlainLoginModule required username="mm2-worker" password="'$SECRET'";'

# workers_env VAR=VALUE...: the worker's environment (a closed port), with the changes given.
workers_env() {
  WENV=("PATH=/usr/bin:/bin" "CONNECT_BOOTSTRAP_SERVERS=127.0.0.1:$PORT" "CONNECT_GROUP_ID=mm2-connect"
    "CONNECT_CONFIG_STORAGE_TOPIC=c" "CONNECT_OFFSET_STORAGE_TOPIC=o" "CONNECT_STATUS_STORAGE_TOPIC=s"
    "CONNECT_SASL_JAAS_CONFIG=$JAAS_PLAIN" "$@")
}
# workers ARGS...: preflight --workers in WENV (its output kept for teardown's secret check).
workers() {
  local rc=0
  (cd "$WORK" && env -i "${WENV[@]}" timeout 20 "$OFF" preflight --workers "$@") >"$WORK/run.out" 2>"$WORK/run.err" || rc=$?
  cat "$WORK/run.out" "$WORK/run.err" >>"$WORK/all.err"
  cat "$WORK/run.out" "$WORK/run.err"
  return "$rc"
}

@test "preflight --workers refuses --config, and its counts without --workers" {
  run -2 offsets preflight --workers --config "$INI"
  assert_output "$E preflight: error: --workers takes no --config: it reads the workers' own environment (CONNECT_*)
$(try preflight)"
  run -2 offsets preflight --config "$INI" --replication-factor 1
  assert_output "$E preflight: error: --replication-factor, --min-insync-replicas and --timeout go with --workers; the INI states them in [connect]
$(try preflight)"
  run -2 offsets preflight --workers --min-insync-replicas 0
  assert_output "$E preflight: error: --min-insync-replicas must be a whole number from 1 to 32767, got \"0\"
$(try preflight)"
}
@test "preflight --workers names every missing variable at once and exits 3" {
  workers_env
  WENV=("PATH=/usr/bin:/bin" "CONNECT_GROUP_ID=g")
  run -3 workers
  assert_line "$E preflight: error: CONNECT_BOOTSTRAP_SERVERS is not set; set it to host:port[,host:port...]"
  assert_line "$E preflight: error: CONNECT_CONFIG_STORAGE_TOPIC is not set; set it to the topic name"
  assert_line --partial "$E preflight: error: CONNECT_SASL_JAAS_CONFIG is not set; set it to org.apache.kafka.common.security.plain.PlainLoginModule required"
  assert_equal "${#lines[@]}" 5
}
@test "preflight --workers takes the default profile's PLAIN login only, and never prints the JAAS" {
  workers_env "CONNECT_SASL_JAAS_CONFIG=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"w\" password=\"$SECRET\";"
  run -3 workers
  assert_output "$E preflight: error: CONNECT_SASL_JAAS_CONFIG: login module org.apache.kafka.common.security.scram.ScramLoginModule: preflight --workers takes the image's default profile (SASL_PLAINTEXT, PLAIN) only"
  workers_env "CONNECT_SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required password=\"$SECRET\";"
  run -3 workers
  assert_output "$E preflight: error: CONNECT_SASL_JAAS_CONFIG: needs username=\"...\" and password=\"...\" (each at most 255 and 511 bytes)"
  workers_env "CONNECT_SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required password=\"$SECRET\""
  run -3 workers
  assert_output "$E preflight: error: CONNECT_SASL_JAAS_CONFIG: it does not end with ';'"
}
@test "preflight --workers: a cluster that does not answer exits 4, no report" {
  workers_env
  run -4 workers --timeout 2 --report "$WORK/w.json"
  assert_line --index 0 --partial "$E preflight: error: [workers] "
  [ ! -e "$WORK/w.json" ] || fail "a report was written without a run"
}
