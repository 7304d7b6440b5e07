#!/usr/bin/env bats
# shellcheck disable=SC2154 # status, output and stderr are set by bats' run
# The TLS profiles on the TLS bed (tests/bed/tls-certs.sh: a CA made per run).
# Tagged short (make test): one worker of the SASL_SSL/SCRAM-SHA-512 profile
# with REST over HTTPS, started by the entrypoint on that profile, copies every
# record (read back over SASL_SSL and compared) and answers mm2-probe --cacert;
# mm2-offsets, reaching that worker over HTTPS as the Job in k8s/overlays/tls
# does, ends with one line and its exit code for a wrong CA, an expired client
# certificate, a broker certificate for another host, a wrong password and a
# PLAIN login on the SCRAM listener; the entrypoint refuses a broken TLS setup
# before the JVM; and no key or password shows in any log or artifact.
# The rest (make tls-e2e): forwarding between HTTPS workers. The mTLS profile's
# replication and cutover are in offsets_tls.bats, on one worker.
load helpers

# bats test_tags=short
@test "SASL_SSL/SCRAM-SHA-512 with REST over HTTPS: the entrypoint runs that profile, every record is copied, mm2-probe --cacert answers" {
  local w
  w=$(bed_worker_name 1)
  BED_SECURITY=sasl_ssl BED_REST_HTTPS=1 ok "$BED" worker-start 1
  BED_SECURITY=sasl_ssl BED_REST_HTTPS=1 ok "$BED" worker-wait 1 240
  run -0 podman inspect -f '{{.Config.User}} {{.Path}}' "$w"
  assert_output "10001:10001 /usr/local/bin/mm2-entrypoint"
  # PID 1 is the JVM the entrypoint exec'd, on the profile MM2_WORKER_CONFIG named.
  run -0 podman exec "$w" sh -c "tr '\\0' ' ' </proc/1/cmdline"
  assert_output --regexp "^java .*org.apache.kafka.connect.cli.ConnectDistributed /etc/mm2/connect-mm2-sasl-ssl-https.properties \$"
  # Its own clients (the group, the internal topics) joined over SASL_SSL with SCRAM.
  run -0 wait_for 60 bash -c "podman logs $w 2>&1 | grep -qF '[Worker clientId=connect-$(bed_worker_ip 1):8088, groupId=$BED_GROUP] Joined group'"
  BED_REST_HTTPS=1 replicate sasl_ssl tls.scram kit_scram
  run -0 bash -c "podman logs $w 2>&1 | grep -cE '^\s+security.protocol = SASL_SSL$'"
  # The kubelet's probes, as the overlay runs them: the REST CA, a name in the certificate.
  run -0 podman exec "$w" mm2-probe ready --url https://localhost:8088 --cacert /etc/mm2/tls/rest/ca.crt "${BED_PROBE_AUTH[@]}"
  run -0 podman exec "$w" mm2-probe live --url https://localhost:8088 --cacert /etc/mm2/tls/rest/ca.crt "${BED_PROBE_AUTH[@]}"
  # Without the CA the probe fails and says why; an address the certificate does not name fails.
  run -4 podman exec "$w" mm2-probe ready --url https://localhost:8088
  assert_output --partial "is not trusted"
  run -4 podman exec "$w" mm2-probe ready --url https://127.0.0.2:8088 --cacert /etc/mm2/tls/rest/ca.crt
  assert_output --partial "is not trusted"
  # Plain HTTP is not served.
  run curl -s -m 5 -o /dev/null -w '%{http_code}' "http://$(bed_worker_ip 1):8088/"
  refute_output 200
  # Nothing written outside /tmp (podman's /etc files and the Secrets' mount points aside);
  # no secret in any file the worker can read.
  run -0 bash -c "podman diff $w | grep -vxE 'C /etc|C /etc/mm2|A /etc/mm2/tls(/(rest|source|target))?' || true"
  assert_output ""
  run -0 podman exec "$w" sh -c "grep -rIlsF -e '$BED_CONNECT_PASSWORD' -e '$BED_TLS_STORE_PASSWORD' --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev / || true"
  assert_output ""
}

# --- mm2-offsets' TLS failures, each one line with its exit code, never a hang ------------
# (Connect is the HTTPS worker above, reached by its certificate's name with [connect] ca.location.)

# bats test_tags=short
@test "offsets: a wrong CA ends export with one line, exit 4" {
  BED_REST_HTTPS=1 connect_up
  # Waiting mends none of these: each ends at the first refusal, not at the deadline.
  BED_REST_HTTPS=1 OJ_MAX_S=20 OJ_CA=/tls/other-ca.crt export_fails sasl_ssl 4
  assert_regex "$stderr" "TLS handshake failed: the broker's certificate was not verified \\(is ssl.ca.location"
  assert_regex "$stderr" "certificate verify failed"
}

# bats test_tags=short
@test "offsets: a broker certificate for another host ends export with one line, exit 4" {
  BED_REST_HTTPS=1 connect_up
  BED_REST_HTTPS=1 OJ_MAX_S=20 export_fails ssl 4 "$BED_SRC_IP:$BED_WRONGHOST_PORT"
  assert_regex "$stderr" "TLS handshake failed: the broker's certificate was not verified"
  assert_regex "$stderr" "certificate verify failed"
}

# bats test_tags=short
@test "offsets: an expired client certificate ends export with one line, exit 4" {
  BED_REST_HTTPS=1 connect_up
  BED_REST_HTTPS=1 OJ_MAX_S=20 OJ_CERT=/tls/expired.crt OJ_KEY=/tls/expired.key export_fails ssl 4
  assert_regex "$stderr" "TLS handshake failed: the broker refused this client's certificate"
  assert_regex "$stderr" "alert certificate"
}

# bats test_tags=short
@test "offsets: a wrong SCRAM password ends export with one line, exit 3" {
  BED_REST_HTTPS=1 connect_up
  BED_REST_HTTPS=1 OJ_MAX_S=20 OJ_PASSWORD=wrong-password export_fails sasl_ssl 3
  assert_regex "$stderr" "authentication failed.*invalid credentials with SASL mechanism SCRAM-SHA-512"
  # The password, not the client: SCRAM logs in with the right one (offsets_tls.bats).
  [[ "$stderr" != *"librdkafka#"* && "$stderr" != *"2.6.1"* ]] || fail "blames librdkafka: $stderr"
}

# bats test_tags=short
@test "offsets: a PLAIN login on the SCRAM listener ends export with one line, exit 3" {
  BED_REST_HTTPS=1 connect_up
  BED_REST_HTTPS=1 OJ_MAX_S=20 OJ_MECH=PLAIN export_fails sasl_ssl 3
  assert_regex "$stderr" "PLAIN"
  assert_regex "$stderr" "SCRAM-SHA-512"
}

# bats test_tags=short
@test "the entrypoint stops a SASL_SSL profile without its CA, or with a PLAIN login module, with exit 3 before the JVM" {
  run --separate-stderr timeout 60 podman run --rm --network none --user 10001:10001 --read-only \
    --tmpfs /tmp:rw,size=16m,mode=1777 --cap-drop ALL --security-opt no-new-privileges \
    -e MM2_WORKER_CONFIG=/etc/mm2/connect-mm2-sasl-ssl.properties -e "POD_IP=$(bed_worker_ip 1)" \
    -e "CONNECT_BOOTSTRAP_SERVERS=$TGT_SASL_SSL" -e "CONNECT_GROUP_ID=$BED_GROUP" \
    -e "CONNECT_CONFIG_STORAGE_TOPIC=$BED_CONFIG_TOPIC" -e "CONNECT_OFFSET_STORAGE_TOPIC=$BED_OFFSET_TOPIC" \
    -e "CONNECT_STATUS_STORAGE_TOPIC=$BED_STATUS_TOPIC" -e "CONNECT_SASL_JAAS_CONFIG=$BED_JAAS" \
    -e "MM2_SOURCE_SASL_JAAS_CONFIG=$BED_SOURCE_SCRAM_JAAS" -e "MM2_TARGET_SASL_JAAS_CONFIG=$BED_TARGET_SCRAM_JAAS" "$IMAGE"
  # shellcheck disable=SC2154 # stderr is set by bats' run --separate-stderr
  [ "$status" -eq 3 ] || fail "the entrypoint exited $status, not 3: $stderr"
  assert_regex "$stderr" "mm2-entrypoint: error: ssl.truststore.location=/etc/mm2/tls/target/ca.crt: cannot read the TLS store: No such file or directory"
  assert_regex "$stderr" "CONNECT_SASL_JAAS_CONFIG names org.apache.kafka.common.security.plain.PlainLoginModule, but MM2_WORKER_CONFIG=/etc/mm2/connect-mm2-sasl-ssl.properties uses sasl.mechanism=SCRAM-SHA-512"
  [[ "$stderr$output" != *"$BED_CONNECT_PASSWORD"* ]] || fail "the password appeared in the entrypoint's output"
  [[ "$stderr$output" != *ConnectDistributed* ]] || fail "the JVM started"
}

# bats test_tags=short
@test "no key, password or private key material in any log or artifact" {
  local c s files=()
  workers_down 1
  for c in $(podman ps -a --format '{{.Names}}' | grep -E "^$BED_NAME-"); do
    podman logs "$c" >"$BED_DIR/sweep.$c.log" 2>&1 || true
  done
  # Every log and artifact the bed's tests left: containers' logs, workers' saved logs, and
  # mm2-offsets' files (INIs, connector JSON, exports, plans, backups).
  # (The brokers' own server.properties hold the bed's PLAIN users: a broker's config, not ours;
  # rest-auth/ holds the REST Secret's own files and the tests' .curlrc.)
  mapfile -t files < <(find "$BED_DIR" \( -path "$TLS" -o -path "$BED_DIR/rest-auth" -o -name "*.properties" \) -prune -o -type f -print)
  [ "${#files[@]}" -gt 2 ] || fail "nothing to sweep: ${files[*]}"
  run -0 grep -lE "security.protocol = SASL_SSL" "${files[@]}"
  for s in "$BED_CONNECT_PASSWORD" "$BED_SOURCE_PASSWORD" "$BED_TARGET_PASSWORD" "$BED_TLS_KEY_PASSWORD" "$BED_TLS_STORE_PASSWORD" wrong-password \
    "$BED_REST_PASSWORD" "$BED_REST_PROBE_PASSWORD" \
    "$(sed -n 2p "$TLS/ca.key")" "$(sed -n 2p "$TLS/client.key")" "$(sed -n 2p "$TLS/client-source.key")" \
    "$(sed -n 2p "$TLS/client-target.key")" "$(sed -n 2p "$TLS/source.pem")"; do
    [ ${#s} -ge 14 ] || fail "a sentinel is too short to search for: '$s'"
    run -1 grep -rlF -- "$s" "${files[@]}"
  done
}

# --- make tls-e2e only ---------------------------------------------------------------------

# Connect's Jetty checks the Host of each HTTPS request against the certificate it serves (its
# SecureRequestCustomizer's SNI host check), and forwarding addresses the leader by pod IP: the
# bed's REST certificate names every worker IP, as per-pod certificates would (docker/mm2/README.md).
@test "REST over HTTPS: a non-leader forwards to the leader's pod IP, which its certificate names" {
  local i leader other
  for i in 1 2; do BED_SECURITY=sasl_ssl BED_REST_HTTPS=1 ok "$BED" worker-start "$i"; done
  for i in 1 2; do BED_SECURITY=sasl_ssl BED_REST_HTTPS=1 ok "$BED" worker-wait "$i" 240; done
  # The advertised URL is https://<pod IP>:8088; the certificate names no pod IP.
  run -0 wait_for 60 bash -c "podman logs $(bed_worker_name 1) 2>&1 | grep -q \"leaderUrl='https://\""
  leader=$(podman logs "$(bed_worker_name 1)" 2>&1 | grep -o "leaderUrl='https://[0-9.]*:8088/'" | tail -n 1)
  leader=${leader#leaderUrl=\'https://}
  leader=$(worker_index_of "${leader%%:*}")
  other=$((3 - leader))
  BED_REST_HTTPS=1 run -0 rest_tls POST "$other" /connectors "$(tls_connector_json tls-https 'tls\\.https' sasl_ssl STOPPED)"
  assert_line --index 0 201
  BED_REST_HTTPS=1 run -0 rest_tls GET "$leader" /connectors/tls-https
  assert_line --index 0 200
  BED_REST_HTTPS=1 run -0 rest_tls DELETE "$other" /connectors/tls-https
  assert_line --index 0 204
  workers_down 1 2
  run -1 grep -i "SSLHandshakeException" "$BED_DIR/$(bed_worker_name "$other").log"
}
