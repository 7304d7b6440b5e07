#!/usr/bin/env bats
# Kafka's known paths from a connector config to code or files, closed in the image
# (docker/mm2/README.md, "Escape hatches closed"): an operator with the REST credentials creates
# connectors whose own clients (source.cluster.*, which connector.client.config.override.policy
# does not cover) name the JNDI login module or a file config provider, or that override the
# workers' clients. Each is refused (HTTP 400) or its connector FAILs with Kafka's refusal, no
# task runs, and the JNDI payload's LDAP address (a listener on the bed's gateway) is never
# contacted. make compat runs this file on every Kafka version (bats test_tags=compat).
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

LISTEN_PORT=38390

setup_file() {
  "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" esc.t:1 >/dev/null
  # What a JNDI lookup would reach: every connection accepted is logged.
  export ESC_LOG=$BED_DIR/escape-listener.log
  : >"$ESC_LOG"
  python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(8)
while True:
    c, a = s.accept()
    with open(sys.argv[3], "a") as f:
        f.write(f"connection from {a[0]}\n")
    c.close()
' "$BED_GW" "$LISTEN_PORT" "$ESC_LOG" >/dev/null 2>&1 3>&- &
  echo $! >"$BED_DIR/escape-listener.pid"
}

teardown_file() {
  kill "$(cat "$BED_DIR/escape-listener.pid")" 2>/dev/null || true
  local n
  for n in esc-jndi esc-file esc-override; do rest DELETE 1 "/connectors/$n" >/dev/null || true; done
}

# refused NAME JSON WANT: POST /connectors answers 400, or 201 and then the connector FAILs within
# 90 s with WANT (unless empty) in its trace; no task of it ever RUNS.
refused() {
  local name=$1 json=$2 want=$3 code st
  run -0 rest POST 1 /connectors "$json"
  code=${lines[0]}
  if [ "$code" = 400 ]; then
    assert_output --partial "$want"
    return 0
  fi
  [ "$code" = 201 ] || fail "POST /connectors answered $code: $output"
  for _ in $(seq 90); do
    st=$(rest GET 1 "/connectors/$name/status" | tail -n +2)
    [ "$(jq -r '.connector.state' <<<"$st")" = FAILED ] && break
    sleep 1
  done
  [ "$(jq -r '.connector.state' <<<"$st")" = FAILED ] || fail "$name is not FAILED after 90 s: $st"
  [ "$(jq '[.tasks[] | select(.state == "RUNNING")] | length' <<<"$st")" = 0 ] || fail "a task of $name runs: $st"
  [ -z "$want" ] && return 0
  run jq -r '.connector.trace' <<<"$st"
  assert_output --partial "$want"
}

# bats test_tags=compat
@test "a connector whose source client names the JNDI login module FAILs with Kafka's refusal, and nothing looks its LDAP URL up" {
  url="ldap://$BED_GW:$LISTEN_PORT/o=mm2kit"
  json=$(mirror_connector_json esc-jndi 'esc[.]t' | jq -c --arg j "com.sun.security.auth.module.JndiLoginModule required user.provider.url=\"$url\" group.provider.url=\"$url\" useFirstPass=false serviceName=\"x\";" \
    '.config["source.cluster.sasl.jaas.config"] = $j')
  refused esc-jndi "$json" "com.sun.security.auth.module.JndiLoginModule is not allowed"
  sleep 2
  run -0 cat "$ESC_LOG"
  assert_output ""
}

# bats test_tags=compat
@test "a connector whose source client names a file config provider reads no file: its clients never get the provider" {
  # MirrorSourceConnector hands its clients only the keys of MirrorClientConfig.CLIENT_CONFIG_DEF
  # (bootstrap, security protocol, SSL, SASL), so source.cluster.config.providers never reaches
  # a client; and from 3.7.1 the JVM property would refuse FileConfigProvider anyway. The file
  # names the listener: had it been read, the connector's clients would connect there.
  local i
  for i in 1 2 3; do
    podman exec "$(bed_worker_name "$i")" sh -c "printf 'addr=%s:%s\n' '$BED_GW' '$LISTEN_PORT' >/tmp/esc-addr.properties"
  done
  json=$(mirror_connector_json esc-file 'esc[.]t' | jq -c '.config += {
    "source.cluster.config.providers": "file",
    "source.cluster.config.providers.file.class": "org.apache.kafka.common.config.provider.FileConfigProvider",
    "source.cluster.bootstrap.servers": "${file:/tmp/esc-addr.properties:addr}"}')
  refused esc-file "$json" ""
  sleep 2
  run -0 cat "$ESC_LOG"
  assert_output ""
}

# bats test_tags=compat
@test "a connector that overrides the workers' producer is refused by the override policy, and not created" {
  json=$(mirror_connector_json esc-override 'esc[.]t' | jq -c '.config["producer.override.bootstrap.servers"] = "198.18.0.1:9092"')
  run -0 rest POST 1 /connectors "$json"
  assert_line --index 0 400
  assert_output --partial "The 'None' policy does not allow 'bootstrap.servers' to be overridden"
  run -0 rest GET 1 /connectors/esc-override/status
  assert_line --index 0 404
}
