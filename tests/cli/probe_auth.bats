#!/usr/bin/env bats
# mm2-probe --user with --password-file or --password-env against a fake worker
# that wants HTTP Basic as Kafka's basic-auth REST extension does
# (FAKE_CONNECT_BASIC, tests/fakes/fake_connect.py): the right pair passes every
# check; none, or a wrong one, is the 401 it is, with what the worker wants
# said; the password is never printed and never taken from argv.
# bats' run --separate-stderr sets stderr:
# shellcheck disable=SC2154
load probe_helpers

PW='SENTINEL-3e8d-probe-rest-password'

# auth_fake MODE: fake_connect in MODE wanting mm2-probe:$PW; the password in a file, as a
# Secret mount gives it (with the newline echo leaves).
auth_fake() {
  FAKE_CONNECT_BASIC="mm2-probe:$PW" start_fake "$1"
  echo "$PW" >"$WORK/password"
}

@test "--user with --password-file passes live, ready and connectors; nothing is printed" {
  auth_fake healthy
  run -0 probe live --url "$URL" --user mm2-probe --password-file "$WORK/password"
  assert_output ""
  run -0 probe ready --url "$URL" --user mm2-probe --password-file "$WORK/password"
  assert_output ""
  run -1 grep '401 for' "$WORK/fake.log"
}
@test "--user with --password-env passes; --verbose shows the requests, never the password" {
  auth_fake connectors-ok
  with_env "MM2_REST_PASSWORD=$PW"
  run -0 --separate-stderr probe connectors --url "$URL" --user mm2-probe --password-env MM2_REST_PASSWORD -v
  assert_output --partial "mirror-source RUNNING"
  [[ "$stderr$output" != *"$PW"* ]] || fail "the password was printed"
  [[ "$stderr" == *"GET /connectors?expand=status 200"* ]] || fail "no request line: $stderr"
}
@test "without credentials a worker that wants them is a 401: live exits 1 and says what it wants" {
  auth_fake healthy
  run -1 probe live --url "$URL"
  assert_output "mm2-probe: error: GET /: HTTP 401: the worker wants REST credentials, or refused them (Kafka's basic-auth extension): give this client the REST user and password"
  run -0 grep -c '401 for GET / (Authorization absent)' "$WORK/fake.log"
}
@test "a wrong password is a 401 too (ready: a status it does not know, 5), and is printed nowhere" {
  auth_fake healthy
  echo "not-$PW" >"$WORK/password"
  run -5 probe ready --url "$URL" --user mm2-probe --password-file "$WORK/password" -v
  refute_output --partial "$PW"
  assert_output --partial "HTTP 401"
  run -0 grep -c '(Authorization wrong)' "$WORK/fake.log"
}
@test "an unreadable or empty password file, an unset or empty variable exit 3 naming the option" {
  run -3 probe live --url http://127.0.0.1:1 --user u --password-file "$WORK/none"
  assert_output --partial "$WORK/none"
  : >"$WORK/empty"
  run -3 probe live --url http://127.0.0.1:1 --user u --password-file "$WORK/empty"
  assert_output "mm2-probe: error: --password-file $WORK/empty: the REST password must be 1 to 1023 bytes on one line, without control characters"
  run -3 probe live --url http://127.0.0.1:1 --user u --password-env NOPE
  assert_output "mm2-probe: error: --password-env NOPE: the variable is not set; set it from the REST auth Secret"
  with_env NOPE=
  run -3 probe live --url http://127.0.0.1:1 --user u --password-env NOPE
  assert_output "mm2-probe: error: --password-env NOPE: the variable is empty; set it from the REST auth Secret"
}
@test "a password file of two lines is refused, and not quoted" {
  printf '%s\nsecond\n' "$PW" >"$WORK/two"
  run -3 probe live --url http://127.0.0.1:1 --user u --password-file "$WORK/two"
  refute_output --partial "$PW"
}
@test "--user without a password source, a source without --user, or both sources exit 2" {
  run -2 probe live --user u
  assert_line --index 0 "mm2-probe: error: --user goes with --password-file or --password-env"
  run -2 probe live --password-file "$WORK/x"
  assert_line --index 0 "mm2-probe: error: --user goes with --password-file or --password-env"
  run -2 probe live --user u --password-file "$WORK/x" --password-env X
  assert_line --index 0 "mm2-probe: error: --password-file and --password-env exclude each other"
  run -2 probe live --user a:b --password-env X
  assert_line --index 0 "mm2-probe: error: --user must be 1 to 255 bytes without ':' or control characters"
}
