#!/usr/bin/env bats
# mm2-entrypoint from the command line: every bad environment exits 3 with
# one exact line; a good one execs the launcher in place, unprivileged.
load helpers

E="mm2-entrypoint: error:"

# --- each required variable missing or empty ---------------------------------------------
@test "missing CONNECT_BOOTSTRAP_SERVERS exits 3 and names the variable" {
  with -u CONNECT_BOOTSTRAP_SERVERS
  run -3 ep
  assert_output "$E CONNECT_BOOTSTRAP_SERVERS is not set; set it to the TARGET cluster's host:port[,host:port...]"
}
@test "empty CONNECT_BOOTSTRAP_SERVERS exits 3 and says it is empty" {
  with CONNECT_BOOTSTRAP_SERVERS=
  run -3 ep
  assert_output "$E CONNECT_BOOTSTRAP_SERVERS is empty; set it to the TARGET cluster's host:port[,host:port...]"
}
@test "missing CONNECT_GROUP_ID exits 3" {
  with -u CONNECT_GROUP_ID
  run -3 ep
  assert_output "$E CONNECT_GROUP_ID is not set; set it to the Connect cluster's stable group id"
}
@test "empty CONNECT_GROUP_ID exits 3" {
  with CONNECT_GROUP_ID=
  run -3 ep
  assert_output "$E CONNECT_GROUP_ID is empty; set it to the Connect cluster's stable group id"
}
@test "missing CONNECT_CONFIG_STORAGE_TOPIC exits 3" {
  with -u CONNECT_CONFIG_STORAGE_TOPIC
  run -3 ep
  assert_output "$E CONNECT_CONFIG_STORAGE_TOPIC is not set; set it to a Kafka topic name"
}
@test "missing CONNECT_OFFSET_STORAGE_TOPIC exits 3" {
  with -u CONNECT_OFFSET_STORAGE_TOPIC
  run -3 ep
  assert_output "$E CONNECT_OFFSET_STORAGE_TOPIC is not set; set it to a Kafka topic name"
}
@test "empty CONNECT_STATUS_STORAGE_TOPIC exits 3" {
  with CONNECT_STATUS_STORAGE_TOPIC=
  run -3 ep
  assert_output "$E CONNECT_STATUS_STORAGE_TOPIC is empty; set it to a Kafka topic name"
}
@test "missing CONNECT_SASL_JAAS_CONFIG exits 3" {
  with -u CONNECT_SASL_JAAS_CONFIG
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG is not set; set it to a JAAS entry such as org.apache.kafka.common.security.plain.PlainLoginModule required username=\"...\" password=\"...\";"
}
@test "empty CONNECT_SASL_JAAS_CONFIG exits 3" {
  with CONNECT_SASL_JAAS_CONFIG=
  run -3 ep
  assert_output --partial "$E CONNECT_SASL_JAAS_CONFIG is empty; set it to a JAAS entry"
}
@test "missing POD_IP exits 3 and points at the Downward API" {
  with -u POD_IP
  run -3 ep
  assert_output "$E POD_IP is not set; set it to this pod's IP address (Downward API fieldRef status.podIP)"
}
@test "empty POD_IP exits 3" {
  with POD_IP=
  run -3 ep
  assert_output "$E POD_IP is empty; set it to this pod's IP address (Downward API fieldRef status.podIP)"
}

# --- ports ------------------------------------------------------------------------------
@test "a non-numeric CONNECT_REST_PORT exits 3" {
  with CONNECT_REST_PORT=http
  run -3 ep
  assert_output "$E CONNECT_REST_PORT must be a port number from 1 to 65535, got \"http\""
}
@test "CONNECT_REST_PORT 0 is out of range" {
  with CONNECT_REST_PORT=0
  run -3 ep
  assert_output "$E CONNECT_REST_PORT must be a port number from 1 to 65535, got \"0\""
}
@test "CONNECT_REST_PORT 65536 is out of range" {
  with CONNECT_REST_PORT=65536
  run -3 ep
  assert_output "$E CONNECT_REST_PORT must be a port number from 1 to 65535, got \"65536\""
}
@test "CONNECT_REST_PORT with trailing text is refused" {
  with CONNECT_REST_PORT=8088x
  run -3 ep
  assert_output "$E CONNECT_REST_PORT must be a port number from 1 to 65535, got \"8088x\""
}
@test "a negative JMX_EXPORTER_PORT exits 3" {
  with JMX_EXPORTER_PORT=-1
  run -3 ep
  assert_output "$E JMX_EXPORTER_PORT must be a port number from 1 to 65535, got \"-1\""
}
@test "JMX_EXPORTER_PORT equal to the REST port exits 3" {
  with JMX_EXPORTER_PORT=8088
  run -3 ep
  assert_output "$E JMX_EXPORTER_PORT must differ from CONNECT_REST_PORT, both are 8088"
}

# --- bootstrap lists --------------------------------------------------------------------
@test "a bootstrap entry without a port exits 3 and names the entry" {
  with CONNECT_BOOTSTRAP_SERVERS=kafka-1
  run -3 ep
  assert_output --regexp "^$E CONNECT_BOOTSTRAP_SERVERS must be a comma-separated host:port list, got \"kafka-1\": .*kafka-1"
}
@test "an empty entry in the bootstrap list exits 3" {
  with CONNECT_BOOTSTRAP_SERVERS=a:9092,,b:9092
  run -3 ep
  assert_output --regexp "^$E CONNECT_BOOTSTRAP_SERVERS must be a comma-separated host:port list, got \"a:9092,,b:9092\": "
}
@test "a bootstrap port out of range exits 3" {
  with CONNECT_BOOTSTRAP_SERVERS=kafka:99999
  run -3 ep
  assert_output --regexp "^$E CONNECT_BOOTSTRAP_SERVERS must be a comma-separated host:port list, got \"kafka:99999\": "
}
@test "a URL instead of host:port exits 3" {
  with CONNECT_BOOTSTRAP_SERVERS=http://kafka:9092
  run -3 ep
  assert_output --regexp "^$E CONNECT_BOOTSTRAP_SERVERS must be a comma-separated host:port list, got \"http://kafka:9092\": "
}

# --- internal topics --------------------------------------------------------------------
@test "an internal topic name with a slash exits 3" {
  with CONNECT_OFFSET_STORAGE_TOPIC=mm2/offsets
  run -3 ep
  assert_output --regexp "^$E CONNECT_OFFSET_STORAGE_TOPIC must be a valid Kafka topic name, got \"mm2/offsets\": "
}
@test "an internal topic named '..' exits 3" {
  with CONNECT_CONFIG_STORAGE_TOPIC=..
  run -3 ep
  assert_output --regexp "^$E CONNECT_CONFIG_STORAGE_TOPIC must be a valid Kafka topic name, got \"\.\.\": "
}
@test "a 250-character internal topic name exits 3" {
  long=$(printf 't%.0s' $(seq 250))
  with CONNECT_STATUS_STORAGE_TOPIC="$long"
  run -3 ep
  assert_output --regexp "^$E CONNECT_STATUS_STORAGE_TOPIC must be a valid Kafka topic name, got \"t+\": "
}
@test "the same topic for offsets and status exits 3" {
  with CONNECT_STATUS_STORAGE_TOPIC=mm2-offsets
  run -3 ep
  assert_output "$E CONNECT_OFFSET_STORAGE_TOPIC and CONNECT_STATUS_STORAGE_TOPIC must name different topics, both are \"mm2-offsets\""
}
@test "the same topic for config and offsets exits 3" {
  with CONNECT_CONFIG_STORAGE_TOPIC=mm2-offsets
  run -3 ep
  assert_output "$E CONNECT_CONFIG_STORAGE_TOPIC and CONNECT_OFFSET_STORAGE_TOPIC must name different topics, both are \"mm2-offsets\""
}

# --- POD_IP -----------------------------------------------------------------------------
@test "a malformed POD_IP exits 3" {
  with POD_IP=10.0.0
  run -3 ep
  assert_output "$E POD_IP must be an IPv4 or IPv6 address of this host, got \"10.0.0\""
}
@test "a host name as POD_IP exits 3" {
  with POD_IP=localhost
  run -3 ep
  assert_output "$E POD_IP must be an IPv4 or IPv6 address of this host, got \"localhost\""
}
@test "the IPv4 wildcard as POD_IP exits 3" {
  with POD_IP=0.0.0.0
  run -3 ep
  assert_output "$E POD_IP must be this pod's own address, not the wildcard \"0.0.0.0\": other workers forward requests to it"
}
@test "the IPv6 wildcard as POD_IP exits 3" {
  with POD_IP=::
  run -3 ep
  assert_output "$E POD_IP must be this pod's own address, not the wildcard \"::\": other workers forward requests to it"
}
@test "a POD_IP no interface of this host has exits 3" {
  # TEST-NET-3: documentation only, never assigned to a host.
  with POD_IP=203.0.113.77
  run -3 ep
  assert_output "$E POD_IP must be an address of this host, got \"203.0.113.77\", which no interface has; set it from the Downward API (status.podIP)"
}
@test "an IPv6 loopback POD_IP is accepted" {
  with POD_IP=::1 -- --check
  run -0 ep
  assert_line "advertised: http://[::1]:8088"
}

# --- JAAS -------------------------------------------------------------------------------
@test "JAAS text without a control flag exits 3 and hides the value" {
  with CONNECT_SASL_JAAS_CONFIG="org.apache.kafka.common.security.plain.PlainLoginModule username=\"u\" password=\"$SENTINEL\";"
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG must be one JAAS login module entry '<LoginModule> required key=\"value\"...;', but the control flag must be required, requisite, sufficient or optional (value not shown)"
}
@test "JAAS text without the closing semicolon exits 3" {
  with CONNECT_SASL_JAAS_CONFIG="org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"$SENTINEL\""
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG must be one JAAS login module entry '<LoginModule> required key=\"value\"...;', but it does not end with ';' (value not shown)"
}
@test "JAAS text with an unterminated quote exits 3" {
  with CONNECT_SASL_JAAS_CONFIG="org.apache.kafka.common.security.plain.PlainLoginModule required password=\"$SENTINEL;"
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG must be one JAAS login module entry '<LoginModule> required key=\"value\"...;', but the value of option 1 has no closing quote (value not shown)"
}
@test "two JAAS login modules exit 3" {
  with CONNECT_SASL_JAAS_CONFIG="$GOOD_JAAS $GOOD_JAAS"
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG must be one JAAS login module entry '<LoginModule> required key=\"value\"...;', but it holds more than one login module entry (Kafka takes exactly one) (value not shown)"
}
@test "a JNDI login module is refused" {
  with CONNECT_SASL_JAAS_CONFIG="com.sun.security.auth.module.JndiLoginModule required user.provider.url=\"x\" password=\"$SENTINEL\";"
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG is refused: login module com.sun.security.auth.module.JndiLoginModule is refused (JNDI/LDAP login); use org.apache.kafka.common.security.plain.PlainLoginModule (value not shown)"
}
@test "an LDAP login module is refused" {
  with CONNECT_SASL_JAAS_CONFIG="com.sun.security.auth.module.LdapLoginModule required userProvider=\"x\" password=\"$SENTINEL\";"
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG is refused: login module com.sun.security.auth.module.LdapLoginModule is refused (JNDI/LDAP login); use org.apache.kafka.common.security.plain.PlainLoginModule (value not shown)"
}
@test "a jndi: lookup inside the JAAS text is refused" {
  with CONNECT_SASL_JAAS_CONFIG="org.apache.kafka.common.security.plain.PlainLoginModule required username=\"\${jndi:ldap://x/a}\" password=\"$SENTINEL\";"
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG is refused: it contains a jndi: or ldap: lookup; use org.apache.kafka.common.security.plain.PlainLoginModule (value not shown)"
}

# --- files ------------------------------------------------------------------------------
@test "JMX_EXPORTER_PORT set with the agent jar missing exits 3" {
  rm "$FAKE/etc/jmx.jar"
  with JMX_EXPORTER_PORT=18088
  run -3 ep
  assert_output "$E JMX_EXPORTER_AGENT=$FAKE/etc/jmx.jar: cannot read the JMX exporter agent (JMX_EXPORTER_PORT is set): No such file or directory"
}
@test "JMX_EXPORTER_PORT set with the exporter config missing exits 3" {
  with JMX_EXPORTER_PORT=18088 JMX_EXPORTER_CONFIG=/nonexistent/jmx.yaml
  run -3 ep
  assert_output "$E JMX_EXPORTER_CONFIG=/nonexistent/jmx.yaml: cannot read the JMX exporter rules (JMX_EXPORTER_PORT is set): No such file or directory"
}
@test "a missing agent jar does not matter while JMX_EXPORTER_PORT is unset" {
  rm "$FAKE/etc/jmx.jar"
  with -- --check
  run -0 ep
  assert_line "jmx-exporter: off"
}
@test "a missing worker config exits 3" {
  with MM2_WORKER_CONFIG=/nonexistent/connect.properties
  run -3 ep
  assert_output "$E MM2_WORKER_CONFIG=/nonexistent/connect.properties: cannot read the worker configuration: No such file or directory"
}
@test "a worker config unreadable by uid 10001 exits 3 after the drop" {
  chmod 0600 "$FAKE/etc/connect-mm2.properties"
  run -3 ep
  assert_output "$E MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2.properties: cannot read the worker configuration: Permission denied"
}
@test "a KAFKA_HOME without kafka-clients asks for MM2_LOG_CONFIG" {
  rm "$FAKE"/kafka/libs/*.jar
  with -u MM2_LOG_CONFIG
  run -3 ep
  assert_output "$E KAFKA_HOME=$FAKE/kafka holds no libs/kafka-clients-<version>.jar, so the log configuration cannot be chosen; point KAFKA_HOME at a Kafka distribution or set MM2_LOG_CONFIG"
}
@test "a bad rebalance delay exits 3" {
  with CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS=5m
  run -3 ep
  assert_output "$E CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS must be milliseconds from 0 to 2147483647, got \"5m\""
}

# --- many problems at once --------------------------------------------------------------
@test "several problems are all reported, one line each, in one run" {
  with -u POD_IP CONNECT_REST_PORT=99999 CONNECT_STATUS_STORAGE_TOPIC=mm2-offsets CONNECT_BOOTSTRAP_SERVERS=kafka
  run -3 ep
  assert_equal "${#lines[@]}" 4
  assert_line --index 0 --regexp "^$E CONNECT_BOOTSTRAP_SERVERS must be a comma-separated host:port list, got \"kafka\": "
  assert_line --index 1 "$E CONNECT_OFFSET_STORAGE_TOPIC and CONNECT_STATUS_STORAGE_TOPIC must name different topics, both are \"mm2-offsets\""
  assert_line --index 2 "$E POD_IP is not set; set it to this pod's IP address (Downward API fieldRef status.podIP)"
  assert_line --index 3 "$E CONNECT_REST_PORT must be a port number from 1 to 65535, got \"99999\""
}

# --- the command line -------------------------------------------------------------------
@test "--help lists every variable it reads and exits 0" {
  with -- --help
  run -0 ep
  for v in CONNECT_BOOTSTRAP_SERVERS CONNECT_GROUP_ID CONNECT_CONFIG_STORAGE_TOPIC CONNECT_OFFSET_STORAGE_TOPIC \
    CONNECT_STATUS_STORAGE_TOPIC CONNECT_SASL_JAAS_CONFIG POD_IP CONNECT_REST_PORT JMX_EXPORTER_PORT \
    JMX_EXPORTER_AGENT JMX_EXPORTER_CONFIG KAFKA_HOME MM2_WORKER_CONFIG MM2_LOG_CONFIG KAFKA_HEAP_OPTS \
    CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS; do
    assert_output --partial "$v"
  done
}
@test "--version prints the version" {
  with -- --version
  run -0 ep
  assert_output --regexp '^mm2-entrypoint [0-9]+\.[0-9]+\.[0-9]+$'
}
@test "an unknown option exits 2 with a hint" {
  with -- --frobnicate
  run -2 ep
  assert_line --index 0 "$E unknown option '--frobnicate'"
  assert_line --index 1 "Try 'mm2-entrypoint --help'."
}

# --- --check ----------------------------------------------------------------------------
@test "--check prints the resolved launch with the secret redacted" {
  with JMX_EXPORTER_PORT=18088 -- --check
  run -0 ep
  assert_line "exec: $FAKE/kafka/bin/connect-distributed.sh $FAKE/etc/connect-mm2.properties"
  assert_line "kafka: 4.3.1 ($FAKE/kafka)"
  assert_line "advertised: http://127.0.0.1:8088"
  assert_line "env: CONNECT_REST_PORT=8088 (default)"
  assert_line "env: KAFKA_HEAP_OPTS=-XX:InitialRAMPercentage=25 -XX:MaxRAMPercentage=50 (heap from the memory limit)"
  assert_line "env: KAFKA_LOG4J_OPTS=-Dlog4j2.configurationFile=$FAKE/etc/connect-log4j2.yaml (stdout only, log4j2 (Kafka >= 4))"
  assert_line "env: KAFKA_OPTS=$HARDEN_431 -Djava.security.auth.login.config=$FAKE/rest-auth/jaas.conf -javaagent:$FAKE/etc/jmx.jar=18088:$FAKE/etc/jmx.yaml (Kafka's escape hatches closed, REST authentication's JAAS file, JMX exporter agent)"
  assert_line "env: CONNECT_SASL_JAAS_CONFIG=<redacted> (inherited)"
  refute_output --partial "$SENTINEL"
  [ ! -e "$FAKE/out/launch" ]
}
@test "Kafka 3.x gets the log4j 1 configuration" {
  rm "$FAKE"/kafka/libs/*.jar
  : >"$FAKE/kafka/libs/kafka-clients-3.9.1.jar"
  # The image's default path is not on this machine: the refusal names the
  # file the version chose.
  with -u MM2_LOG_CONFIG -- --check
  run -3 ep
  assert_output "$E MM2_LOG_CONFIG=/etc/mm2/connect-log4j.properties: cannot read the log configuration: No such file or directory"
}
@test "Kafka 4.x gets the log4j2 configuration" {
  with -u MM2_LOG_CONFIG -- --check
  run -3 ep
  assert_output "$E MM2_LOG_CONFIG=/etc/mm2/connect-log4j2.yaml: cannot read the log configuration: No such file or directory"
}
@test "an MM2_LOG_CONFIG ending in .properties is passed in log4j 1 syntax" {
  with MM2_LOG_CONFIG="$FAKE/etc/connect-log4j.properties" -- --check
  run -0 ep
  assert_line "env: KAFKA_LOG4J_OPTS=-Dlog4j.configuration=file:$FAKE/etc/connect-log4j.properties (stdout only, log4j 1 (Kafka 3))"
}
@test "the sentinel secret appears in no output of any failing run" {
  for bad in "POD_IP=0.0.0.0" "CONNECT_REST_PORT=x" "CONNECT_GROUP_ID=a b" "CONNECT_SASL_JAAS_CONFIG=$SENTINEL"; do
    ep_env
    with "$bad"
    run -3 ep
    refute_output --partial "$SENTINEL"
  done
}

# --- the launch -------------------------------------------------------------------------
@test "a missing launcher exits 127 with one clear line" {
  rm "$FAKE/kafka/bin/connect-distributed.sh"
  run -127 ep
  assert_output "$E unable to exec $FAKE/kafka/bin/connect-distributed.sh: No such file or directory"
}
@test "a launcher that is not executable exits 126" {
  chmod 0644 "$FAKE/kafka/bin/connect-distributed.sh"
  run -126 ep
  assert_output "$E unable to exec $FAKE/kafka/bin/connect-distributed.sh: Permission denied"
}
@test "the launcher runs in place of the entrypoint: same PID, empty signal mask" {
  env -i "${ENV[@]}" "$EP" &
  pid=$!
  wait "$pid"
  run -0 cat "$FAKE/out/launch"
  assert_line "pid=$pid"
  assert_line "argv=$FAKE/etc/connect-mm2.properties"
  assert_line "SigBlk: 0000000000000000"
  # Signals 32 and 33 belong to glibc's threads (NPTL), which sets them up in
  # every process it starts; no libc call can reset them, and none needs to.
  ign=$(sed -n 's/^SigIgn: //p' "$FAKE/out/launch")
  [ $((0x$ign & ~0x180000000)) -eq 0 ] || fail "signals still ignored at exec: SigIgn $ign"
}
@test "started as root, the launcher runs as 10001:10001 without capabilities and with no_new_privs" {
  [ "$(id -u)" -eq 0 ] || fail "this test needs root (CI runs as root)"
  run -0 ep
  run -0 cat "$FAKE/out/launch"
  assert_line --regexp '^Uid: 10001	10001	10001	10001$'
  assert_line --regexp '^Gid: 10001	10001	10001	10001$'
  assert_line --regexp '^Groups: 10001 ?$'
  assert_line "CapInh: 0000000000000000"
  assert_line "CapPrm: 0000000000000000"
  assert_line "CapEff: 0000000000000000"
  assert_line "CapBnd: 0000000000000000"
  assert_line "CapAmb: 0000000000000000"
  assert_line "NoNewPrivs: 1"
}
@test "the launcher gets the defaults the worker config needs and the secret unchanged" {
  run -0 ep
  run -0 cat "$FAKE/out/launch"
  assert_line "env CONNECT_REST_PORT=8088"
  assert_line "env CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS=10000"
  assert_line "env LOG_DIR=/tmp"
  assert_line "jaas=set"
  # The image's worker config turns REST authentication on: only the JAAS file's path.
  assert_line "env KAFKA_OPTS=$HARDEN_431 -Djava.security.auth.login.config=$FAKE/rest-auth/jaas.conf"
}
@test "KAFKA_OPTS closes Kafka's escape hatches that each Kafka version has, after what the pod set" {
  local dis="-Dorg.apache.kafka.disallowed.login.modules=com.sun.security.auth.module.JndiLoginModule,com.sun.security.auth.module.LdapLoginModule"
  local allow="-Dorg.apache.kafka.allowed.login.modules=org.apache.kafka.common.security.plain.PlainLoginModule,org.apache.kafka.common.security.scram.ScramLoginModule"
  local prov="-Dorg.apache.kafka.automatic.config.providers=org.apache.kafka.common.config.provider.EnvVarConfigProvider"
  local urls="-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=" files="-Dorg.apache.kafka.sasl.oauthbearer.allowed.files="
  local jaas="-Djava.security.auth.login.config=$FAKE/rest-auth/jaas.conf" pod v want
  pod=-Dorg.apache.kafka.automatic.config.providers=org.apache.kafka.common.config.provider.FileConfigProvider
  while read -r v want; do
    rm -f "$FAKE/kafka/libs/kafka-clients-"*.jar
    : >"$FAKE/kafka/libs/kafka-clients-$v.jar"
    with "KAFKA_OPTS=$pod" -- --check
    run -0 ep
    assert_line "env: KAFKA_OPTS=$pod ${want//@/ } $jaas (Kafka's escape hatches closed, REST authentication's JAAS file)"
  done <<VERSIONS
3.6.2 $dis
3.7.0 $dis
3.7.1 $dis@$prov
3.8.1 $dis@$prov
3.9.1 $dis@$prov@$urls
4.0.2 $dis@$prov@$urls
4.1.2 $dis@$prov@$urls@$files
4.3.1 $dis@$allow@$prov@$urls@$files
VERSIONS
}
@test "the JMX agent goes into KAFKA_OPTS after what the pod set" {
  with JMX_EXPORTER_PORT=18088 KAFKA_OPTS=-Dfoo=bar
  run -0 ep
  run -0 cat "$FAKE/out/launch"
  assert_line "env KAFKA_OPTS=-Dfoo=bar $HARDEN_431 -Djava.security.auth.login.config=$FAKE/rest-auth/jaas.conf -javaagent:$FAKE/etc/jmx.jar=18088:$FAKE/etc/jmx.yaml"
}
@test "an operator's KAFKA_HEAP_OPTS is kept" {
  with KAFKA_HEAP_OPTS=-Xmx300m
  run -0 ep
  run -0 cat "$FAKE/out/launch"
  assert_line "env KAFKA_HEAP_OPTS=-Xmx300m"
}
