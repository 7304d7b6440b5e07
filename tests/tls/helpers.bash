# shellcheck shell=bash
# Variables here are used by the .bats files that load this one.
# shellcheck disable=SC2034
# The TLS bed's tests: the e2e helpers (names, connector JSON, waits) and the
# TLS bed's own: Kafka clients per security protocol, REST over HTTPS.
load ../e2e/helpers
load ../e2e/offsets_helpers
TLS=$BED_DIR/tls
SRC_SASL_SSL=$BED_SRC_IP:$BED_SASL_SSL_PORT
TGT_SASL_SSL=$BED_TGT_IP:$BED_SASL_SSL_PORT
SRC_SSL=$BED_SRC_IP:$BED_SSL_PORT
TGT_SSL=$BED_TGT_IP:$BED_SSL_PORT
# What replicate copies: TLS_RECORDS records over 3 partitions.
TLS_COUNT=${TLS_RECORDS:-1000}
TLS_PARTITIONS=3

# kit_scram ARGS...: bedkit over SASL_SSL with SCRAM-SHA-512, the bed's CA.
kit_scram() {
  BEDKIT_SECURITY_PROTOCOL=SASL_SSL BEDKIT_SASL_MECHANISM=SCRAM-SHA-512 BEDKIT_SSL_CA=$TLS/ca.crt \
    "$BED" kit "$@"
}
# kit_mtls ARGS...: bedkit over SSL with the admin's client certificate (the bed's set-up).
kit_mtls() {
  BEDKIT_SECURITY_PROTOCOL=SSL BEDKIT_SSL_CA=$TLS/ca.crt BEDKIT_SSL_CERT=$TLS/admin.crt \
    BEDKIT_SSL_KEY=$TLS/admin.key BEDKIT_SSL_KEY_PASSWORD=$BED_TLS_KEY_PASSWORD "$BED" kit "$@"
}

# tls_connector_json NAME TOPICS PROFILE [STATE]: the bed's MirrorSourceConnector over
# PROFILE (sasl_ssl | ssl), its TLS keys as docker/mm2/connectors/ has them.
tls_connector_json() {
  local name=$1 topics=$2 profile=$3 state=${4:-}
  mirror_connector_json "$name" "$topics" "$state" | jq -c --arg p "$profile" \
    --arg src "$BED_SRC_IP:$([ "$profile" = ssl ] && echo "$BED_SSL_PORT" || echo "$BED_SASL_SSL_PORT")" \
    --arg tgt "$BED_TGT_IP:$([ "$profile" = ssl ] && echo "$BED_SSL_PORT" || echo "$BED_SASL_SSL_PORT")" \
    --slurpfile ex "$E2E_ROOT/docker/mm2/connectors/$([ "$profile" = ssl ] && echo mtls || echo sasl-ssl).json" '
    .config |= (with_entries(select(.key | test("^(source|target)\\.cluster\\.(security|sasl)") | not))
      + ($ex[0].config | with_entries(select(.key | test("^(source|target)\\.cluster\\.(security|sasl|ssl)")))))
    | .config["source.cluster.bootstrap.servers"] = $src
    | .config["target.cluster.bootstrap.servers"] = $tgt'
}

# rest_tls METHOD WORKER_INDEX PATH [JSON_BODY]: as rest, to the bed's
# REST URL (HTTPS with BED_REST_HTTPS=1: the bed's CA, the certificate's name).
rest_tls() {
  local method=$1 i=$2 path=$3 body=${4:-} out code cargs=()
  out=$(mktemp)
  mapfile -t cargs < <(BED_REST_HTTPS=${BED_REST_HTTPS:-0} "$BED" rest-curl-args "$i")
  local args=(-s -m 100 -X "$method" -o "$out" -w '%{http_code}' -H 'Content-Type: application/json' "${cargs[@]}")
  [ -n "$body" ] && args+=(--data "$body")
  code=$(curl "${args[@]}" "$(BED_REST_HTTPS=${BED_REST_HTTPS:-0} "$BED" rest-url "$i" "$path")")
  printf '%s\n' "$code"
  cat "$out"
  rm -f "$out"
}

# ok CMD...: `run CMD...`; a non-zero exit fails the test with the exit code and
# everything CMD said (bats' `run -0` shows neither).
ok() {
  run --separate-stderr "$@"
  # shellcheck disable=SC2154 # set by bats' run
  [ "$status" -eq 0 ] || fail "$* exited $status: $stderr $output"
}

# workers_down I...: stop and remove workers, their logs kept.
workers_down() {
  local i
  for i in "$@"; do
    podman logs "$(bed_worker_name "$i")" >"$BED_DIR/$(bed_worker_name "$i").log" 2>&1 || true
    timeout 60 podman rm -f -t 10 "$(bed_worker_name "$i")" >/dev/null 2>&1 || true
  done
}

# replicate PROFILE TOPIC KIT [created]: worker 1 (running, of PROFILE) copies TOPIC, compared over
# KIT's protocol. With "created" the TARGET lacks TOPIC (its rows of docs/acls.md granted all the
# same, as create-topics on the SOURCE grants both clusters' rows): the connector's target admin
# creates it, with the Create only the target's principal holds.
replicate() {
  local profile=$1 topic=$2 kit=$3 created=${4:-} src tgt json
  if [ "$profile" = ssl ]; then src=$SRC_SSL tgt=$TGT_SSL; else src=$SRC_SASL_SSL tgt=$TGT_SASL_SSL; fi
  run -0 "$BED" kit create-topics --bootstrap "$BED_SRC_BOOTSTRAP" "$topic:$TLS_PARTITIONS"
  if [ -z "$created" ]; then
    run -0 "$BED" kit create-topics --bootstrap "$BED_TGT_BOOTSTRAP" "$topic:$TLS_PARTITIONS"
  fi
  run -0 "$kit" produce --bootstrap "$src" --topic "$topic" --count "$TLS_COUNT" --partitions "$TLS_PARTITIONS"
  assert_output "$TLS_COUNT"
  json=$(tls_connector_json "tls-$profile" "${topic//./\\\\.}" "$profile")
  # One broker: the created topic's replication factor (MirrorSourceConnector's default is 2).
  [ -z "$created" ] || json=$(jq -c '.config["replication.factor"] = "1"' <<<"$json")
  ok rest_tls POST 1 /connectors "$json"
  assert_line --index 0 201
  if [ -n "$created" ]; then
    run -0 wait_for 120 "$BED" kit ends --bootstrap "$BED_TGT_BOOTSTRAP" --topic "$topic"
  fi
  ok "$kit" compare --source "$src" --target "$tgt" --topic "$topic" --timeout 180
  assert_output "{\"source_records\": $TLS_COUNT, \"target_records\": $TLS_COUNT, \"partitions\": $TLS_PARTITIONS, \"mismatched_partitions\": 0}"
  ok rest_tls DELETE 1 "/connectors/tls-$profile"
  assert_line --index 0 204
}

# worker_on PROFILE: worker 1 runs PROFILE (sasl_ssl | ssl, REST over HTTP) and answers: the one
# an earlier test of the same profile started, or a new one. Starting a JVM is the slow part of a
# test; the mTLS replication test and the mTLS cutover share one.
worker_on() {
  local profile=$1 want=connect-mm2-sasl-ssl.properties
  [ "$profile" = ssl ] && want=connect-mm2-mtls.properties
  if podman inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$(bed_worker_name 1)" 2>/dev/null |
    grep -qxF "MM2_WORKER_CONFIG=/etc/mm2/$want" && [ "$(rest_tls GET 1 / | head -n 1)" = 200 ]; then
    return 0
  fi
  BED_SECURITY=$profile ok "$BED" worker-start 1
  BED_SECURITY=$profile ok "$BED" worker-wait 1 240
}

# --- mm2-offsets over TLS -----------------------------------------------------------------
# oj_tls_files DIR NAME TOPICS_REGEX PROFILE [SRC_BOOTSTRAP]: connector.json and
# migration.ini for PROFILE (sasl_ssl: SCRAM-SHA-512 with the CA; ssl: a
# client certificate), librdkafka's ssl.* keys, every secret an ${env:...}.
# OJ_MECH (sasl_ssl's mechanism), OJ_CERT and OJ_KEY (ssl's pair, paths under /tls) change
# what it asks for; BED_REST_HTTPS=1: Connect at https://$BED_REST_HOST:8088 with
# [connect] ca.location, as the Job in k8s/overlays/tls reaches it.
oj_tls_files() {
  local d=$1 name=$2 topics=$3 profile=$4 src=${5:-}
  local port=$BED_SASL_SSL_PORT side sec
  [ "$profile" = ssl ] && port=$BED_SSL_PORT
  [ -n "$src" ] || src=$BED_SRC_IP:$port
  tls_connector_json "$name" "$topics" "$profile" >"$d/connector.json"
  {
    echo "; the TLS bed's migration over $profile (tests/tls/helpers.bash)"
    for side in source target; do
      local bs=$src
      [ "$side" = target ] && bs=$BED_TGT_IP:$port
      sec=${side^^}
      printf '[%s]\nbootstrap.servers = %s\n' "$side" "$bs"
      if [ "$profile" = ssl ]; then
        printf '%s\n' "security.protocol = SSL" "ssl.ca.location = \${env:MM2_TLS_CA}" \
          "ssl.certificate.location = ${OJ_CERT:-/tls/client-$side.crt}" "ssl.key.location = ${OJ_KEY:-/tls/client-$side.key}" \
          "ssl.key.password = \${env:MM2_${sec}_SSL_KEY_PASSWORD}"
      else
        printf '%s\n' "security.protocol = SASL_SSL" "sasl.mechanisms = ${OJ_MECH:-SCRAM-SHA-512}" \
          "sasl.username = \${env:MM2_${sec}_SASL_USERNAME}" "sasl.password = \${env:MM2_${sec}_SASL_PASSWORD}" \
          "ssl.ca.location = \${env:MM2_TLS_CA}"
      fi
      echo
    done
    if [ "${BED_REST_HTTPS:-0}" = 1 ]; then
      printf '[connect]\nurl = https://%s:8088\nca.location = /tls/ca.crt\n' "$BED_REST_HOST"
    else
      printf '[connect]\nurl = http://%s:8088\n' "$(bed_worker_ip 1)"
    fi
    # shellcheck disable=SC2016 # mm2-offsets expands it, not the shell
    printf 'username = %s\npassword = %s\n' "$BED_REST_USER" '${env:MM2_REST_PASSWORD}'
    printf 'request.timeout.seconds = 100\nretry.budget.seconds = 60\n\n'
    printf '[flink]\ngroup.id = %s-flink\ncheckpoint.interval.seconds = 1\n\n[connector]\nfile = connector.json\n' "$name"
  } >"$d/migration.ini"
  chmod 0644 "$d/connector.json" "$d/migration.ini"
}

# oj_tls DIR ARGS...: mm2-offsets in a container of the image as the Job runs
# it, the bed's TLS files at /tls (read-only), the secrets in its environment.
# OJ_CA (default /tls/ca.crt), OJ_PASSWORD change what it is given.
oj_tls() {
  local d=$1; shift
  timeout 300 podman run --rm --network "$BED_NET" --user 10001:10001 --read-only \
    --tmpfs /tmp:rw,size=64m,mode=1777 --cap-drop ALL --security-opt no-new-privileges \
    --memory 256m -v "$d:/work:rw" -v "$TLS:/tls:ro" -w /work --add-host "$BED_REST_HOST:$(bed_worker_ip 1)" \
    -e "MM2_TLS_CA=${OJ_CA:-/tls/ca.crt}" \
    -e "MM2_SOURCE_SASL_USERNAME=$BED_SOURCE_USER" -e "MM2_SOURCE_SASL_PASSWORD=${OJ_PASSWORD:-$BED_SOURCE_PASSWORD}" \
    -e "MM2_TARGET_SASL_USERNAME=$BED_TARGET_USER" -e "MM2_TARGET_SASL_PASSWORD=${OJ_PASSWORD:-$BED_TARGET_PASSWORD}" \
    -e "MM2_SOURCE_SSL_KEY_PASSWORD=$BED_TLS_KEY_PASSWORD" -e "MM2_TARGET_SSL_KEY_PASSWORD=$BED_TLS_KEY_PASSWORD" \
    -e "MM2_REST_PASSWORD=$BED_REST_PASSWORD" \
    --entrypoint mm2-offsets "$IMAGE" "$@" 3>&-
}

# export_fails PROFILE EXITS [SRC_BOOTSTRAP]: export over PROFILE exits with one of EXITS (3|4), one
# line, within OJ_MAX_S seconds (120), no secret in it (a worker of an earlier test answers for
# Connect).
# shellcheck disable=SC2154 # status, stderr and stderr_lines are set by bats' run
export_fails() {
  local d t0=$SECONDS
  d=$(oj_dir "otls-neg")
  oj_tls_files "$d" otls-neg 'otls-neg\\.x' "$1" "${3:-}"
  run --separate-stderr oj_tls "$d" export --config migration.ini --out export.json --stable-wait 2 -q
  [[ "$status" =~ ^($2)$ ]] || fail "export exited $status, not $2: $stderr"
  assert_equal "${#stderr_lines[@]}" 1
  [ $((SECONDS - t0)) -lt "${OJ_MAX_S:-120}" ] || fail "export took $((SECONDS - t0)) s"
  [[ "$stderr" != *"$BED_SOURCE_PASSWORD"* && "$stderr" != *"$BED_TARGET_PASSWORD"* && "$stderr" != *"$BED_TLS_KEY_PASSWORD"* ]] ||
    fail "a secret in: $stderr"
}

# image_offsets ARGS...: the image's own mm2-offsets, in a throwaway container.
image_offsets() { timeout 60 podman run --rm --network none --entrypoint mm2-offsets "$IMAGE" "$@" 3>&-; }

# connect_up: worker 1 answers for Connect (one of an earlier test, or a new one of the
# SASL_SSL profile, with REST over HTTPS when BED_REST_HTTPS=1).
connect_up() {
  local code
  code=$(rest_tls GET 1 / | head -n 1)
  [ "$code" = 200 ] && return 0
  BED_SECURITY=sasl_ssl ok "$BED" worker-start 1
  BED_SECURITY=sasl_ssl ok "$BED" worker-wait 1 240
}
