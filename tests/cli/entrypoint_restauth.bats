#!/usr/bin/env bats
# mm2-entrypoint when the worker config asks for REST authentication (Kafka's
# BasicAuthSecurityRestExtension in rest.extension.classes; docker/mm2/README.md):
# the JAAS file and the credentials file it names are checked before Connect
# starts (exit 3, every problem at once, no content quoted), and the JVM gets
# the JAAS file's path, never a credential.
load helpers

E="mm2-entrypoint: error:"
RESTPW=$CLI_REST_PASSWORD
EXT=org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension
MODULE=org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule

# The image's default profile with the extension named, and the two files as Secret mounts
# would give them (readable by 10001, outside $FAKE/etc, which teardown sweeps for the JAAS
# sentinel).
setup() {
  make_fake_home
  ep_env
  with --
  grep -qxF "rest.extension.classes=$EXT" "$FAKE/etc/connect-mm2.properties"
  jaas "$MODULE required file=\"$FAKE/rest-auth/credentials.properties\";"
}

# jaas BODY: the JAAS file with one KafkaConnect entry holding BODY.
jaas() {
  printf '// the REST login context\nKafkaConnect {\n  %s\n};\n' "$1" >"$FAKE/rest-auth/jaas.conf"
}

@test "a worker config with the extension, a good JAAS file and credentials passes --check; the JVM gets the JAAS path" {
  with -- --check
  run -0 ep
  assert_line "rest-auth: basic"
  assert_line "env: KAFKA_OPTS=$HARDEN_431 -Djava.security.auth.login.config=$FAKE/rest-auth/jaas.conf (Kafka's escape hatches closed, REST authentication's JAAS file)"
  refute_output --partial "$RESTPW"
}

@test "the JAAS path goes after what the pod set in KAFKA_OPTS, and before the JMX agent" {
  with JMX_EXPORTER_PORT=18088 KAFKA_OPTS=-Dfoo=bar -- --check
  run -0 ep
  assert_line "env: KAFKA_OPTS=-Dfoo=bar $HARDEN_431 -Djava.security.auth.login.config=$FAKE/rest-auth/jaas.conf -javaagent:$FAKE/etc/jmx.jar=18088:$FAKE/etc/jmx.yaml (Kafka's escape hatches closed, REST authentication's JAAS file, JMX exporter agent)"
}

@test "without the extension in the worker config nothing is asked, and KAFKA_OPTS has no JAAS file" {
  sed -i '/^rest\.extension\.classes=/d' "$FAKE/etc/connect-mm2.properties"
  with -u MM2_REST_JAAS_CONFIG -- --check
  run -0 ep
  assert_line "rest-auth: off"
  assert_line "env: KAFKA_OPTS=$HARDEN_431 (Kafka's escape hatches closed)"
}

@test "MM2_REST_JAAS_CONFIG set for a worker config without the extension is refused: REST would stay open" {
  sed -i '/^rest\.extension\.classes=/d' "$FAKE/etc/connect-mm2.properties"
  run -3 ep
  assert_output "$E MM2_REST_JAAS_CONFIG is set, but MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2.properties does not name $EXT in rest.extension.classes, so REST would stay unauthenticated; use a profile that does"
}

@test "a missing JAAS file is refused and names the variable" {
  rm "$FAKE/rest-auth/jaas.conf"
  run -3 ep
  assert_output "$E MM2_REST_JAAS_CONFIG=$FAKE/rest-auth/jaas.conf: cannot read the REST JAAS file: No such file or directory; the worker config names $EXT, mount the REST auth Secret there"
}

@test "the default JAAS path is /etc/mm2/rest-auth/jaas.conf" {
  with -u MM2_REST_JAAS_CONFIG
  run -3 ep
  assert_output --partial "$E MM2_REST_JAAS_CONFIG=/etc/mm2/rest-auth/jaas.conf: cannot read the REST JAAS file"
}

@test "a JAAS file without a KafkaConnect entry is refused: every request would get 401" {
  printf 'KafkaServer {\n  %s required file="/x";\n};\n' "$MODULE" >"$FAKE/rest-auth/jaas.conf"
  run -3 ep
  assert_output "$E MM2_REST_JAAS_CONFIG=$FAKE/rest-auth/jaas.conf has no KafkaConnect entry, the one BasicAuthSecurityRestExtension logs in with: every request would be refused (401)"
}

@test "a JAAS file Java cannot read is refused" {
  printf 'KafkaConnect {\n  %s required file="/x"\n' "$MODULE" >"$FAKE/rest-auth/jaas.conf"
  run -3 ep
  assert_output "$E MM2_REST_JAAS_CONFIG=$FAKE/rest-auth/jaas.conf is not a JAAS file Java reads (NAME { MODULE FLAG KEY=\"VALUE\"; };), and the worker would not start"
}

@test "another login module (a JNDI one) is refused: the image ships PropertyFileLoginModule only" {
  jaas "com.sun.security.auth.module.JndiLoginModule required user.provider.url=\"ldap://x\" group.provider.url=\"ldap://x\";"
  run -3 ep
  assert_output "$E MM2_REST_JAAS_CONFIG=$FAKE/rest-auth/jaas.conf: the KafkaConnect entry must hold one login module, $MODULE (the one the image ships)"
}

@test "a module without file= is refused" {
  jaas "$MODULE required;"
  run -3 ep
  assert_output "$E MM2_REST_JAAS_CONFIG=$FAKE/rest-auth/jaas.conf: the KafkaConnect entry names no credentials file; give its login module file=\"/etc/mm2/rest-auth/...\""
}

@test "an empty credentials file is refused: PropertyFileLoginModule would admit every request" {
  : >"$FAKE/rest-auth/credentials.properties"
  run -3 ep
  assert_output "$E the REST credentials file $FAKE/rest-auth/credentials.properties holds no user, and Kafka's PropertyFileLoginModule then admits EVERY request; give it user=password lines (from the Secret)"
}

@test "a credentials file of comments only is empty too" {
  printf '# users\n! none yet\n\n' >"$FAKE/rest-auth/credentials.properties"
  run -3 ep
  assert_output --partial "holds no user, and Kafka's PropertyFileLoginModule then admits EVERY request"
}

@test "a user with an empty password is refused, and no user name or password is printed" {
  printf 'mm2-probe=%s\nmm2-offsets=\nops:\n' "$RESTPW" >"$FAKE/rest-auth/credentials.properties"
  run -3 ep
  assert_output "$E the REST credentials file $FAKE/rest-auth/credentials.properties has 2 user(s) with an empty password, which anyone who sends that user name passes; give each a password"
  refute_output --partial mm2-offsets
  refute_output --partial "$RESTPW"
}

@test "a missing credentials file is refused" {
  rm "$FAKE/rest-auth/credentials.properties"
  run -3 ep
  assert_output "$E the REST credentials file $FAKE/rest-auth/credentials.properties (the KafkaConnect entry's file=): cannot read it: No such file or directory; mount the REST auth Secret there"
}

@test "a credentials file unreadable by uid 10001 is refused after the drop" {
  chmod 0600 "$FAKE/rest-auth/credentials.properties"
  run -3 ep
  assert_output "$E the REST credentials file $FAKE/rest-auth/credentials.properties (the KafkaConnect entry's file=): cannot read it: Permission denied; mount the REST auth Secret there"
}

@test "admin.listeners on a listener of its own is refused: its resources would be unauthenticated" {
  echo "admin.listeners=http://0.0.0.0:8089" >>"$FAKE/etc/connect-mm2.properties"
  run -3 ep
  assert_output "$E MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2.properties sets admin.listeners, whose resources Connect serves without the REST authentication filter; leave it unset"
}

@test "the extension among other rest.extension.classes counts; a longer class name does not" {
  sed -i "s/^rest.extension.classes=.*/rest.extension.classes=com.example.Other, $EXT/" "$FAKE/etc/connect-mm2.properties"
  with -- --check
  run -0 ep
  assert_line "rest-auth: basic"
  sed -i "s/^rest.extension.classes=.*/rest.extension.classes=${EXT}Two/" "$FAKE/etc/connect-mm2.properties"
  with -u MM2_REST_JAAS_CONFIG -- --check
  run -0 ep
  assert_line "rest-auth: off"
}
