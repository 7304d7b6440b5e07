#!/usr/bin/env bats
# mm2-offsets diff (day two, docs/day-two.md): the connector JSON of [connector] file against the
# running connector of tests/fakes/fake_connect.py, which serves the connector.json it read at
# start: each test starts it, then edits $WORK/connector.json to be the repository's new file.
# Exit 0 when equal, 7 when they differ; secrets masked, ${env:...} compared as written.
# shellcheck disable=SC2154 # bats' run --separate-stderr sets stderr
load offsets_helpers

# file_edit PYTHON: the statement over c, the config of $WORK/connector.json (the file's side).
file_edit() { json_edit "$WORK/connector.json" "c = d['config']; $1"; }

# start_live MODE PYTHON: the fake serving the good connector edited by the statement over c
# (the running connector's side), from a directory of its own outside $WORK: a live config may
# hold a plain secret, which no file under $WORK may (teardown checks). Its offsets answer is
# $LIVE/offsets.json.
start_live() {
  LIVE=$BATS_TEST_TMPDIR/live
  mkdir -p "$LIVE"
  write_connector "$LIVE/connector.json"
  json_edit "$LIVE/connector.json" "c = d['config']; $2"
  rm -f "$WORK/port"
  timeout 60 python3 "$FAKE_CONNECT" "$1" "$WORK/port" "$LIVE" >"$WORK/fake.log" 2>&1 3>&- &
  # shellcheck disable=SC2034 # stop_fake (offsets_helpers.bash) ends it
  FAKE_PID=$!
  await_file "$WORK/port" 5 "$WORK/fake.log" || fail "fake_connect $1 did not start in 5 s"
  ini_set url "http://127.0.0.1:$(cat "$WORK/port")"
}

# The first line of every text report, for N keys.
head_line() {
  local s=s d=
  [ "$1" != 1 ] || { s=; d=s; }
  printf 'connector mirror-source (http://127.0.0.1:%s) against %s/connector.json: %s key%s differ%s' \
    "$(cat "$WORK/port")" "$WORK" "$1" "$s" "$d"
}

@test "diff: a connector equal to its file exits 0 and says so" {
  start_fake offsets-running
  run -0 --separate-stderr offsets diff --config "$INI"
  assert_output "$(head_line 0)
verdict: the connector equals its file"
  assert_summary --stderr diff 0 0 1
  assert_equal "$stderr" ""
}

@test "diff: tasks.max changed is harmless, exit 7" {
  start_fake offsets-running
  file_edit "c['tasks.max'] = '8'"
  run -7 --separate-stderr offsets diff --config "$INI"
  assert_output "$(head_line 1)
harmless: changed tasks.max: \"4\" -> \"8\": restarts the tasks only; the stored offsets stay
verdict: harmless: a PUT of the file restarts the tasks only, the stored offsets stay"
  assert_summary --stderr diff 7 0 1
}

@test "diff: a new source.cluster.alias moves offsets, whatever else is harmless" {
  start_fake offsets-running
  file_edit "c['source.cluster.alias'] = 'src2'; c['tasks.max'] = '2'"
  run -7 offsets diff --config "$INI" -q
  assert_line --index 1 --regexp '^moves-offsets: changed source.cluster.alias: "src" -> "src2": every stored source offset is keyed by this alias'
  assert_line --index 2 --partial 'harmless: changed tasks.max: "4" -> "2"'
  assert_line --index 3 "verdict: moves offsets: a PUT of the file would copy records again or skip them; it needs a plan that carries the offsets over"
}

@test "diff: a new source bootstrap list moves offsets and says what to verify" {
  start_fake offsets-running
  file_edit "c['source.cluster.bootstrap.servers'] = 'source-kafka-2:9092'"
  run -7 offsets diff --config "$INI" -q
  assert_line --index 1 --partial 'moves-offsets: changed source.cluster.bootstrap.servers: "source-kafka:9092" -> "source-kafka-2:9092"'
  assert_line --index 1 --partial "same cluster's new broker list, it is harmless: verify that its cluster id is the [source] cluster.id"
}

@test "diff: a key the file dropped is reported removed, one it adds added; unknown keys are not harmless" {
  start_fake offsets-running
  file_edit "del c['sync.topic.acls.enabled']; c['frobnicate.mode'] = 'on'"
  run -7 offsets diff --config "$INI" -q
  assert_line --index 1 'review: added frobnicate.mode: (not set) -> "on": a key mm2kit does not know: not assumed harmless, review what it does to the offsets'
  assert_line --index 2 --regexp '^review: removed sync.topic.acls.enabled: "false" -> \(not set\): '
  assert_line --index 3 --partial 'verdict: review:'
}

@test "diff: a plain secret of the running connector is masked, the sentinel never shown" {
  start_live offsets-running "c['source.cluster.sasl.jaas.config'] = 'org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"$SECRET\";'"
  file_edit "c['source.cluster.sasl.jaas.config'] = '\${env:MM2_SOURCE_JAAS}'"
  run -7 offsets diff --config "$INI" -v
  assert_line --regexp '^harmless: changed source.cluster.sasl.jaas.config: "<secret sha256:[0-9a-f]{16}>" -> "\$\{env:MM2_SOURCE_JAAS\}": '
  refute_output --partial "$SECRET_HEAD"
  run -7 offsets diff --config "$INI" --format json
  refute_output --partial "$SECRET_HEAD"
  refute_output --partial "password="
}

@test "diff: \${env:...} references are compared as written, never resolved" {
  start_live offsets-running "c['source.cluster.sasl.password'] = '\${env:MM2_SOURCE_PASSWORD}'"
  file_edit "c['source.cluster.sasl.password'] = '\${env:MM2_SOURCE_PASSWORD}'"
  # The variable is set (to the sentinel) in diff's environment: it is never read.
  run -0 offsets diff --config "$INI" -q
  assert_line --index 1 "verdict: the connector equals its file"
  file_edit "c['source.cluster.sasl.password'] = '\${env:MM2_SOURCE_PASSWORD_NEW}'"
  run -7 offsets diff --config "$INI" -q
  # shellcheck disable=SC2016 # the reference, literally
  assert_line --index 1 --partial 'harmless: changed source.cluster.sasl.password: "${env:MM2_SOURCE_PASSWORD}" -> "${env:MM2_SOURCE_PASSWORD_NEW}"'
  refute_output --partial "$SECRET_HEAD"
}

@test "diff --format json: each change with old and new value and its class" {
  start_fake offsets-running
  file_edit "c['tasks.max'] = '8'; c['source.cluster.alias'] = 'other'; del c['emit.offset-syncs.enabled']"
  run -7 --separate-stderr offsets diff --config "$INI" --format json
  printf '%s\n' "$output" >"$WORK/diff.json"
  assert_equal "$(json_get "$WORK/diff.json" "[d['kind'], d['connector'], d['exists'], d['differs'], d['class']]")" \
    '["mm2kit.diff/v1", "mirror-source", true, true, "moves-offsets"]'
  assert_equal "$(json_get "$WORK/diff.json" "[[c['key'], c['change'], c['old'], c['new'], c['class']] for c in d['changes']]")" \
    '[["emit.offset-syncs.enabled", "removed", "false", null, "review"], ["source.cluster.alias", "changed", "src", "other", "moves-offsets"], ["tasks.max", "changed", "4", "8", "harmless"]]'
  assert_summary --stderr diff 7 0 1
}

@test "diff: a connector that does not exist differs (the cutover creates it), exit 7" {
  start_fake offsets-absent
  run -7 offsets diff --config "$INI" -q --format json
  printf '%s\n' "$output" >"$WORK/diff.json"
  assert_equal "$(json_get "$WORK/diff.json" "[d['exists'], d['differs'], d['class'], len(d['changes']), d['changes'][0]['change']]")" \
    '[false, true, "create", 12, "added"]'
  assert_equal "$(json_get "$WORK/diff.json" "d['verdict']")" \
    "the connector does not exist: creating it is the cutover (preflight, export, plan, apply), not a day-two change"
}

@test "diff: a topics change lists the topic newly replicated and the topic left out with its stored offsets" {
  start_kafka source:orders:10,10,10 source:payments:5 source:audit:3,3 target:orders:0
  start_fake offsets-running
  planned_offsets
  file_edit "c['topics'] = 'orders,audit'"
  run -7 offsets diff --config "$INI" -q
  assert_line --index 1 --partial 'topics: changed topics: "orders,payments" -> "orders,audit": the topic filter'
  assert_line --index 2 "new topic: refused without a start: audit: 2 partitions Flink's group flink-copy never committed; MM2 would start them from auto.offset.reset (earliest): every record they hold is copied"
  assert_line --index 3 "removed topic: payments: no longer replicated; its stored offsets stay behind: payments-0=6; added back later, it resumes from them (refused while they are below the log start)"
  assert_line --index 4 --partial "verdict: review:"
}

@test "diff: a topics rewrite that matches the same topics is harmless" {
  start_kafka source:orders:1 source:payments:1 target:orders:0
  start_fake offsets-running
  file_edit "c['topics'] = 'payments,orders'"
  run -7 offsets diff --config "$INI" -q
  assert_line --index 2 "verdict: harmless: a PUT of the file restarts the tasks only, the stored offsets stay"
}

@test "diff: a topic filter it cannot evaluate is review, never harmless" {
  start_fake offsets-running
  file_edit "c['topics'] = '\${file:/etc/topics.properties:topics}'"
  run -7 offsets diff --config "$INI" -q
  assert_line --index 2 --partial "review: topics: cannot tell which topics are new or gone: "
  assert_line --index 3 --partial "verdict: review:"
}

@test "diff: --format other than text or json is a usage error" {
  run -2 offsets diff --config "$INI" --format yaml
  assert_output "$E diff: error: --format must be text or json, got \"yaml\"
$(try diff)"
}

@test "diff: a topic added back resumes from the offsets Connect still stores, not from Flink's C" {
  start_kafka source:orders:10,10,10 source:payments:10 target:orders:0
  start_live offsets-running "c['topics'] = 'orders'"
  planned_offsets
  cp "$WORK/offsets.json" "$LIVE/offsets.json"
  run -7 offsets diff --config "$INI" -q --format json
  printf '%s\n' "$output" >"$WORK/diff.json"
  assert_equal "$(json_get "$WORK/diff.json" "[[t['topic'], t['partitions'], t['flink_committed_partitions'], t['stored_partitions'], t['stored_below_log_start']] for t in d['topics_new']]")" \
    '[["payments", 1, 0, 1, 0]]'
  assert_equal "$(json_get "$WORK/diff.json" "d['topics_new'][0]['why']")" \
    "refused without a start: payments: replicated before, MM2 would resume it from the offsets Connect still stores on 1 of its 1 partitions, not from Flink's C or auto.offset.reset; whether the target has moved since is not checked here"
  assert_equal "$(json_get "$WORK/diff.json" "[d['class'], d['topics_removed']]")" '["review", []]'
}
