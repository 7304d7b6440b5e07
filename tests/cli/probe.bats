#!/usr/bin/env bats
# mm2-probe from the command line: usage and environment errors with their
# exact lines, and every check against fake_connect.py for the faults a real
# worker cannot show on demand (the e2e tests on the bed do the real ones).
# bats' run --separate-stderr sets stderr and stderr_lines:
# shellcheck disable=SC2154
load probe_helpers

# --- the command line ----------------------------------------------------------------------
@test "no check exits 2 and names the checks" {
  run -2 probe
  assert_output "$E no check given; expected live, ready or connectors
$TRY"
}
@test "an unknown check exits 2 and names it" {
  run -2 probe alive
  assert_output "$E unknown check 'alive'; expected live, ready or connectors
$TRY"
}
@test "an unknown long option exits 2 with one line and the help hint" {
  run -2 probe live --x
  assert_output "$E unknown option '--x'
$TRY"
}
@test "an unknown short option exits 2 and names it" {
  run -2 probe -q ready
  assert_output "$E unknown option '-q'
$TRY"
}
@test "an option without its argument exits 2" {
  run -2 probe ready --timeout
  assert_output "$E option '--timeout' needs an argument
$TRY"
}
@test "a second check exits 2 as an unexpected argument" {
  run -2 probe live ready
  assert_output "$E unexpected argument 'ready'
$TRY"
}
@test "--help prints every option and CONNECT_REST_PORT on stdout and exits 0" {
  run -0 --separate-stderr probe --help
  assert_equal "$stderr" ""
  assert_line --index 0 "Usage: mm2-probe live|ready|connectors [OPTION]..."
  local o
  for o in --url --timeout --connector --format --verbose --help --version CONNECT_REST_PORT \
    "Exit codes: 0 success (healthy), 1 check failed (unhealthy), 2 usage error,"; do
    assert_output --partial -- "$o"
  done
}
@test "--version prints mm2-probe and the version" {
  run -0 probe --version
  assert_output "mm2-probe $(cat "$BATS_TEST_DIRNAME/../../VERSION")"
}
@test "a --timeout of 0 exits 2 and gives the expected form" {
  run -2 probe ready --timeout 0
  assert_output "$E --timeout must be seconds above 0 and at most 86400 with at most 3 decimals, as in 5 or 0.5, got \"0\"
$TRY"
}
@test "a --timeout with four decimals exits 2" {
  run -2 probe ready --timeout 0.0005
  assert_line --index 0 "$E --timeout must be seconds above 0 and at most 86400 with at most 3 decimals, as in 5 or 0.5, got \"0.0005\""
}
@test "a non-numeric --timeout exits 2" {
  run -2 probe ready -t 5s
  assert_line --index 0 "$E --timeout must be seconds above 0 and at most 86400 with at most 3 decimals, as in 5 or 0.5, got \"5s\""
}
@test "a --url without http:// exits 2 and names the expected form" {
  run -2 probe live --url 127.0.0.1:8088
  assert_output "$E --url must be http[s]://HOST[:PORT][/PATH]: \"127.0.0.1:8088\" does not start with http:// or https://
$TRY"
}
@test "a --url without a host exits 2" {
  run -2 probe live --url http://
  assert_line --index 0 "$E --url must be http[s]://HOST[:PORT][/PATH]: \"http://\" has no host"
}
@test "a --url with a bad port exits 2" {
  run -2 probe live --url http://127.0.0.1:99999
  assert_line --index 0 --partial "$E --url must be http[s]://HOST[:PORT][/PATH]: \"http://127.0.0.1:99999\" is not a valid URL"
}
@test "a --url with credentials exits 2 without repeating them" {
  run -2 probe live --url http://admin:s3cret@127.0.0.1:8088
  assert_line --index 0 "$E --url must be http[s]://HOST[:PORT][/PATH]: it carries credentials (USER@), which the process list would show"
  refute_output --partial s3cret
}
@test "a --url with a query exits 2" {
  run -2 probe live --url 'http://127.0.0.1:8088/?x=1'
  assert_line --index 0 "$E --url must be http[s]://HOST[:PORT][/PATH]: \"http://127.0.0.1:8088/?x=1\" has a query or fragment"
}
@test "a --url longer than 768 bytes exits 2" {
  run -2 probe live --url "http://$(printf 'a%.0s' $(seq 800))"
  assert_line --index 0 "$E --url must be http[s]://HOST[:PORT][/PATH]: it is longer than 768 bytes"
}
@test "an unknown --format exits 2" {
  run -2 probe connectors --format yaml
  assert_line --index 0 "$E --format must be text or json, got \"yaml\""
}
@test "--connector with live exits 2: it applies only to connectors" {
  run -2 probe live --connector mirror-source
  assert_line --index 0 "$E --connector applies only to the connectors check"
}
@test "--format with ready exits 2: it applies only to connectors" {
  run -2 probe ready --format json
  assert_line --index 0 "$E --format applies only to the connectors check"
}
@test "an empty --connector exits 2" {
  run -2 probe connectors --connector ''
  assert_line --index 0 "$E --connector needs a connector name, got \"\""
}

# --- the environment -----------------------------------------------------------------------
@test "a non-numeric CONNECT_REST_PORT exits 3 and names the variable" {
  with_env CONNECT_REST_PORT=http
  run -3 probe live
  assert_output "$E CONNECT_REST_PORT must be a port number from 1 to 65535, got \"http\""
}
@test "CONNECT_REST_PORT 65536 is out of range and exits 3" {
  with_env CONNECT_REST_PORT=65536
  run -3 probe ready
  assert_output "$E CONNECT_REST_PORT must be a port number from 1 to 65535, got \"65536\""
}
@test "an empty CONNECT_REST_PORT exits 3" {
  with_env CONNECT_REST_PORT=
  run -3 probe ready
  assert_output "$E CONNECT_REST_PORT must be a port number from 1 to 65535, got \"\""
}
@test "the default URL takes its port from CONNECT_REST_PORT" {
  start_fake healthy
  with_env "CONNECT_REST_PORT=${URL##*:}"
  run -0 probe ready
  assert_output ""
}
@test "CONNECT_REST_PORT is not read when --url is given" {
  start_fake healthy
  with_env CONNECT_REST_PORT=http
  run -0 probe live --url "$URL"
  assert_output ""
}
@test "the default URL is http://127.0.0.1:8088" {
  if timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/8088' 2>/dev/null; then
    skip "something listens on 127.0.0.1:8088"
  fi
  run -4 probe live
  assert_output "$E GET /: cannot connect to http://127.0.0.1:8088: Connection refused"
}

# --- live ----------------------------------------------------------------------------------
@test "live against a healthy worker exits 0 and prints nothing" {
  start_fake healthy
  run -0 probe live --url "$URL"
  assert_output ""
}
@test "live passes while the worker is still starting" {
  start_fake starting
  run -0 probe live --url "$URL"
}
@test "live passes while a task is FAILED" {
  start_fake connectors-failed
  run -0 probe live --url "$URL"
}
@test "live --verbose prints one line with method, path, status and time" {
  start_fake healthy
  run -0 --separate-stderr probe live --url "$URL" --verbose
  assert_output ""
  assert_regex "$stderr" '^mm2-probe: info: GET / 200 [0-9]+ ms$'
}
@test "live against HTTP 500 exits 1 with the status and Connect's message" {
  start_fake error500
  run -1 probe live --url "$URL"
  assert_output "$E GET /: HTTP 500: Request timed out"
}
@test "live against a closed port exits 4" {
  local port
  port=$(closed_port)
  run -4 probe live --url "http://127.0.0.1:$port"
  assert_output "$E GET /: cannot connect to http://127.0.0.1:$port: Connection refused"
}
@test "live against a server that never answers exits 4 within 100 ms of --timeout" {
  start_fake hang
  timed -4 probe live --url "$URL" --timeout 0.5
  assert_output --regexp "^$E GET /: timed out after [0-9]+ ms$"
  assert_near "$MS" 500
}
@test "live against a body that drips exits 4 within 100 ms of --timeout" {
  start_fake slow-body
  timed -4 probe live --url "$URL" --timeout 0.5
  assert_output --regexp "^$E GET /: timed out after [0-9]+ ms$"
  assert_near "$MS" 500
}
@test "live against a 10 MB body exits 5 and names the cap" {
  start_fake huge
  run -5 probe live --url "$URL"
  assert_output "$E GET /: response body larger than 1048576 bytes"
}
@test "live against a redirect loop exits 5 and names the status" {
  start_fake redirect-loop
  run -5 probe live --url "$URL"
  assert_output "$E GET /: unexpected HTTP 302 (redirects are not followed)"
}

# --- ready ---------------------------------------------------------------------------------
@test "ready against a healthy worker exits 0 and prints nothing" {
  start_fake healthy
  run -0 probe ready --url "$URL/"
  assert_output ""
}
@test "ready while the worker starts exits 1 with Connect's status and message" {
  start_fake starting
  run -1 probe ready --url "$URL"
  assert_output "$E GET /health: HTTP 503: starting: Worker is still starting up."
}
@test "ready against an unhealthy worker exits 1 with its message on one line" {
  start_fake unhealthy
  run -1 probe ready --url "$URL"
  assert_output "$E GET /health: HTTP 500: unhealthy: Worker was unable to handle this request and may be unable to handle other requests."
}
@test "ready against HTTP 500 without a health status exits 1" {
  start_fake error500
  run -1 probe ready --url "$URL"
  assert_output "$E GET /health: HTTP 500: Request timed out"
}
@test "ready on Kafka before 3.9 falls back to GET /connectors and exits 0" {
  start_fake no-health
  run -0 --separate-stderr probe ready --url "$URL" -v
  assert_output ""
  assert_equal "${#stderr_lines[@]}" 2
  assert_regex "${stderr_lines[0]}" '^mm2-probe: info: GET /health 404 [0-9]+ ms$'
  assert_regex "${stderr_lines[1]}" '^mm2-probe: info: GET /connectors 200 [0-9]+ ms$'
}
@test "ready on Kafka before 3.9 exits 1 when GET /connectors fails" {
  start_fake no-health-500
  run -1 probe ready --url "$URL"
  assert_output "$E GET /connectors: HTTP 500: Request timed out"
}
@test "ready against a server that never answers exits 4 within 100 ms of --timeout" {
  start_fake hang
  timed -4 probe ready --url "$URL" --timeout 0.5
  assert_output --regexp "^$E GET /health: timed out after [0-9]+ ms$"
  assert_near "$MS" 500
}
@test "ready against a body that drips exits 4 within 100 ms of --timeout" {
  start_fake slow-body
  timed -4 probe ready --url "$URL" --timeout 0.5
  assert_near "$MS" 500
}
@test "ready against a closed port exits 4" {
  local port
  port=$(closed_port)
  run -4 probe ready --url "http://127.0.0.1:$port"
  assert_output "$E GET /health: cannot connect to http://127.0.0.1:$port: Connection refused"
}
@test "ready against a garbage body exits 5" {
  start_fake garbage
  run -5 probe ready --url "$URL"
  assert_output "$E GET /health: HTTP 200 but the body is not Connect's health JSON {\"status\": ..., \"message\": ...}"
}
@test "ready against a 10 MB body exits 5 and names the cap" {
  start_fake huge
  run -5 probe ready --url "$URL"
  assert_output "$E GET /health: response body larger than 1048576 bytes"
}
@test "ready against a 10 MB body without Content-Length exits 5 and names the cap" {
  start_fake huge-unsized
  run -5 probe ready --url "$URL"
  assert_output "$E GET /health: response body larger than 1048576 bytes"
}
@test "ready against a redirect loop exits 5 and names the status" {
  start_fake redirect-loop
  run -5 probe ready --url "$URL"
  assert_output "$E GET /health: unexpected HTTP 302 (redirects are not followed)"
}

# --- connectors ----------------------------------------------------------------------------
@test "connectors all running exits 0 with one summary line each, sorted" {
  start_fake connectors-ok
  run -0 --separate-stderr probe connectors --url "$URL"
  assert_equal "$stderr" ""
  assert_output "mirror-checkpoint STOPPED tasks=0/0 failed=0
mirror-heartbeat RUNNING tasks=1/1 failed=0
mirror-source RUNNING tasks=2/2 failed=0"
}
@test "connectors with a FAILED task exits 1 naming the connector, task and exception" {
  start_fake connectors-failed
  run -1 --separate-stderr probe connectors --url "$URL"
  assert_equal "$stderr" "$E connector mirror-source task 1 is FAILED on worker 10.0.0.2:8088: ConnectException: boom"
  assert_line "mirror-source RUNNING tasks=1/2 failed=1"
}
@test "connectors with a task refused by an authorizer names the exception, the topic and the missing ACL" {
  start_fake connectors-failed-authz
  run -1 --separate-stderr probe connectors --url "$URL"
  assert_equal "$stderr" "$E connector mirror-source task 1 is FAILED on worker 10.0.0.2:8088: authorization: TopicAuthorizationException: Not authorized to access topics: [orders] (under ConnectException: Unrecoverable exception from producer send callback); a principal lacks an ACL (docs/acls.md)"
}
@test "connectors with a RUNNING connector without tasks exits 1" {
  start_fake connectors-no-tasks
  run -1 --separate-stderr probe connectors --url "$URL"
  assert_equal "$stderr" "$E connector mirror-source is RUNNING with no tasks"
  assert_line "mirror-source RUNNING tasks=0/0 failed=0"
}
@test "connectors with a missing --connector exits 1 and names it" {
  start_fake connectors-ok
  run -1 --separate-stderr probe connectors --url "$URL" --connector mirror-source --connector mirror-nope
  assert_equal "$stderr" "$E connector mirror-nope not found"
  assert_output "mirror-source RUNNING tasks=2/2 failed=0"
}
@test "connectors with --connector judges only the named connectors" {
  start_fake connectors-failed
  run -0 probe connectors --url "$URL" -c mirror-heartbeat
  assert_output "mirror-heartbeat RUNNING tasks=1/1 failed=0"
}
@test "connectors --format json prints valid JSON with the verdict" {
  start_fake connectors-ok
  run -0 --separate-stderr probe connectors --url "$URL" --format json
  assert_equal "$stderr" ""
  printf '%s\n' "$output" | timeout 10 python3 -m json.tool >/dev/null
  run -0 timeout 10 python3 -c 'import json, sys
d = json.loads(sys.argv[1])
print(d["healthy"], len(d["connectors"]), d["connectors"][2]["name"], d["connectors"][2]["tasks"])' "$output"
  assert_output "True 3 mirror-source {'total': 2, 'running': 2, 'failed': 0}"
}
@test "connectors --format json on a FAILED task says unhealthy and lists the task" {
  start_fake connectors-failed
  run -1 --separate-stderr probe connectors --url "$URL" --format json -c mirror-source -c gone
  run -0 timeout 10 python3 -c 'import json, sys
d = json.loads(sys.argv[1])
print(d["healthy"], d["connectors"][0]["failed_tasks"], d["missing"])' "$output"
  assert_output "False [1] ['gone']"
}
@test "connectors with a mistyped task id exits 5 naming the JSON path" {
  start_fake connectors-malformed
  run -5 probe connectors --url "$URL"
  assert_output "$E GET /connectors?expand=status: \"mirror-source\".status.tasks[0].id is not an integer from 0 to 2147483647"
}
@test "connectors answered with an array exits 5" {
  start_fake connectors-not-object
  run -5 probe connectors --url "$URL"
  assert_output "$E GET /connectors?expand=status: the body is not a JSON object of connector name to status"
}
@test "connectors against a garbage body exits 5" {
  start_fake garbage
  run -5 probe connectors --url "$URL"
  assert_output "$E GET /connectors?expand=status: the body is not JSON"
}
@test "connectors against HTTP 500 exits 1 with Connect's message" {
  start_fake error500
  run -1 probe connectors --url "$URL"
  assert_output "$E GET /connectors?expand=status: HTTP 500: Request timed out"
}
@test "connectors against a server that never answers exits 4 within 100 ms of --timeout" {
  start_fake hang
  timed -4 probe connectors --url "$URL" --timeout 0.5
  assert_near "$MS" 500
}
