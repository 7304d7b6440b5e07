#!/usr/bin/env bash
# bench/replication: records/s and MB/s through MirrorSourceConnector on the bed, beside the
# raw limit of the same brokers measured in the same run with Kafka's own perf tools from the
# image's jars, and beside stock Connect producer defaults; and the same copy over SASL_SSL
# with SCRAM-SHA-512 (the image's connect-mm2-sasl-ssl.properties profile) beside it.  Same
# records (count and size) for every path.  Figures, not a test.
#
#   bench/replication/run.sh [--keep]
#   env: BENCH_RECORDS (300000), BENCH_RECORD_SIZE (512), BENCH_PARTITIONS (6)
#
# Its own bed (BED_NAME mm2kit-bench, 198.18.12.0/24, build/bench-replication): SOURCE and
# TARGET brokers (a TLS bed: SASL_PLAINTEXT/PLAIN on 9092 and SASL_SSL/SCRAM-SHA-512 on 9094,
# a CA made for the run) and one worker of the image at a time.  The brokers keep their logs
# on tmpfs, so they get BED_BROKER_MEMORY=3g.
#   1. raw producer: kafka-producer-perf-test.sh into the source, Kafka's defaults (acks=all),
#      then again with the image's producer settings (into a second topic);
#   2. raw consumer: kafka-consumer-perf-test.sh out of the source (fetch rate, no group join);
#   3. MM2 with the image's worker settings: a connector copies the N records to the target;
#   4. MM2 with stock Connect defaults: the same, its producer set back to what Connect gives a
#      source task without the image's producer.* lines (connector client overrides);
#   5. over SASL_SSL/SCRAM-SHA-512: the raw producer with the image's settings, then a worker of
#      the sasl-ssl profile (in place of the first) copying with the image's settings, its
#      connector's clients over SASL_SSL too (docker/mm2/connectors/sasl-ssl.json).
# Exit codes: 0 figures printed, 2 usage, 3 tools or image missing, 4 a step failed.
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
keep=
case "${1:-}" in
  --keep) keep=1 ;;
  "") ;;
  -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) printf 'bench/replication: unknown option %s\n' "$1" >&2; exit 2 ;;
esac
export BED_NAME=${BED_NAME:-mm2kit-bench} BED_OCTET=${BED_OCTET:-12} BED_DIR=${BED_DIR:-$root/build/bench-replication}
export BED_BROKER_MEMORY=${BED_BROKER_MEMORY:-3g} BED_SECURITY=sasl_ssl
case $BED_NAME in mm2kit-bed*) printf 'bench/replication: BED_NAME %s is the e2e bed'"'"'s\n' "$BED_NAME" >&2; exit 2 ;; esac
# shellcheck source=tests/bed/bed.env
. "$root/tests/bed/bed.env"
N=${BENCH_RECORDS:-300000}
S=${BENCH_RECORD_SIZE:-512}
P=${BENCH_PARTITIONS:-6}
BED=$root/tests/bed/bed.sh
W=$BED_DIR
log() { printf 'bench/replication: %s\n' "$*" >&2; }
die() { printf 'bench/replication: error: %s\n' "$1" >&2; exit "${2:-4}"; }
timeout 60 podman image exists "$IMAGE" || die "image $IMAGE not found; run make image" 3

finish() {
  local rc=$?
  trap - EXIT
  [ -n "$keep" ] || timeout 300 "$BED" down >/dev/null 2>&1 || true
  exit "$rc"
}
trap finish EXIT
timeout 300 "$BED" down >/dev/null 2>&1 || true
rm -rf "$W"
mkdir -p "$W"
log "bed $BED_NAME: brokers (SASL_PLAINTEXT and SASL_SSL) and one worker of $IMAGE"
timeout 400 "$BED" up 0 >"$W/up.log" 2>&1 || { cat "$W/up.log" >&2; die "the bed did not come up"; }
# worker I SECURITY: start worker I of the profile for SECURITY and wait for its REST API. The
# stock baseline is a connector's producer overrides, which the image's profiles refuse
# (connector.client.config.override.policy=None): the bench's workers run the same profile with
# the policy All, and nothing else changed.
worker() {
  local profile=connect-mm2.properties
  [ "$2" = sasl_ssl ] && profile=connect-mm2-sasl-ssl.properties
  sed 's/^connector\.client\.config\.override\.policy=None$/connector.client.config.override.policy=All/' \
    "$root/docker/mm2/$profile" >"$W/$profile"
  grep -qx 'connector.client.config.override.policy=All' "$W/$profile" || die "docker/mm2/$profile no longer sets the policy None"
  chmod 0644 "$W/$profile"
  if ! BED_SECURITY=$2 timeout 120 "$BED" worker-start "$1" -v "$W/$profile:/etc/mm2/$profile:ro" >>"$W/up.log" 2>&1 ||
    ! BED_SECURITY=$2 timeout 300 "$BED" worker-wait "$1" 240 >>"$W/up.log" 2>&1; then
    cat "$W/up.log" >&2
    die "worker $1 ($2) did not come up"
  fi
}
worker 1 sasl_plaintext
SRC=$BED_SRC_BOOTSTRAP TGT=$BED_TGT_BOOTSTRAP
SRC_TLS=$BED_SRC_IP:$BED_SASL_SSL_PORT TGT_TLS=$BED_TGT_IP:$BED_SASL_SSL_PORT
kit() { timeout 900 "$BED" kit "$@"; }
kit create-topics --bootstrap "$SRC" "bench.src:$P" "bench.raw2:$P" "bench.raw3:$P" >/dev/null
kit create-topics --bootstrap "$TGT" "img.bench.src:$P" "stock.bench.src:$P" "tls.bench.src:$P" >/dev/null

# tool NAME ARGS...: a Kafka tool from the image's jars in a container on the bed, with the
# SASL settings in a file on the container's tmpfs (the password never lands on disk here).
# BENCH_TLS=1: over SASL_SSL with SCRAM-SHA-512, trusting the bed's CA.
# The raw producer and consumer stand for the source's applications, the baseline MM2 is set
# against, not for a client of mm2kit: they log in as the bed's admin.
tool() {
  local t=$1
  shift
  timeout 900 podman run --rm --network "$BED_NET" --user 10001:10001 --read-only --tmpfs /tmp:rw,size=64m,mode=1777 \
    --cap-drop ALL --security-opt no-new-privileges --memory 1g -e "BENCH_JAAS=$(bed_jaas plain "$BED_ADMIN_USER" "$BED_ADMIN_PASSWORD")" \
    -e "BENCH_SCRAM_JAAS=$(bed_jaas scram "$BED_ADMIN_USER" "$BED_ADMIN_PASSWORD")" -e "BENCH_TLS=${BENCH_TLS:-0}" -v "$BED_DIR/tls/ca.crt:/etc/bench/ca.crt:ro" \
    --entrypoint /bin/sh "$IMAGE" -c 'if [ "$BENCH_TLS" = 1 ]; then
        printf "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=%s\nssl.truststore.type=PEM\nssl.truststore.location=/etc/bench/ca.crt\n" "$BENCH_SCRAM_JAAS"
      else
        printf "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=%s\n" "$BENCH_JAAS"
      fi >/tmp/client.properties && exec "$@"' \
    sh "$t" "$@"
}
IMAGE_PRODUCER=(acks=all enable.idempotence=true max.in.flight.requests.per.connection=5 compression.type=lz4 linger.ms=20 batch.size=262144)

log "raw producer, Kafka's defaults: $N records of $S B into bench.src"
tool kafka-producer-perf-test.sh --topic bench.src --num-records "$N" --record-size "$S" --throughput -1 \
  --producer-props "bootstrap.servers=$SRC" acks=all --command-config /tmp/client.properties >"$W/raw-producer.out" 2>"$W/raw-producer.err" ||
  die "kafka-producer-perf-test.sh failed: $(tail -n 3 "$W/raw-producer.err")"
log "raw producer, the image's producer settings: $N records into bench.raw2"
tool kafka-producer-perf-test.sh --topic bench.raw2 --num-records "$N" --record-size "$S" --throughput -1 \
  --producer-props "bootstrap.servers=$SRC" "${IMAGE_PRODUCER[@]}" --command-config /tmp/client.properties \
  >"$W/raw-producer-image.out" 2>"$W/raw-producer-image.err" || die "kafka-producer-perf-test.sh failed: $(tail -n 3 "$W/raw-producer-image.err")"
log "raw producer over SASL_SSL/SCRAM-SHA-512, the image's producer settings: $N records into bench.raw3"
BENCH_TLS=1 tool kafka-producer-perf-test.sh --topic bench.raw3 --num-records "$N" --record-size "$S" --throughput -1 \
  --producer-props "bootstrap.servers=$SRC_TLS" "${IMAGE_PRODUCER[@]}" --command-config /tmp/client.properties \
  >"$W/raw-producer-tls.out" 2>"$W/raw-producer-tls.err" || die "kafka-producer-perf-test.sh over SASL_SSL failed: $(tail -n 3 "$W/raw-producer-tls.err")"
log "raw consumer: $N records out of bench.src"
tool kafka-consumer-perf-test.sh --bootstrap-server "$SRC" --topic bench.src --num-records "$N" --timeout 60000 \
  --command-config /tmp/client.properties >"$W/raw-consumer.out" 2>"$W/raw-consumer.err" ||
  die "kafka-consumer-perf-test.sh failed: $(tail -n 3 "$W/raw-consumer.err")"

# The connector: the rehearsal's settings, a source alias per run so each copies to a topic
# of its own (DefaultReplicationPolicy: ALIAS.bench.src); EXTRA adds client overrides.
connector() { # NAME ALIAS EXTRA_JSON
  jq -n --arg name "$1" --arg alias "$2" --argjson extra "$3" --arg src "${CONN_SRC:-$SRC}" --arg tgt "${CONN_TGT:-$TGT}" '{name: $name, config: ({
    "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector", "tasks.max": "3",
    "source.cluster.alias": $alias, "target.cluster.alias": "target",
    "source.cluster.bootstrap.servers": $src, "target.cluster.bootstrap.servers": $tgt,
    "source.cluster.security.protocol": "SASL_PLAINTEXT", "source.cluster.sasl.mechanism": "PLAIN",
    "source.cluster.sasl.jaas.config": "${env:MM2_SOURCE_SASL_JAAS_CONFIG}",
    "target.cluster.security.protocol": "SASL_PLAINTEXT", "target.cluster.sasl.mechanism": "PLAIN",
    "target.cluster.sasl.jaas.config": "${env:MM2_TARGET_SASL_JAAS_CONFIG}",
    "topics": "bench\\.src",
    "replication.policy.class": "org.apache.kafka.connect.mirror.DefaultReplicationPolicy",
    "emit.offset-syncs.enabled": "false",
    "sync.topic.configs.enabled": "false", "sync.topic.acls.enabled": "false",
    "refresh.topics.enabled": "true", "refresh.topics.interval.seconds": "60",
    "source.consumer.auto.offset.reset": "earliest", "source.consumer.isolation.level": "read_committed",
    "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"} + $extra)}'
}
url="http://$(bed_worker_ip 1):8088"
worker_log=$(bed_worker_name 1)
mm2() { # NAME ALIAS EXTRA_JSON: runs the connector until the target holds all N, then deletes it
  local code
  connector "$1" "$2" "$3" >"$W/$1.json"
  code=$(curl -s -m 60 -o "$W/$1.post" -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data @"$W/$1.json" "$url/connectors")
  [ "$code" = 201 ] || die "POST /connectors $1: HTTP $code: $(cat "$W/$1.post")"
  kit watch --bootstrap "$TGT" --topic "$2.bench.src" --count "$N" --interval 0.1 --timeout 900 >"$W/$1.watch" ||
    die "$1: the target did not get $N records"
  curl -s -m 60 -o /dev/null -X DELETE "$url/connectors/$1"
}
log "MM2, the image's worker settings: $N records to img.bench.src"
mm2 bench-img img '{}'
# What Connect gives a source task's producer without the image's producer.* lines
# (Worker.baseProducerConfigs): idempotence off, acks=all, one request in flight, and the
# producer's own defaults for the rest (Kafka 4: linger.ms 5, batch.size 16384, no compression).
STOCK='{"producer.override.enable.idempotence": "false", "producer.override.acks": "all",
  "producer.override.max.in.flight.requests.per.connection": "1", "producer.override.compression.type": "none",
  "producer.override.linger.ms": "5", "producer.override.batch.size": "16384"}'
log "MM2, stock Connect producer defaults: $N records to stock.bench.src"
mm2 bench-stock stock "$STOCK"
# The producer settings each run really had, from the worker's log (ProducerConfig values).
timeout 60 podman logs "$worker_log" >"$W/worker.log" 2>&1 || true

# Over SASL_SSL: a worker of the sasl-ssl profile in place of the first (its own Kafka clients
# over SASL_SSL too), the connector's clients over SASL_SSL/SCRAM with the profile's CA paths.
timeout 90 podman rm -f -t 10 "$worker_log" >/dev/null 2>&1 || true
worker 2 sasl_ssl
url="http://$(bed_worker_ip 2):8088"
TLS_CLIENTS=$(jq -c '.config | with_entries(select(.key | test("^(source|target)\\.cluster\\.(security|sasl|ssl)")))' \
  "$root/docker/mm2/connectors/sasl-ssl.json")
log "MM2 over SASL_SSL/SCRAM-SHA-512, the image's worker settings: $N records to tls.bench.src"
CONN_SRC=$SRC_TLS CONN_TGT=$TGT_TLS mm2 bench-tls tls "$TLS_CLIENTS"
timeout 60 podman logs "$(bed_worker_name 2)" >"$W/worker-tls.log" 2>&1 || true
kafka=$(timeout 60 podman run --rm --entrypoint sh "$IMAGE" -c 'ls /opt/kafka/libs | sed -n "s/^kafka-clients-\(.*\)\.jar$/\1/p"')
python3 "$here/table.py" "$W" "$N" "$S" "$P" "$kafka" "$(nproc)"
