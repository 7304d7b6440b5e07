#!/usr/bin/env bats
# mm2-probe --cacert against a real TLS server (openssl s_server -www answers
# GET / with 200), its certificate signed by a CA made here: trusted with
# --cacert, refused without it or with another CA, and refused by name when
# the URL's host is not the one the certificate carries.  The probe against
# Connect's own HTTPS listener is in tests/tls (make tls-e2e).
load probe_helpers

setup() {
  WORK=$(mktemp -d)
  ENV=(PATH=/usr/bin:/bin)
  local w=$WORK
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$w/ca.key" \
    -subj /CN=probe-ca -days 1 -out "$w/ca.crt" 2>/dev/null
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$w/other.key" \
    -subj /CN=other-ca -days 1 -out "$w/other.crt" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$w/srv.key" \
    -subj /CN=localhost -out "$w/srv.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost\n' >"$w/srv.ext"
  openssl x509 -req -in "$w/srv.csr" -CA "$w/ca.crt" -CAkey "$w/ca.key" -CAcreateserial \
    -days 1 -extfile "$w/srv.ext" -out "$w/srv.crt" 2>/dev/null
  PORT=$(closed_port)
  timeout 60 openssl s_server -quiet -www -accept "127.0.0.1:$PORT" -cert "$w/srv.crt" -key "$w/srv.key" \
    >"$w/server.log" 2>&1 3>&- </dev/null &
  SERVER_PID=$!
  local _
  for _ in $(seq 100); do
    (exec 9<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
    sleep 0.05
  done
}

teardown() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}

@test "live over https with --cacert of the server's CA exits 0" {
  run -0 probe live --url "https://localhost:$PORT" --cacert "$WORK/ca.crt"
  assert_output ""
}

@test "without --cacert the system's CAs do not trust it: exit 4, the reason named" {
  run -4 probe live --url "https://localhost:$PORT"
  assert_output --partial "certificate"
}

@test "--cacert of another CA is refused: exit 4" {
  run -4 probe live --url "https://localhost:$PORT" --cacert "$WORK/other.crt"
  assert_output --partial "certificate"
}

@test "a host the certificate does not name is refused even with the right CA" {
  run -4 probe live --url "https://127.0.0.1:$PORT" --cacert "$WORK/ca.crt"
  assert_output --partial "127.0.0.1"
}

@test "an unreadable --cacert exits 3 and names the file" {
  run -3 probe live --url "https://localhost:$PORT" --cacert "$WORK/none.crt"
  assert_output "$E cannot read the CA file $WORK/none.crt: No such file or directory"
}

@test "an empty --cacert exits 2" {
  run -2 probe live --url "https://localhost:$PORT" --cacert ""
  assert_line --index 0 "$E --cacert needs a PEM file of CA certificates, got \"\""
}
