#!/usr/bin/env bats
# mm2-entrypoint with the TLS profiles of docker/mm2/: it follows the worker
# config MM2_WORKER_CONFIG names (its ${env:} variables, its TLS stores, its
# SASL mechanism), reports every problem at once and exits 3.  The PEM files
# are made here with openssl; the profiles are the image's own, their
# /etc/mm2/tls paths moved under the test's directory.
load helpers

E="mm2-entrypoint: error:"
KEYPW='SENTINEL-5b1f-cli-do-not-print-keypw'
SCRAM_JAAS="org.apache.kafka.common.security.scram.ScramLoginModule required username=\"connect\" password=\"$SENTINEL\";"

# profile NAME: the image's profile NAME with its TLS paths under $FAKE/tls, as MM2_WORKER_CONFIG.
profile() {
  sed "s#/etc/mm2/tls/#$FAKE/tls/#g" "$BATS_TEST_DIRNAME/../../docker/mm2/$1" >"$FAKE/etc/$1"
  chmod 0644 "$FAKE/etc/$1"
  with "MM2_WORKER_CONFIG=$FAKE/etc/$1"
}

# The TLS files as the profiles read them: target/ (the TARGET's CA; the connector's target
# keystore, CN=mm2-target) and worker/ (the mTLS profile's own: the CA and the workers'
# keystore, CN=connect), rest/; the workers' key also clear and PBES2-encrypted in pki/.
make_pki() {
  local d=$FAKE/tls w=$FAKE/pki c
  mkdir -p "$d/target" "$d/worker" "$d/rest" "$w"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$w/ca.key" \
    -subj /CN=cli-ca -days 1 -out "$d/target/ca.crt" 2>/dev/null
  cp "$d/target/ca.crt" "$d/worker/ca.crt"
  for c in client:connect client-target:mm2-target; do
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$w/${c%%:*}.key" \
      -subj "/CN=${c#*:}" -out "$w/${c%%:*}.csr" 2>/dev/null
    openssl x509 -req -in "$w/${c%%:*}.csr" -CA "$d/target/ca.crt" -CAkey "$w/ca.key" -CAcreateserial \
      -days 1 -out "$w/${c%%:*}.crt" 2>/dev/null
    # PBES1 (PKCS#12 PBE, 3DES): Java 17's Kafka cannot decrypt PBES2, openssl 3's default.
    KEYPW=$KEYPW openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -in "$w/${c%%:*}.key" -passout env:KEYPW -out "$w/${c%%:*}.enc"
  done
  KEYPW=$KEYPW openssl pkcs8 -topk8 -v2 aes-256-cbc -in "$w/client.key" -passout env:KEYPW -out "$w/client.pbes2"
  cat "$w/client.enc" "$w/client.crt" >"$d/worker/keystore.pem"
  cat "$w/client-target.enc" "$w/client-target.crt" >"$d/target/keystore.pem"
  printf '\x30\x82\x01\x00' >"$d/rest/keystore.p12"
  printf '\x30\x82\x01\x00' >"$d/rest/truststore.p12"
  chmod -R a+rX "$d"
}

setup() {
  make_fake_home
  ep_env
  with --
  make_pki
}

@test "the SASL_SSL profile with a SCRAM entry and a PEM CA passes --check" {
  profile connect-mm2-sasl-ssl.properties
  with "CONNECT_SASL_JAAS_CONFIG=$SCRAM_JAAS" -- --check
  run -0 ep
  assert_line "exec: $FAKE/kafka/bin/connect-distributed.sh $FAKE/etc/connect-mm2-sasl-ssl.properties"
  refute_output --partial "$SENTINEL"
}

@test "the SCRAM profile refuses a PLAIN login module and names the fix" {
  profile connect-mm2-sasl-ssl.properties
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG names org.apache.kafka.common.security.plain.PlainLoginModule, but MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2-sasl-ssl.properties uses sasl.mechanism=SCRAM-SHA-512, which needs org.apache.kafka.common.security.scram.ScramLoginModule; set CONNECT_SASL_JAAS_CONFIG to 'org.apache.kafka.common.security.scram.ScramLoginModule required username=\"...\" password=\"...\";' or choose the profile of your mechanism (value not shown)"
}

@test "the PLAIN profile refuses a SCRAM login module (the reverse)" {
  with "CONNECT_SASL_JAAS_CONFIG=$SCRAM_JAAS"
  run -3 ep
  assert_output --partial "$E CONNECT_SASL_JAAS_CONFIG names org.apache.kafka.common.security.scram.ScramLoginModule, but MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2.properties uses sasl.mechanism=PLAIN, which needs org.apache.kafka.common.security.plain.PlainLoginModule; set CONNECT_SASL_JAAS_CONFIG to 'org.apache.kafka.common.security.plain.PlainLoginModule required"
  refute_output --partial "$SENTINEL"
}

@test "the SCRAM profile's missing JAAS entry names the SCRAM login module" {
  profile connect-mm2-sasl-ssl.properties
  with -u CONNECT_SASL_JAAS_CONFIG
  run -3 ep
  assert_output "$E CONNECT_SASL_JAAS_CONFIG is not set; set it to a JAAS entry such as org.apache.kafka.common.security.scram.ScramLoginModule required username=\"...\" password=\"...\";"
}

@test "the mTLS profile needs no JAAS entry, and the workers' own key password variable" {
  profile connect-mm2-mtls.properties
  with -u CONNECT_SASL_JAAS_CONFIG "MM2_WORKER_SSL_KEY_PASSWORD=$KEYPW" -- --check
  run -0 ep
  refute_output --partial "$KEYPW"
  with -u MM2_WORKER_SSL_KEY_PASSWORD --
  run -3 ep
  assert_output "$E MM2_WORKER_SSL_KEY_PASSWORD is not set; MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2-mtls.properties uses it in ssl.key.password (Connect would keep the text \${env:MM2_WORKER_SSL_KEY_PASSWORD} unresolved)"
  with MM2_WORKER_SSL_KEY_PASSWORD=
  run -3 ep
  assert_output "$E MM2_WORKER_SSL_KEY_PASSWORD is empty; MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2-mtls.properties uses it in ssl.key.password (Connect would keep the text \${env:MM2_WORKER_SSL_KEY_PASSWORD} unresolved)"
}

@test "the mTLS profile's clients read the workers' own store, not the connector's target one" {
  profile connect-mm2-mtls.properties
  run -0 grep -c '^\(producer\.\|consumer\.\|admin\.\)\?ssl\.keystore\.location='"$FAKE/tls/worker/keystore.pem\$" "$FAKE/etc/connect-mm2-mtls.properties"
  assert_output 4
  run -0 grep -c '^\(producer\.\|consumer\.\|admin\.\)\?ssl\.key\.password=.{env:MM2_WORKER_SSL_KEY_PASSWORD}$' "$FAKE/etc/connect-mm2-mtls.properties"
  assert_output 4
  run -1 grep -E '^[^#].*(/tls/target/|MM2_TARGET_SSL_KEY_PASSWORD\})' "$FAKE/etc/connect-mm2-mtls.properties"
  # The connector's target keystore and its password are the connector's (target.cluster.* of
  # connectors/mtls.json): the worker config names neither, so neither is asked for here.
  rm "$FAKE/tls/target/keystore.pem" "$FAKE/tls/target/ca.crt"
  with -u CONNECT_SASL_JAAS_CONFIG -u MM2_TARGET_SSL_KEY_PASSWORD "MM2_WORKER_SSL_KEY_PASSWORD=$KEYPW" -- --check
  run -0 ep
  refute_output --partial "$KEYPW"
  # Without the workers' own Secret, each of their files is named once (four clients, one file).
  rm -r "$FAKE/tls/worker"
  with --
  run -3 ep
  assert_line --index 0 "$E ssl.truststore.location=$FAKE/tls/worker/ca.crt: cannot read the TLS store: No such file or directory"
  assert_line --index 1 "$E ssl.keystore.location=$FAKE/tls/worker/keystore.pem: cannot read the TLS store: No such file or directory"
  assert_equal "${#lines[@]}" 2
}

@test "a variable the allowlist does not allow is refused" {
  echo "client.id=\${env:HOSTNAME}" >>"$FAKE/etc/connect-mm2.properties"
  with HOSTNAME=pod-0
  run -3 ep
  assert_output "$E MM2_WORKER_CONFIG=$FAKE/etc/connect-mm2.properties: client.id uses \${env:HOSTNAME}, which config.providers.env.param.allowlist.pattern does not allow, so Connect would keep the text unresolved; add HOSTNAME to the pattern"
}

@test "a missing CA file is named with its property" {
  profile connect-mm2-sasl-ssl.properties
  rm "$FAKE/tls/target/ca.crt"
  with "CONNECT_SASL_JAAS_CONFIG=$SCRAM_JAAS"
  run -3 ep
  # One line: the four clients name the same file, checked once.
  assert_output "$E ssl.truststore.location=$FAKE/tls/target/ca.crt: cannot read the TLS store: No such file or directory"
}

@test "a CA file unreadable by uid 10001 is refused after the drop" {
  profile connect-mm2-sasl-ssl.properties
  chmod 0600 "$FAKE/tls/target/ca.crt"
  with "CONNECT_SASL_JAAS_CONFIG=$SCRAM_JAAS"
  run -3 ep
  assert_output "$E ssl.truststore.location=$FAKE/tls/target/ca.crt: cannot read the TLS store: Permission denied"
}

@test "the workers' keystore unreadable by uid 10001 is refused after the drop" {
  profile connect-mm2-mtls.properties
  chmod 0600 "$FAKE/tls/worker/keystore.pem"
  with -u CONNECT_SASL_JAAS_CONFIG "MM2_WORKER_SSL_KEY_PASSWORD=$KEYPW"
  run -3 ep
  assert_output "$E ssl.keystore.location=$FAKE/tls/worker/keystore.pem: cannot read the TLS store: Permission denied"
}

@test "a keystore given as the truststore is refused: it holds a key" {
  profile connect-mm2-sasl-ssl.properties
  cp "$FAKE/tls/target/keystore.pem" "$FAKE/tls/target/ca.crt"
  with "CONNECT_SASL_JAAS_CONFIG=$SCRAM_JAAS"
  run -3 ep
  assert_output "$E ssl.truststore.location=$FAKE/tls/target/ca.crt holds a private key; a truststore holds CA certificates only (is it the keystore?)"
}

@test "a truststore that is not PEM is refused" {
  profile connect-mm2-sasl-ssl.properties
  printf '\x30\x82garbage' >"$FAKE/tls/target/ca.crt"
  with "CONNECT_SASL_JAAS_CONFIG=$SCRAM_JAAS"
  run -3 ep
  assert_output "$E ssl.truststore.location=$FAKE/tls/target/ca.crt is not a PEM file; the profile's ssl.*.type is PEM"
}

@test "a truststore over 1 MiB is refused, and nothing is written past the buffer that read it" {
  profile connect-mm2-sasl-ssl.properties
  head -c 1048577 /dev/zero | tr '\0' A >"$FAKE/tls/target/ca.crt"
  with "CONNECT_SASL_JAAS_CONFIG=$SCRAM_JAAS"
  run -3 ep
  assert_output "$E ssl.truststore.location=$FAKE/tls/target/ca.crt is larger than 1048576 bytes; is it the right file?"
}

@test "a keystore with a traditional RSA key, and one without a certificate, are refused" {
  profile connect-mm2-mtls.properties
  openssl genrsa -traditional -out "$FAKE/tls/worker/keystore.pem" 2048 2>/dev/null
  chmod 0644 "$FAKE/tls/worker/keystore.pem"
  with -u CONNECT_SASL_JAAS_CONFIG "MM2_WORKER_SSL_KEY_PASSWORD=$KEYPW"
  run -3 ep
  assert_line --index 0 "$E ssl.keystore.location=$FAKE/tls/worker/keystore.pem holds a traditional (RSA/EC) private key, which Kafka's PEM keystore does not read; convert it with 'openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES' (or -nocrypt without ssl.key.password)"
  assert_line --index 1 "$E ssl.keystore.location=$FAKE/tls/worker/keystore.pem holds no certificate; a PEM keystore is the private key followed by its certificate chain"
  assert_equal "${#lines[@]}" 2
}

@test "a PBES2-encrypted key (openssl 3's default) is refused: Java 17's Kafka cannot decrypt it" {
  profile connect-mm2-mtls.properties
  cat "$FAKE/pki/client.pbes2" "$FAKE/pki/client.crt" >"$FAKE/tls/worker/keystore.pem"
  with -u CONNECT_SASL_JAAS_CONFIG "MM2_WORKER_SSL_KEY_PASSWORD=$KEYPW"
  run -3 ep
  assert_output "$E ssl.keystore.location=$FAKE/tls/worker/keystore.pem holds a PBES2-encrypted key (openssl 3's default), which Kafka's PEM keystore cannot decrypt on this image's Java 17 (\"PBES2 SecretKeyFactory not available\"); re-encrypt it with 'openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES'"
}

@test "an unencrypted key with ssl.key.password set is refused" {
  profile connect-mm2-mtls.properties
  cat "$FAKE/pki/client.key" "$FAKE/pki/client.crt" >"$FAKE/tls/worker/keystore.pem"
  with -u CONNECT_SASL_JAAS_CONFIG "MM2_WORKER_SSL_KEY_PASSWORD=$KEYPW"
  run -3 ep
  assert_output "$E ssl.keystore.location=$FAKE/tls/worker/keystore.pem holds an unencrypted key, but ssl.key.password beside it is set, which makes Kafka read the key as encrypted; remove the password or encrypt the key"
}

@test "the HTTPS profile refuses a PEM file where Jetty needs PKCS12" {
  profile connect-mm2-sasl-ssl-https.properties
  cp "$FAKE/tls/target/ca.crt" "$FAKE/tls/rest/truststore.p12"
  with "CONNECT_SASL_JAAS_CONFIG=$SCRAM_JAAS" MM2_REST_KEYSTORE_PASSWORD=x MM2_REST_TRUSTSTORE_PASSWORD=y
  run -3 ep
  assert_output "$E listeners.https.ssl.truststore.location=$FAKE/tls/rest/truststore.p12 is not a PKCS12 or JKS store (it is PEM text); set the matching ssl.*.type (PEM for a PEM file)"
}

@test "every problem of a TLS profile is reported in one run" {
  profile connect-mm2-sasl-ssl-https.properties
  rm "$FAKE/tls/target/ca.crt"
  with -u POD_IP MM2_REST_KEYSTORE_PASSWORD=x
  run -3 ep
  assert_line --index 0 "$E POD_IP is not set; set it to this pod's IP address (Downward API fieldRef status.podIP)"
  assert_line --index 1 --partial "$E MM2_REST_TRUSTSTORE_PASSWORD is not set; MM2_WORKER_CONFIG="
  assert_line --index 2 "$E ssl.truststore.location=$FAKE/tls/target/ca.crt: cannot read the TLS store: No such file or directory"
  assert_line --index 3 --partial "$E CONNECT_SASL_JAAS_CONFIG names org.apache.kafka.common.security.plain.PlainLoginModule, but"
  assert_equal "${#lines[@]}" 4
}
