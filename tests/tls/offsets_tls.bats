#!/usr/bin/env bats
# shellcheck disable=SC2154 # output, stderr and stderr_lines are set by bats' run
# mm2-offsets over TLS on the TLS bed: the acceptance cutover (C mid-log,
# C = 0, C = log end; apply, resume, compare, check) with both clusters over
# mTLS and over SASL_SSL/SCRAM-SHA-512, through the INI's librdkafka ssl.* keys
# with every secret as ${env:...}.  SCRAM needs librdkafka 2.6.1 or later
# against these Kafka 4.x brokers (librdkafka#4895): the image's mm2-offsets
# must link the release scripts/librdkafka.sh pins, which the SCRAM test checks
# first.  The TLS failures (wrong CA, expired or wrong-host certificate, wrong
# password, PLAIN on the SCRAM listener) are in tls.bats.  All tagged short (make
# test runs them).  The mTLS profile's replication test comes first, on the worker
# its cutover then reuses; the connector creates the target topic there, and the next test
# shows that the workers' and the connector's target principal each hold only their own rows.
load helpers

# cutover PROFILE NAME: the acceptance test of tests/e2e/offsets.bats over PROFILE.
cutover() {
  local profile=$1 n=$2 d
  worker_on "$profile"
  d=$(oj_dir "$n")
  oj_tls_files "$d" "$n" "$n\\\\.orders" "$profile"
  topics_both "$n.orders:3"
  produce "$n.orders" 300 3
  # C in the middle, C = 0 and C = log end (100 records per partition).
  flink "$n-flink" "$n.orders" 0:40,1:0,2:100
  ok oj_tls "$d" export --config migration.ini --out export.json --stable-wait 2 -q
  ok oj_tls "$d" plan --config migration.ini --export export.json --out plan.json -q
  local digest=$output
  run -0 jq -r '.partitions[] | "\(.partition) \(.c) \(.m) \(.action)"' "$d/plan.json"
  assert_output "0 40 39 offset
1 0 null reset
2 100 99 offset"
  ok oj_tls "$d" apply --config migration.ini --plan plan.json
  no_secret "$output" "$stderr"
  [[ "$output$stderr" != *"$BED_TLS_KEY_PASSWORD"* ]] || fail "the key password appeared in output"
  assert_equal "$(jq -c '[.ok, .state, .checked, .mismatches]' <<<"$output")" '[true,"STOPPED",3,[]]'
  ok oj_tls "$d" resume --config migration.ini --plan plan.json --approve "$digest"
  produce "$n.orders" 150 3 300
  if [ "$profile" = ssl ]; then
    run -0 kit_mtls compare --source "$SRC_SSL" --target "$TGT_SSL" --topic "$n.orders" --timeout 180
  else
    run -0 kit_scram compare --source "$SRC_SASL_SSL" --target "$TGT_SASL_SSL" --topic "$n.orders" --timeout 180
  fi
  assert_output '{"source_records": 450, "target_records": 450, "partitions": 3, "mismatched_partitions": 0}'
  ok oj_tls "$d" check --config migration.ini --plan plan.json
  assert_equal "$(jq -c '[.ok, .equal, .pending, .failed]' <<<"$output")" '[true,3,0,0]'
  run -0 rest_tls DELETE 1 "/connectors/$n"
}

# bats test_tags=short
@test "mTLS: a worker of the profile copies every record, read back with a client certificate" {
  worker_on ssl
  replicate ssl tls.mtls kit_mtls created
  run -0 bash -c "podman logs $(bed_worker_name 1) 2>&1 | grep -cE '^\\s+security.protocol = SSL\$'"
}

# Two identities on the TARGET (docs/acls.md): the worker config's clients present the workers'
# own certificate (User:connect, /etc/mm2/tls/worker), the connector's target clients the
# target's (User:mm2-target, /etc/mm2/tls/target). The bed grants each its own table and nothing
# more; the copy above needed both (the workers' group, internal topics and Write, the target
# admin's Read and the Create of the topic it made), so each login used its own rows.
# bats test_tags=short
@test "mTLS: the workers' principal and the connector's target principal each hold only their own rows" {
  local w inv
  w=$(bed_worker_name 1)
  # Each client's certificate, as Kafka logs every client's config.
  run -0 bash -c "podman logs $w 2>&1 | grep -E '^\\s+ssl.keystore.location = ' | sort | uniq -c"
  assert_line --regexp '^ +[0-9]+[[:space:]]+ssl.keystore.location = /etc/mm2/tls/worker/keystore.pem$'
  assert_line --regexp '^ +[0-9]+[[:space:]]+ssl.keystore.location = /etc/mm2/tls/target/keystore.pem$'
  assert_line --regexp '^ +[0-9]+[[:space:]]+ssl.keystore.location = /etc/mm2/tls/source/keystore.pem$'
  run -0 "$BED" kit inventory --bootstrap "$BED_TGT_BOOTSTRAP"
  inv=$output
  # The replicated topic: Write for the workers (their task producer), Read and Create for the
  # connector's target admin, DescribeConfigs for accept's [target] login (the same principal),
  # Flink's Write, nothing else.
  run -0 jq -r '.acls[] | select(test(" TOPIC:LITERAL:tls\\.mtls ")) | split(" ")[0:3] | join(" ")' <<<"$inv"
  assert_output "User:connect ALLOW WRITE
User:flink ALLOW WRITE
User:mm2-target ALLOW CREATE
User:mm2-target ALLOW DESCRIBE_CONFIGS
User:mm2-target ALLOW READ"
  # User:connect: the workers' table only (the group, the three internal topics, Write).
  # shellcheck disable=SC2016 # a jq program
  run -0 jq -r --arg g "$BED_GROUP" --arg i "($BED_CONFIG_TOPIC|$BED_OFFSET_TOPIC|$BED_STATUS_TOPIC)" '
    .acls[] | select(startswith("User:connect ")) | select(
      test("^User:connect ALLOW READ GROUP:LITERAL:" + $g + " ") or
      test("^User:connect ALLOW (READ|WRITE|DESCRIBE_CONFIGS) TOPIC:LITERAL:" + $i + " ") or
      (test("^User:connect ALLOW WRITE TOPIC:LITERAL:") and (test(":" + $i + " ") | not)) | not)' <<<"$inv"
  assert_output ""
  # User:mm2-target: the target table only (Read, Create and accept's DescribeConfigs on
  # replicated topics, accept's Describe on the offset-syncs topic, and the audit trail's
  # Write, Read, DescribeConfigs and Create on mm2kit.trail), never a group or an internal topic.
  # shellcheck disable=SC2016 # a jq program
  run -0 jq -r --arg i "($BED_CONFIG_TOPIC|$BED_OFFSET_TOPIC|$BED_STATUS_TOPIC)" '
    .acls[] | select(startswith("User:mm2-target ")) | select(
      (test("^User:mm2-target ALLOW (READ|CREATE|DESCRIBE_CONFIGS) TOPIC:LITERAL:") and (test(":" + $i + " ") | not)) or
      test("^User:mm2-target ALLOW WRITE TOPIC:LITERAL:mm2kit[.]trail ") or
      test("^User:mm2-target ALLOW DESCRIBE TOPIC:LITERAL:mm2-offset-syncs[.][^ ]*[.]internal ") | not)' <<<"$inv"
  assert_output ""
  run -0 jq '[.acls[] | select(startswith("User:mm2-target "))] | length' <<<"$inv"
  [ "$output" -ge 2 ] || fail "User:mm2-target holds $output ACLs on the target"
}

# bats test_tags=short
@test "offsets over mTLS: C mid-log, 0 and log end; apply, resume, every record once, check, with client certificates" {
  cutover ssl otls-mtls
}

# bats test_tags=short
@test "offsets over SASL_SSL/SCRAM-SHA-512: C mid-log, 0 and log end; apply, resume, every record once, check" {
  local want
  want=$("$E2E_ROOT/scripts/librdkafka.sh" --version)
  run -0 image_offsets --version
  [[ "$output" == *" (librdkafka $want)" ]] ||
    fail "the image's mm2-offsets says '$output', not librdkafka $want (SCRAM to Kafka 4.x needs 2.6.1 or later)"
  cutover sasl_ssl otls-scram
}

# bats test_tags=short
@test "offsets: the worker stops" {
  workers_down 1
  run -1 grep -F "$BED_TLS_KEY_PASSWORD" "$BED_DIR/$(bed_worker_name 1).log"
}
