#!/usr/bin/env bash
# The local bed: SOURCE and TARGET single-node KRaft clusters and N Connect
# workers, each a container of the mm2kit image on a test network of its own.
#
#   bed.sh up [N]            start everything (N workers, default 3); removes leftovers first
#   bed.sh down              keep every container's log in $BED_DIR/logs, remove all
#   bed.sh worker-start I [podman run args...] [-- command...]   start worker I (1..9)
#   bed.sh worker-wait I [SECONDS]               wait for worker I's /health 200 (before 3.9: /connectors)
#   bed.sh kit ARGS...       run bedkit.py (Kafka client) with the bed's credentials
#   bed.sh rest-url I PATH   the URL of worker I's REST PATH (https with BED_REST_HTTPS=1)
#   bed.sh rest-curl-args I  curl's options for that URL, one a line (CA, --connect-to)
#
# BED_SECURITY (bed.env) other than sasl_plaintext: a TLS bed (tls-certs.sh
# makes its CA in $BED_DIR/tls; brokers get SASL_SSL/SCRAM-SHA-512 and SSL
# listeners, SCRAM users added at format time); workers run the matching
# profile of docker/mm2/ with the TLS files mounted read-only, as a Secret would be.
#
# Every wait has a timeout.  Exit codes: 0 ok, 2 usage, 4 something did not come up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/bed/bed.env
. "$here/bed.env"
: "${BED_DIR:=$root/build/bed}"
: "${MM2KIT_CACHE:=/var/cache/mm2kit}"
PY=$MM2KIT_CACHE/venv/bin/python3

log() { printf 'bed: %s\n' "$*" >&2; }
die() { printf 'bed: error: %s\n' "$1" >&2; exit "${2:-4}"; }

# bedkit runs as the admin (the bed's set-up); its grants (docs/acls.md) need the clusters, the
# principals and the Kafka version, and flink-copy plays Flink as flink.  It is bounded by
# BED_KIT_TIMEOUT seconds (300): a producer or sampler meant to run longer must raise it, or it
# is SIGTERMed at 300 s, which a sampler does not survive and a producer ends cleanly on.
kit() {
  BEDKIT_SASL_USERNAME=$BED_ADMIN_USER BEDKIT_SASL_PASSWORD=$BED_ADMIN_PASSWORD \
    BEDKIT_ACL_PAGE="$root/$BED_ACL_PAGE" BEDKIT_SOURCE="$BED_SRC_BOOTSTRAP" BEDKIT_TARGET="$BED_TGT_BOOTSTRAP" \
    BEDKIT_PRINCIPALS="workers=User:$BED_CONNECT_USER,source=User:$BED_SOURCE_USER,target=User:$BED_TARGET_USER,flink=User:$BED_FLINK_USER" \
    BEDKIT_FLINK_USERNAME=$BED_FLINK_USER BEDKIT_FLINK_PASSWORD=$BED_FLINK_PASSWORD \
    BEDKIT_KAFKA_VERSION="${BED_KAFKA_VERSION:-}" \
    timeout "${BED_KIT_TIMEOUT:-300}" "$PY" "$here/bedkit.py" "$@"
}

owned() { podman ps -a --format '{{.Names}}' | grep -E "^$BED_NAME-" || true; }

save_logs() {
  mkdir -p "$BED_DIR/logs"
  local c
  for c in $(owned); do
    timeout 30 podman logs "$c" >"$BED_DIR/logs/$c.log" 2>&1 || true
  done
}

down() {
  save_logs
  local c
  for c in $(owned); do timeout 60 podman rm -f -t 5 "$c" >/dev/null 2>&1 || true; done
  if podman network exists "$BED_NET"; then podman network rm -f "$BED_NET" >/dev/null; fi
  drop_stale_rules
  # podman's CNI backend keeps a removed network's host-local IPAM state
  # (/var/lib/cni/networks/NAME): gone with the network, so down leaves the host as up found it.
  podman network exists "$BED_NET" || rm -rf "/var/lib/cni/networks/$BED_NET"
  rm -rf "$BED_DIR/data" "$(tls_dir)"
}

# drop_stale_rules: the forwarding rules podman's CNI firewall plugin left for this bed's
# addresses when a container's teardown could not run (a killed run): with the network gone,
# every rule naming an address of its subnet is stale.
drop_stale_rules() {
  local r a
  podman network exists "$BED_NET" && return 0
  { iptables -S CNI-FORWARD 2>/dev/null || true; } | { grep -F -- " ${BED_SUBNET%.0/24}." || true; } |
    while IFS= read -r r; do
      read -ra a <<<"${r#-A }"
      iptables -D "${a[@]}" 2>/dev/null || true
    done
  return 0
}

tls_bed() { [ "$BED_SECURITY" != sasl_plaintext ]; }
tls_dir() { printf '%s/tls' "$BED_DIR"; }

plain_users() { # " user_NAME=\"PASSWORD\"" for every bed user: the PLAIN login module's list
  local u
  for u in "${BED_USERS[@]}"; do printf ' user_%s="%s"' "${u%%:*}" "${u#*:}"; done
}

broker_props() { # name ip log-dir [node controller-ip]
  local node=${4:-1} ctrl=${5:-127.0.0.1} roles=broker,controller
  local listeners="SASL_PLAINTEXT://0.0.0.0:9092,CONTROLLER://$ctrl:9093"
  # A cluster of several brokers (BED_BROKERS): node 1 is the controller, on its own address.
  [ "$node" = 1 ] || { listeners="SASL_PLAINTEXT://0.0.0.0:9092"; roles=broker; }
  local advertised="SASL_PLAINTEXT://$2:9092"
  local map="CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT"
  if tls_bed; then
    listeners+=",SASL_SSL://0.0.0.0:$BED_SASL_SSL_PORT,SSL://0.0.0.0:$BED_SSL_PORT,WRONGHOST://0.0.0.0:$BED_WRONGHOST_PORT"
    advertised+=",SASL_SSL://$2:$BED_SASL_SSL_PORT,SSL://$2:$BED_SSL_PORT,WRONGHOST://$2:$BED_WRONGHOST_PORT"
    map+=",SASL_SSL:SASL_SSL,SSL:SSL,WRONGHOST:SSL"
  fi
  cat <<PROPS
process.roles=$roles
node.id=$node
controller.quorum.voters=1@$ctrl:9093
listeners=$listeners
advertised.listeners=$advertised
controller.listener.names=CONTROLLER
listener.security.protocol.map=$map
inter.broker.listener.name=SASL_PLAINTEXT
sasl.enabled.mechanisms=PLAIN
sasl.mechanism.inter.broker.protocol=PLAIN
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="$BED_ADMIN_USER" password="$BED_ADMIN_PASSWORD"$(plain_users);
log.dirs=$3
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
# A transaction past its transaction.timeout.ms is aborted within a second, not ten (the
# default): bedkit flink-copy --abort-last waits for it.
transaction.abort.timed.out.transaction.cleanup.interval.ms=1000
# The log cleaner looks for work every second, not every 15 (log.cleaner.backoff.ms):
# offsets_boundary.bats waits for a compacted source topic to be cleaned.
log.cleaner.backoff.ms=1000
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
log.retention.hours=-1
PROPS
  # Least privilege (docs/acls.md): nothing is allowed without an ACL, and
  # only the admin, which sets the bed up, is a super user.  The controller
  # listener is PLAINTEXT on the node's loopback (one broker) or the bed's
  # network (BED_BROKERS > 1): the nodes' own traffic, as User:ANONYMOUS.
  printf '%s\n' "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer" \
    "allow.everyone.if.no.acl.found=false" \
    "super.users=User:$BED_ADMIN_USER;User:ANONYMOUS"
  if tls_bed; then
    # SASL_SSL takes SCRAM-SHA-512 only (a PLAIN login there is refused); SSL
    # requires a client certificate; WRONGHOST presents a certificate whose
    # SAN is another address.  Keystores are PEM (KIP-651), the CA a PEM list.
    cat <<PROPS
listener.name.sasl_ssl.sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
ssl.keystore.type=PEM
ssl.keystore.location=/etc/bed/tls/$1.pem
ssl.truststore.type=PEM
ssl.truststore.location=/etc/bed/tls/ca.crt
listener.name.ssl.ssl.client.auth=required
listener.name.ssl.ssl.principal.mapping.rules=RULE:^CN=([a-z0-9-]+)\$/\$1/,DEFAULT
listener.name.wronghost.ssl.keystore.type=PEM
listener.name.wronghost.ssl.keystore.location=/etc/bed/tls/wronghost.pem
PROPS
  fi
}

# A Kafka 2.x SOURCE in ZooKeeper mode (BED_SRC_ZK_HOME): ZooKeeper and the broker in one
# container of the image (its Java), the 2.x distribution mounted read-only at /opt/kafka-zk.
zk_broker_props() { # ip
  cat <<PROPS
broker.id=1
zookeeper.connect=127.0.0.1:2181
listeners=SASL_PLAINTEXT://0.0.0.0:9092
advertised.listeners=SASL_PLAINTEXT://$1:9092
inter.broker.listener.name=SASL_PLAINTEXT
sasl.enabled.mechanisms=PLAIN
sasl.mechanism.inter.broker.protocol=PLAIN
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="$BED_ADMIN_USER" password="$BED_ADMIN_PASSWORD"$(plain_users);
log.dirs=/tmp/zk-broker-logs
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
log.retention.hours=-1
# Least privilege as on the KRaft brokers: ZooKeeper mode's authorizer (Kafka 2.4 and later).
authorizer.class.name=kafka.security.authorizer.AclAuthorizer
allow.everyone.if.no.acl.found=false
super.users=User:$BED_ADMIN_USER
PROPS
}

start_zk_broker() { # name ip
  local name=$1 ip=$2
  zk_broker_props "$ip" >"$BED_DIR/$name.properties"
  printf '%s\n' dataDir=/tmp/zookeeper clientPort=2181 clientPortAddress=127.0.0.1 \
    admin.enableServer=false maxClientCnxns=0 >"$BED_DIR/$name.zk.properties"
  chmod 0644 "$BED_DIR/$name.properties" "$BED_DIR/$name.zk.properties"
  podman run -d --name "$name" --hostname "$name" --network "$BED_NET" --ip "$ip" \
    --user 10001:10001 --read-only --tmpfs "/tmp:rw,size=$BED_BROKER_TMPFS,mode=1777" \
    --cap-drop ALL --security-opt no-new-privileges --memory "$BED_BROKER_MEMORY" \
    -v "$BED_DIR/$name.properties:/etc/bed/server.properties:ro" \
    -v "$BED_DIR/$name.zk.properties:/etc/bed/zookeeper.properties:ro" \
    -v "$BED_SRC_ZK_HOME:/opt/kafka-zk:ro" \
    -e KAFKA_HEAP_OPTS="-Xmx512m -Xms512m" -e LOG_DIR=/tmp \
    --entrypoint /bin/bash "$IMAGE" -c \
    "KAFKA_HEAP_OPTS=-Xmx128m /opt/kafka-zk/bin/kafka-run-class.sh -name zookeeper org.apache.zookeeper.server.quorum.QuorumPeerMain /etc/bed/zookeeper.properties >/tmp/zookeeper.out 2>&1 & exec /opt/kafka-zk/bin/kafka-server-start.sh /etc/bed/server.properties" \
    >/dev/null
}

cluster_id() { "$PY" -c 'import base64,uuid;print(base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("="))'; }

# A cluster of BED_BROKERS brokers: NAME, NAME-2, ...; broker 1 at IP is the controller.
start_cluster() { # name ip SRC|TGT [image]
  local b id
  if [ "$BED_BROKERS" = 1 ]; then
    start_broker "$1" "$2" "${4:-$IMAGE}"
    return
  fi
  id=$(cluster_id)
  start_broker "$1" "$2" "${4:-$IMAGE}" 1 "$2" "$id"
  for b in $(seq 2 "$BED_BROKERS"); do
    start_broker "$1-$b" "$(bed_broker_ip "$3" "$b")" "${4:-$IMAGE}" "$b" "$2" "$id"
  done
}

start_broker() { # name ip [image [node controller-ip cluster-id]]
  local name=$1 ip=$2 image=${3:-$IMAGE} node=${4:-1} ctrl=${5:-} id=${6:-} logs=/tmp/kraft-logs data=()
  [ -n "$id" ] || id=$(cluster_id)
  # BED_BROKER_DATA=1: the log on the host ($BED_DIR/data/NAME), so a broker
  # stopped or killed and started again (podman start) finds its data, as a
  # pod with a persistent volume does; format is skipped once done.
  if [ "$BED_BROKER_DATA" = 1 ]; then
    mkdir -p "$BED_DIR/data/$name"
    chown 10001:10001 "$BED_DIR/data/$name"
    logs=/var/lib/kafka/logs
    data=(-v "$BED_DIR/data/$name:/var/lib/kafka:rw")
  fi
  broker_props "${name##*-}" "$ip" "$logs" "$node" "${ctrl:-127.0.0.1}" >"$BED_DIR/$name.properties"
  chmod 0644 "$BED_DIR/$name.properties"
  local format="kafka-storage.sh format --ignore-formatted --cluster-id=$id -c /etc/bed/server.properties"
  if tls_bed; then
    data+=(-v "$(tls_dir):/etc/bed/tls:ro")
    # SCRAM credentials are KRaft metadata: written at format time (KIP-900).
    local u
    for u in "${BED_USERS[@]}"; do
      format+=" --add-scram 'SCRAM-SHA-512=[name=${u%%:*},password=${u#*:}]'"
    done
  fi
  podman run -d --name "$name" --hostname "$name" --network "$BED_NET" --ip "$ip" \
    --user 10001:10001 --read-only --tmpfs "/tmp:rw,size=$BED_BROKER_TMPFS,mode=1777" "${data[@]}" \
    --cap-drop ALL --security-opt no-new-privileges --memory "$BED_BROKER_MEMORY" \
    -v "$BED_DIR/$name.properties:/etc/bed/server.properties:ro" \
    -e KAFKA_HEAP_OPTS="-Xmx$BED_BROKER_HEAP -Xms$BED_BROKER_HEAP" \
    --entrypoint /bin/bash "$image" -c \
    "$format >/dev/null && exec kafka-server-start.sh /etc/bed/server.properties" \
    >/dev/null
}

# The environment a worker pod gets from the Deployment (the Secret and the
# Downward API supplied by hand, as podman cannot).
worker_env_args() { # i
  printf '%s\n' \
    -e "CONNECT_GROUP_ID=$BED_GROUP" \
    -e "CONNECT_CONFIG_STORAGE_TOPIC=$BED_CONFIG_TOPIC" \
    -e "CONNECT_OFFSET_STORAGE_TOPIC=$BED_OFFSET_TOPIC" \
    -e "CONNECT_STATUS_STORAGE_TOPIC=$BED_STATUS_TOPIC" \
    -e "POD_IP=$(bed_worker_ip "$1")" \
    -e "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS=$BED_REBALANCE_DELAY_MS" \
    -v "$BED_DIR/rest-auth/secret:/etc/mm2/rest-auth:ro"
  local d; d=$(tls_dir)
  case "$BED_SECURITY" in
    sasl_plaintext)
      printf '%s\n' -e "CONNECT_BOOTSTRAP_SERVERS=$BED_TGT_BOOTSTRAP" \
        -e "CONNECT_SASL_JAAS_CONFIG=$BED_JAAS" \
        -e "MM2_SOURCE_SASL_JAAS_CONFIG=$BED_SOURCE_JAAS" -e "MM2_TARGET_SASL_JAAS_CONFIG=$BED_TARGET_JAAS" ;;
    sasl_ssl)
      local profile=connect-mm2-sasl-ssl.properties
      [ "$BED_REST_HTTPS" = 1 ] && profile=connect-mm2-sasl-ssl-https.properties
      printf '%s\n' -e "MM2_WORKER_CONFIG=/etc/mm2/$profile" \
        -e "CONNECT_BOOTSTRAP_SERVERS=$BED_TGT_IP:$BED_SASL_SSL_PORT" \
        -e "CONNECT_SASL_JAAS_CONFIG=$BED_SCRAM_JAAS" \
        -e "MM2_SOURCE_SASL_JAAS_CONFIG=$BED_SOURCE_SCRAM_JAAS" -e "MM2_TARGET_SASL_JAAS_CONFIG=$BED_TARGET_SCRAM_JAAS" \
        -v "$d/mount/source:/etc/mm2/tls/source:ro" -v "$d/mount/target:/etc/mm2/tls/target:ro"
      if [ "$BED_REST_HTTPS" = 1 ]; then
        printf '%s\n' -e "MM2_REST_KEYSTORE_PASSWORD=$BED_TLS_STORE_PASSWORD" \
          -e "MM2_REST_TRUSTSTORE_PASSWORD=$BED_TLS_STORE_PASSWORD" \
          -v "$d/mount/rest:/etc/mm2/tls/rest:ro"
      fi ;;
    ssl)
      printf '%s\n' -e "MM2_WORKER_CONFIG=/etc/mm2/connect-mm2-mtls.properties" \
        -e "CONNECT_BOOTSTRAP_SERVERS=$BED_TGT_IP:$BED_SSL_PORT" \
        -e "MM2_WORKER_SSL_KEY_PASSWORD=$BED_TLS_KEY_PASSWORD" \
        -e "MM2_SOURCE_SSL_KEY_PASSWORD=$BED_TLS_KEY_PASSWORD" \
        -e "MM2_TARGET_SSL_KEY_PASSWORD=$BED_TLS_KEY_PASSWORD" \
        -v "$d/mount/worker:/etc/mm2/tls/worker:ro" \
        -v "$d/mount/source:/etc/mm2/tls/source:ro" -v "$d/mount/target:/etc/mm2/tls/target:ro" ;;
    *) die "BED_SECURITY must be sasl_plaintext, sasl_ssl or ssl, got '$BED_SECURITY'" 2 ;;
  esac
}

# The TLS files as the profiles expect them (docker/mm2/README.md): one
# directory per cluster and one for REST, as Secrets mounted there would be.
tls_make() {
  local d i workers=(); d=$(tls_dir)
  for i in 1 2 3 4 5 6 7 8 9; do workers+=("$(bed_worker_ip "$i")"); done
  BED_TLS_KEY_PASSWORD=$BED_TLS_KEY_PASSWORD BED_TLS_STORE_PASSWORD=$BED_TLS_STORE_PASSWORD \
    "$here/tls-certs.sh" "$d" "$BED_SRC_IP" "$BED_TGT_IP" "${workers[@]}"
  # Two identities on the target under the mTLS profile (docker/mm2/README.md, docs/acls.md):
  # the worker config's clients present the workers' own certificate (User:connect) from
  # /etc/mm2/tls/worker, the connector's target clients the target's (User:mm2-target) from
  # /etc/mm2/tls/target, its source clients the source's (User:mm2-source).
  mkdir -p "$d/mount/worker" "$d/mount/source" "$d/mount/target"
  cp "$d/ca.crt" "$d/mount/worker/ca.crt"
  cp "$d/ca.crt" "$d/mount/source/ca.crt"
  cp "$d/ca.crt" "$d/mount/target/ca.crt"
  cp "$d/client.pem" "$d/mount/worker/keystore.pem"
  cp "$d/client-source.pem" "$d/mount/source/keystore.pem"
  cp "$d/client-target.pem" "$d/mount/target/keystore.pem"
  mkdir -p "$d/mount/rest"
  cp "$d/rest.p12" "$d/mount/rest/keystore.p12"
  cp "$d/rest-trust.p12" "$d/mount/rest/truststore.p12"
  cp "$d/ca.crt" "$d/mount/rest/ca.crt"
  chmod -R a+rX "$d/mount"
}

# rest_url I PATH, and the curl options that reach it (CA, the certificate's name).
rest_url() {
  if [ "$BED_REST_HTTPS" = 1 ]; then
    printf 'https://%s:8088%s' "$BED_REST_HOST" "$2"
  else
    printf 'http://%s:8088%s' "$(bed_worker_ip "$1")" "$2"
  fi
}
rest_curl_args() { # i
  [ "$BED_REST_HTTPS" = 1 ] || return 0
  printf '%s\n' --cacert "$(tls_dir)/ca.crt" --connect-to "$BED_REST_HOST:8088:$(bed_worker_ip "$1"):8088"
}

worker_start() { # i [podman args...] [-- command...]
  local i=$1; shift
  local name; name=$(bed_worker_name "$i")
  local env_args=() extra=() cmd=()
  while [ $# -gt 0 ]; do
    if [ "$1" = -- ]; then shift; cmd=("$@"); break; fi
    extra+=("$1"); shift
  done
  mapfile -t env_args < <(worker_env_args "$i")
  timeout 60 podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  podman run -d --name "$name" --hostname "$name" --network "$BED_NET" --ip "$(bed_worker_ip "$i")" \
    "${BED_HOSTS[@]}" \
    --user 10001:10001 --read-only --tmpfs /tmp:rw,size=512m,mode=1777 \
    --cap-drop ALL --security-opt no-new-privileges --memory "$BED_WORKER_MEMORY" \
    "${env_args[@]}" "${extra[@]}" "$IMAGE" "${cmd[@]}" >/dev/null
}

# Ready as mm2-probe ready sees it: GET /health 200 (Kafka 3.9+, KIP-1017); where
# /health answers 404 (Kafka before 3.9), GET /connectors 200 (the herder serves).
worker_wait() { # i [seconds]
  local i=$1 t=${2:-180} url code args=()
  url=$(rest_url "$i" /health)
  mapfile -t args < <(rest_curl_args "$i")
  local end=$((SECONDS + t))
  while [ $SECONDS -lt $end ]; do
    code=$(curl -s "${args[@]}" -o /dev/null -m 5 -w '%{http_code}' "$url" || true)
    [ "$code" = 200 ] && return 0
    if [ "$code" = 404 ]; then
      code=$(curl -s -o /dev/null -m 5 -w '%{http_code}' "${url%/health}/connectors" || true)
      [ "$code" = 200 ] && return 0
    fi
    if [ "$(podman inspect -f '{{.State.Running}}' "$(bed_worker_name "$i")" 2>/dev/null)" != true ]; then
      save_logs; die "worker $i exited before /health answered 200; see $BED_DIR/logs/$(bed_worker_name "$i").log"
    fi
    sleep 1
  done
  save_logs
  die "worker $i: $url did not answer 200 within ${t}s (last: ${code:-none}); see $BED_DIR/logs/"
}

up() {
  local n=${1:-3} t0=$SECONDS i
  [ -x "$PY" ] || die "the bed's Python tools are missing; run 'make deps'" 3
  podman image exists "$IMAGE" || die "image $IMAGE not found; run 'make image'" 3
  case $BED_BROKERS in [1-9]) ;; *) die "BED_BROKERS=$BED_BROKERS: give 1 to 9" 2 ;; esac
  if [ "$BED_BROKERS" != 1 ] && { tls_bed || [ -n "$BED_SRC_ZK_HOME" ]; }; then
    die "BED_BROKERS=$BED_BROKERS: several brokers are for a SASL_PLAINTEXT KRaft bed only" 2
  fi
  down
  mkdir -p "$BED_DIR"
  bed_rest_auth_files "$BED_DIR/rest-auth"
  if tls_bed; then log "making the TLS bed's CA and certificates in $(tls_dir)"; tls_make; fi
  podman network create --subnet "$BED_SUBNET" --gateway "$BED_GW" "$BED_NET" >/dev/null
  log "starting SOURCE ($BED_SRC_IP) and TARGET ($BED_TGT_IP) KRaft brokers$([ "$BED_BROKERS" = 1 ] || echo " ($BED_BROKERS a cluster)")"
  if [ -n "$BED_SRC_ZK_HOME" ]; then
    [ -x "$BED_SRC_ZK_HOME/bin/kafka-server-start.sh" ] || die "BED_SRC_ZK_HOME=$BED_SRC_ZK_HOME holds no bin/kafka-server-start.sh" 3
    log "SOURCE: Kafka $(cat "$BED_SRC_ZK_HOME/VERSION.mm2kit-bed" 2>/dev/null || echo '?') with ZooKeeper"
    start_zk_broker "$BED_SRC" "$BED_SRC_IP"
  else
    [ "$BED_SRC_IMAGE" = "$IMAGE" ] || podman image exists "$BED_SRC_IMAGE" || die "BED_SRC_IMAGE $BED_SRC_IMAGE not found" 3
    start_cluster "$BED_SRC" "$BED_SRC_IP" SRC "$BED_SRC_IMAGE"
  fi
  start_cluster "$BED_TGT" "$BED_TGT_IP" TGT
  kit wait --bootstrap "$BED_SRC_BOOTSTRAP" --brokers "$BED_BROKERS" --timeout 180 || { save_logs; die "SOURCE broker did not start; see $BED_DIR/logs/"; }
  kit wait --bootstrap "$BED_TGT_BOOTSTRAP" --brokers "$BED_BROKERS" --timeout 180 || { save_logs; die "TARGET broker did not start; see $BED_DIR/logs/"; }
  # Internal topics ahead of time, compacted, config topic single-partition
  # (docs/ARCHITECTURE.md §3.1): factor 1 here, the image keeps 3.
  kit create-topics --no-grant --bootstrap "$BED_TGT_BOOTSTRAP" \
    "$BED_CONFIG_TOPIC:1:compact" "$BED_OFFSET_TOPIC:25:compact" "$BED_STATUS_TOPIC:5:compact"
  # The workers' own rows of docs/acls.md; each topic's rows come with the topic
  # (bedkit create-topics), the Flink group's with Flink's first commit.
  kit grant --role workers --name "worker group=$BED_GROUP" --name "config topic=$BED_CONFIG_TOPIC" \
    --name "offsets topic=$BED_OFFSET_TOPIC" --name "status topic=$BED_STATUS_TOPIC" --name "target alias=target" >/dev/null ||
    die "granting the workers' ACLs failed"
  # mm2-offsets' audit trail (docs/ARCHITECTURE.md §3.4): the [target] login's rows.
  kit grant --role target --name "trail topic=mm2kit.trail" >/dev/null || die "granting the trail's ACLs failed"
  # The cutover's logins' rows named by the target alias alone (the offset-syncs topic).
  for role in source target; do
    kit grant --role "$role" --name "target alias=target" >/dev/null || die "granting the $role ACLs failed"
  done
  log "brokers up in $((SECONDS - t0)) s; starting $n workers"
  for i in $(seq 1 "$n"); do worker_start "$i"; done
  for i in $(seq 1 "$n"); do worker_wait "$i" 240; done
  log "bed up in $((SECONDS - t0)) s: $n workers healthy"
}

case "${1:-}" in
  up) shift; up "$@" ;;
  down) down ;;
  worker-start) shift; worker_start "$@" ;;
  worker-wait) shift; worker_wait "$@" ;;
  kit) shift; kit "$@" ;;
  rest-url) shift; rest_url "$@" ;;
  rest-curl-args) shift; rest_curl_args "$@" ;;
  *) printf 'usage: bed.sh up [N] | down | worker-start I [ARGS] | worker-wait I [S] | kit ARGS | rest-url I PATH\n' >&2; exit 2 ;;
esac
