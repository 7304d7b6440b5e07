#!/usr/bin/env bats
# REST authentication on real workers (docker/mm2/README.md, "REST authentication"): every worker
# of the bed runs the image's profile, which names Kafka's BasicAuthSecurityRestExtension, with the
# Secret's JAAS and credentials files mounted. Without credentials, or with a wrong password, every
# request is refused with 401 and changes nothing; with the right ones the operator, the probes,
# mm2-offsets and forwarding between the workers work. Connect's own signed internal endpoints are
# exempt from the password and refused by their signature check instead.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

CONN=ra-conn
WRONG=not-the-rest-password

# anon METHOD WORKER PATH [BODY]: the HTTP status of a request with no credentials (curl -q:
# CURL_HOME's .curlrc, which holds the operator's, is not read).
anon() {
  local args=(-q -s -m 30 -X "$1" -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json')
  [ -n "${4:-}" ] && args+=(--data "$4")
  curl "${args[@]}" "http://$(bed_worker_ip "$2"):8088$3" || true
}
# wrong METHOD WORKER PATH [BODY]: the same as the operator with a wrong password.
wrong() {
  local args=(-q -s -m 30 -X "$1" -o /dev/null -w '%{http_code}' -u "$BED_REST_USER:$WRONG"
    -H 'Content-Type: application/json')
  [ -n "${4:-}" ] && args+=(--data "$4")
  curl "${args[@]}" "http://$(bed_worker_ip "$2"):8088$3" || true
}

# What Connect holds of the connector, read with the operator's credentials: its config, its
# state, its task count and its committed offsets; and the connectors that exist.
held() {
  {
    rest GET 1 "/connectors/$CONN/config" | tail -n +2 | jq -cS .
    rest GET 1 "/connectors/$CONN/status" | tail -n +2 | jq -c '[.connector.state, (.tasks | length)]'
    rest GET 1 "/connectors/$CONN/offsets" | tail -n +2 | jq -cS '.offsets | sort_by(.partition.partition)'
    rest GET 1 /connectors | tail -n +2 | jq -c 'sort'
    rest GET 1 /admin/loggers/org.apache.kafka.connect.mirror | tail -n +2 | jq -c .level
  } 2>&1
}

setup_file() {
  "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" ra.t:2 >/dev/null
  "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" ra.t:2 >/dev/null
  "$BED" kit produce --bootstrap "$BED_SRC_BOOTSTRAP" --topic ra.t --count 40 --partitions 2 >/dev/null
  out=$(rest POST 1 /connectors "$(mirror_connector_json "$CONN" 'ra[.]t')")
  [ "$(head -n 1 <<<"$out")" = 201 ] || { echo "POST /connectors: $out" >&2; return 1; }
  for _ in $(seq 120); do
    [ "$(rest GET 1 "/connectors/$CONN/offsets" | tail -n +2 | jq '.offsets | length')" = 2 ] && return 0
    sleep 1
  done
  echo "the connector committed no offset for ra.t's 2 partitions in 120 s" >&2
  return 1
}

teardown_file() {
  rest DELETE 1 "/connectors/$CONN" >/dev/null || true
  rest DELETE 1 /connectors/ra-forwarded >/dev/null || true
}

# Every resource REST serves, by method: Connect's public API, the admin loggers, the plugins'
# validation, and the reads.
endpoints() {
  local cfg
  cfg=$(mirror_connector_json "$CONN" 'ra[.]t' | jq -c '.config + {"tasks.max": "1"}')
  printf '%s\t%s\t%s\n' \
    POST /connectors "$(mirror_connector_json ra-intruder 'ra[.]t' | jq -c .)" \
    PUT "/connectors/$CONN/config" "$cfg" \
    PUT /connectors/ra-intruder/config "$cfg" \
    PUT "/connectors/$CONN/pause" '' \
    PUT "/connectors/$CONN/resume" '' \
    PUT "/connectors/$CONN/stop" '' \
    POST "/connectors/$CONN/restart?includeTasks=true" '' \
    POST "/connectors/$CONN/tasks/0/restart" '' \
    PATCH "/connectors/$CONN/offsets" '{"offsets": [{"partition": {"cluster": "source", "topic": "ra.t", "partition": 0}, "offset": {"offset": 0}}]}' \
    DELETE "/connectors/$CONN/offsets" '' \
    DELETE "/connectors/$CONN" '' \
    PUT /connector-plugins/MirrorSourceConnector/config/validate "$cfg" \
    PUT /admin/loggers/org.apache.kafka.connect.mirror '{"level": "TRACE"}' \
    GET / '' \
    GET /connectors '' \
    GET "/connectors/$CONN/config" '' \
    GET "/connectors/$CONN/offsets" '' \
    GET /health ''
}

@test "without credentials every request, to every worker, is refused with 401 and nothing changes" {
  before=$(held)
  [ -n "$before" ]
  bad=()
  while IFS=$'\t' read -r m p b; do
    for i in 1 2 3; do
      code=$(anon "$m" "$i" "$p" "$b")
      [ "$code" = 401 ] || bad+=("$m $p on worker $i: $code")
    done
  done < <(endpoints)
  [ "${#bad[@]}" = 0 ] || fail "not refused with 401: ${bad[*]}"
  run -0 held
  assert_output "$before"
}

@test "with a wrong password every request is refused with 401 and nothing changes" {
  before=$(held)
  bad=()
  while IFS=$'\t' read -r m p b; do
    code=$(wrong "$m" 2 "$p" "$b")
    [ "$code" = 401 ] || bad+=("$m $p: $code")
  done < <(endpoints)
  [ "${#bad[@]}" = 0 ] || fail "not refused with 401: ${bad[*]}"
  run -0 held
  assert_output "$before"
  # A user the credentials file does not hold, with the right password, is refused too.
  run -0 curl -q -s -m 30 -o /dev/null -w '%{http_code}' -u "nobody:$BED_REST_PASSWORD" "http://$(bed_worker_ip 1):8088/connectors"
  assert_output 401
}

@test "Connect's internal endpoints are exempt from the password and refused by their signature check" {
  # POST .../tasks is what a worker sends the leader with the task configs (KIP-507: signed
  # with the session key, no Authorization). Unsigned, it is refused, never applied.
  before=$(held)
  for i in 1 2 3; do
    code=$(anon POST "$i" "/connectors/$CONN/tasks" '[{"task.class": "x"}]')
    [ "$code" = 400 ] || [ "$code" = 403 ] || fail "unsigned POST /connectors/$CONN/tasks on worker $i answered $code"
  done
  run -0 held
  assert_output "$before"
}

@test "with the operator's credentials a write sent to a worker that is not the leader is forwarded and done" {
  wait_for 60 leader_known 1
  leader=$(leader_index 1)
  other=$(( leader % 3 + 1 ))
  # The non-leader forwards the caller's Authorization header; the leader checks it again.
  run -0 rest POST "$other" /connectors "$(mirror_connector_json ra-forwarded 'ra[.]t' STOPPED)"
  assert_line --index 0 201
  run -0 rest GET "$leader" /connectors/ra-forwarded
  assert_line --index 0 200
  # The same through that worker with a wrong password is refused there, before forwarding.
  run -0 wrong DELETE "$other" /connectors/ra-forwarded
  assert_output 401
  run -0 rest DELETE "$other" /connectors/ra-forwarded
  assert_line --index 0 204
  gone() { [ "$(rest GET "$leader" /connectors/ra-forwarded | head -n 1)" = 404 ]; }
  wait_for 30 gone
}

@test "mm2-offsets with a wrong REST password ends with one line naming the 401, exit 5; the probes in a worker without credentials fail" {
  d=$(oj_dir ra-wrong)
  oj_files "$d" ra-wrong 'ra[.]t'
  OJ_REST_PASSWORD=$WRONG run -5 --separate-stderr oj "$d" preflight --config migration.ini
  assert_equal "$(grep -c "GET /: HTTP 401: the worker wants REST credentials, or refused them" <<<"$stderr")" 1
  [[ "$stderr$output" != *"$WRONG"* ]] || fail "the wrong password was printed"
  no_secret "$output" "$stderr"
  # With the operator's password Connect answers (what preflight then finds of this migration,
  # which has no Flink group, is not this test's concern).
  run --separate-stderr oj "$d" preflight --config migration.ini
  [ "$status" != 5 ] && [ "$status" != 4 ] || fail "preflight with the right password exited $status: $stderr"
  [[ "$stderr$output" != *"HTTP 401"* ]] || fail "a 401 with the right password: $stderr"
  # The kubelet's probes without --user: live (1) and ready (5) refused with the 401 named.
  w=$(bed_worker_name 1)
  run -1 podman exec "$w" mm2-probe live --timeout 5
  assert_output --partial "GET /: HTTP 401"
  run -5 podman exec "$w" mm2-probe ready --timeout 5
  assert_output --partial "HTTP 401"
  run -0 podman exec "$w" mm2-probe ready --timeout 5 "${BED_PROBE_AUTH[@]}"
}
