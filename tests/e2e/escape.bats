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
# 90 s with WANT in its trace; no task of it ever RUNS.
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
@test "a connector whose source client reads a file through a config provider FAILs with Kafka's refusal (3.7.1 and later)" {
  v=${BED_KAFKA_VERSION:-4.3.1}
  if [ "$(printf '%s\n' 3.7.1 "$v" | sort -V | head -n 1)" != 3.7.1 ]; then
    skip "Kafka $v has no org.apache.kafka.automatic.config.providers (docker/mm2/README.md: the risk left)"
  fi
  json=$(mirror_connector_json esc-file 'esc[.]t' | jq -c '.config += {
    "source.cluster.config.providers": "file",
    "source.cluster.config.providers.file.class": "org.apache.kafka.common.config.provider.FileConfigProvider",
    "source.cluster.client.id": "${file:/etc/mm2/rest-auth/credentials.properties:mm2-operator}"}')
  refused esc-file "$json" "org.apache.kafka.common.config.provider.FileConfigProvider is not allowed"
}

# bats test_tags=compat
@test "a connector that overrides the workers' producer is refused by the override policy, and not created" {
  json=$(mirror_connector_json esc-override 'esc[.]t' | jq -c '.config["producer.override.bootstrap.servers"] = "198.18.0.1:9092"')
  run -0 rest POST 1 /connectors "$json"
  assert_line --index 0 400
  assert_output --partial "producer.override.bootstrap.servers"
  run -0 rest GET 1 /connectors/esc-override/status
  assert_line --index 0 404
}
