# shellcheck shell=bash
# Variables here are used by the .bats files that load this one.
# shellcheck disable=SC2034
# CLI tests run the built binaries from a scrubbed environment (env -i) with a
# fake Kafka distribution whose bin/connect-distributed.sh reports what it got.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

BUILD=${MM2_BUILD:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build}
EP=$BUILD/mm2-entrypoint
SENTINEL='SENTINEL-5b1f-cli-do-not-print'
GOOD_JAAS="org.apache.kafka.common.security.plain.PlainLoginModule required username=\"connect\" password=\"$SENTINEL\";"

# A fake KAFKA_HOME readable by uid 10001 (the entrypoint drops to it before
# exec), and a report directory the launcher can write as 10001.
make_fake_home() {
  FAKE=$(mktemp -d /tmp/mm2-cli.XXXXXX)
  chmod 0755 "$FAKE"
  mkdir -p "$FAKE/kafka/libs" "$FAKE/kafka/bin" "$FAKE/etc" "$FAKE/out"
  chmod 0777 "$FAKE/out"
  : >"$FAKE/kafka/libs/kafka-clients-4.3.1.jar"
  : >"$FAKE/kafka/libs/kafka-clients-4.3.1-test.jar"
  cp "$BUILD/tests/fake_launcher" "$FAKE/kafka/bin/connect-distributed.sh"
  chmod 0755 "$FAKE/kafka/bin/connect-distributed.sh"
  # The image's own worker config: the entrypoint requires what it references.
  cp "$BATS_TEST_DIRNAME/../../docker/mm2/connect-mm2.properties" "$FAKE/etc/connect-mm2.properties"
  echo "Configuration: {}" >"$FAKE/etc/connect-log4j2.yaml"
  echo "log4j.rootLogger=INFO" >"$FAKE/etc/connect-log4j.properties"
  : >"$FAKE/etc/jmx.jar"
  echo "rules: []" >"$FAKE/etc/jmx.yaml"
  # It names Kafka's basic-auth REST extension: the JAAS file and credentials a Secret would
  # mount (tests/cli/entrypoint_restauth.bats changes them).
  mkdir -p "$FAKE/rest-auth"
  printf 'mm2-probe=%s\nmm2-offsets=%s-2\n' "$CLI_REST_PASSWORD" "$CLI_REST_PASSWORD" >"$FAKE/rest-auth/credentials.properties"
  printf 'KafkaConnect {\n  %s required file="%s";\n};\n' \
    org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule \
    "$FAKE/rest-auth/credentials.properties" >"$FAKE/rest-auth/jaas.conf"
  chmod -R a+rX "$FAKE/kafka" "$FAKE/etc" "$FAKE/rest-auth"
}
# The -D options mm2-entrypoint puts first into KAFKA_OPTS for the fake home's Kafka 4.3.1
# (entrypoint/harden.h; tests/cli/entrypoint.bats checks them per version).
HARDEN_431="-Dorg.apache.kafka.disallowed.login.modules=com.sun.security.auth.module.JndiLoginModule,com.sun.security.auth.module.LdapLoginModule"
HARDEN_431+=" -Dorg.apache.kafka.allowed.login.modules=org.apache.kafka.common.security.plain.PlainLoginModule,org.apache.kafka.common.security.scram.ScramLoginModule"
HARDEN_431+=" -Dorg.apache.kafka.automatic.config.providers=org.apache.kafka.common.config.provider.EnvVarConfigProvider"
HARDEN_431+=" -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls= -Dorg.apache.kafka.sasl.oauthbearer.allowed.files="
# The REST password of the fake home's credentials file: a sentinel no output may hold.
CLI_REST_PASSWORD='SENTINEL-7c2a-cli-rest-password'

# run_ep [-N] [NAME=value | -u NAME]... [-- ARGS...]: runs mm2-entrypoint with
# a good environment, changed as given: NAME=value sets, -u NAME unsets.
ep_env() {
  ENV=(
    "PATH=/usr/bin:/bin"
    "CONNECT_BOOTSTRAP_SERVERS=kafka-0.kafka:9092,kafka-1.kafka:9092"
    "CONNECT_GROUP_ID=mm2-connect"
    "CONNECT_CONFIG_STORAGE_TOPIC=mm2-configs"
    "CONNECT_OFFSET_STORAGE_TOPIC=mm2-offsets"
    "CONNECT_STATUS_STORAGE_TOPIC=mm2-status"
    "CONNECT_SASL_JAAS_CONFIG=$GOOD_JAAS"
    "POD_IP=127.0.0.1"
    "KAFKA_HOME=$FAKE/kafka"
    "MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2.properties"
    "MM2_LOG_CONFIG=$FAKE/etc/connect-log4j2.yaml"
    "JMX_EXPORTER_AGENT=$FAKE/etc/jmx.jar"
    "JMX_EXPORTER_CONFIG=$FAKE/etc/jmx.yaml"
    "MM2_TEST_OUT=$FAKE/out"
    "MM2_REST_JAAS_CONFIG=$FAKE/rest-auth/jaas.conf"
  )
}

# with NAME=value | -u NAME ...: edits ENV; stops at --.
with() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --) shift; break ;;
      -u)
        local keep=() e
        for e in "${ENV[@]}"; do [ "${e%%=*}" = "$2" ] || keep+=("$e"); done
        ENV=("${keep[@]}"); shift 2 ;;
      *=*)
        local keep=() e
        for e in "${ENV[@]}"; do [ "${e%%=*}" = "${1%%=*}" ] || keep+=("$e"); done
        ENV=("${keep[@]}" "$1"); shift ;;
      *) break ;;
    esac
  done
  ARGS=("$@")
}

ep() { env -i "${ENV[@]}" timeout 20 "$EP" "${ARGS[@]}"; }

setup() {
  make_fake_home
  ep_env
  ARGS=()
}

teardown() {
  # The sentinel never reaches a file the run could have written.
  if grep -rqs "$SENTINEL" "$FAKE/out" "$FAKE/etc"; then
    echo "sentinel secret found in a file under $FAKE" >&2
    return 1
  fi
  rm -rf "$FAKE"
}
