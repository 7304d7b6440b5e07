#!/usr/bin/env bash
# bench/replication: MirrorSourceConnector against the raw pipeline of the same security
# profile, measured side by side in one run on the same brokers.  Figures, not a test.
#
#   bench/replication/run.sh [--keep]
#   env: BENCH_RECORDS (1000000), BENCH_RECORD_SIZE (512), BENCH_PARTITIONS (6),
#        BENCH_PROFILES ("sasl_plaintext sasl_ssl ssl"), BENCH_LATENCY_SECONDS (12),
#        BENCH_LATENCY_SHARES ("2 4": latency at 1/2 and 1/4 of the slower copier's rate; "" for none),
#        BENCH_CATCHUP_PAUSE (120 s), BENCH_CATCHUP_SHARE (10: the input at 1/10 of MM2's rate),
#        BENCH_CATCHUP (0: no catch-up), BENCH_CATCHUP_REPEAT (1: catch-ups, each between two
#        timed MM2 copies, its maximum then),
#        BENCH_SIZING ("1 2 6": tasks.max beside the 3 of every profile; "" for none),
#        BENCH_REPEAT (3: timed copies of the pipe and of MM2 per profile, interleaved),
#        BENCH_JFR (1: Flight Recorder profiles of the workers and the pipe into build/bench-replication/jfr,
#        read by bench/replication/jfr-top.py; they cost a few per cent)
#
# The raw pipeline is Pipe.java (beside this script): Kafka's own Java clients from the image's
# jars, compiled here, with the clients' settings of the image and the connector (the image's
# producer.* lines; a source consumer as MirrorSourceTask makes it), copying with one consumer
# and one producer per thread like a task, 3 threads like tasks.max 3, consuming and producing
# at the same time on the same 2 cores.  Every copier logs in as the connector's principals.
#
# Its own bed (BED_NAME mm2kit-bench, 198.18.12.0/24, build/bench-replication): SOURCE and
# TARGET brokers of a TLS bed (SASL_PLAINTEXT/PLAIN 9092, SASL_SSL/SCRAM-SHA-512 9094, SSL with
# client certificates 9095), logs on a 6 GiB tmpfs, and one worker of the image at a time.
#   1. raw producer (Kafka's defaults, then the image's settings) into bench.src, raw consumer;
#   2. per profile: a worker of its docker/mm2/ profile; the pipe copies the N records, then
#      MM2 (tasks.max 3) does; records/s from the first record on the target to the last
#      (kit watch, 0.1 s), CPU seconds per million records (the worker's cgroup; the pipe's JVM);
#   3. per profile, latency at 1/2 and 1/4 of the slower copier's rate: a steady input for
#      BENCH_LATENCY_SECONDS into a fresh topic, copied live by MM2, then by the pipe; per record
#      the target's LogAppendTime minus the source's (both topics LogAppendTime; MirrorMaker
#      keeps CreateTime), p50/p99/max;
#   4. SASL_PLAINTEXT: stock Connect producer defaults; catch-up (a steady input, MM2 stopped
#      for BENCH_CATCHUP_PAUSE s and resumed, the lag sampled every 0.25 s, each partition's
#      too; against MM2's maximum timed right before and right after it); tasks.max sizing.
# Exit codes: 0 figures printed, 2 usage, 3 tools or image missing, 4 a step failed.
# shellcheck disable=SC2016 # jq programs and the container's sh -c are single-quoted on purpose
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
keep=
case "${1:-}" in
  --keep) keep=1 ;;
  "") ;;
  -h | --help) sed -n '2,/^# Exit codes/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) printf 'bench/replication: unknown option %s\n' "$1" >&2; exit 2 ;;
esac
export BED_NAME=${BED_NAME:-mm2kit-bench} BED_OCTET=${BED_OCTET:-12} BED_DIR=${BED_DIR:-$root/build/bench-replication}
export BED_BROKER_MEMORY=${BED_BROKER_MEMORY:-7g} BED_BROKER_TMPFS=${BED_BROKER_TMPFS:-6g} BED_SECURITY=sasl_ssl
case $BED_NAME in mm2kit-bed*) printf 'bench/replication: BED_NAME %s is the e2e bed'"'"'s\n' "$BED_NAME" >&2; exit 2 ;; esac
# shellcheck source=tests/bed/bed.env
. "$root/tests/bed/bed.env"
N=${BENCH_RECORDS:-1000000}
S=${BENCH_RECORD_SIZE:-512}
P=${BENCH_PARTITIONS:-6}
PROFILES=${BENCH_PROFILES:-sasl_plaintext sasl_ssl ssl}
LAT_S=${BENCH_LATENCY_SECONDS:-12}
LAT_SHARES=${BENCH_LATENCY_SHARES-2 4}
LAT_SKIP_MS=3000 # the first 3 s of each latency input left out: the pipe's JVM compiling
CU_PAUSE=${BENCH_CATCHUP_PAUSE:-120}
CU_SHARE=${BENCH_CATCHUP_SHARE:-10}
CU_REPEAT=${BENCH_CATCHUP_REPEAT:-1}
SIZING=${BENCH_SIZING-1 2 6}
REPEAT=${BENCH_REPEAT:-3}
for v in "$N" "$S" "$P" "$LAT_S" "$CU_PAUSE" "$CU_SHARE" "$CU_REPEAT" "$REPEAT"; do
  case $v in '' | *[!0-9]* | 0) printf 'bench/replication: %s is not a positive integer\n' "$v" >&2; exit 2 ;; esac
done
for v in $LAT_SHARES; do
  case $v in '' | *[!0-9]* | 0) printf 'bench/replication: BENCH_LATENCY_SHARES: %s is not a positive integer\n' "$v" >&2; exit 2 ;; esac
done
for p in $PROFILES; do
  case $p in sasl_plaintext | sasl_ssl | ssl) ;; *) printf 'bench/replication: profile %s: sasl_plaintext, sasl_ssl or ssl\n' "$p" >&2; exit 2 ;; esac
done
BED=$root/tests/bed/bed.sh
W=$BED_DIR
log() { printf 'bench/replication: %s\n' "$*" >&2; }
die() { printf 'bench/replication: error: %s\n' "$1" >&2; exit "${2:-4}"; }
command -v javac >/dev/null || die "javac not found (scripts/deps.sh installs openjdk-17-jdk-headless)" 3
timeout 60 podman image exists "$IMAGE" || die "image $IMAGE not found; run make image" 3

finish() {
  local rc=$?
  trap - EXIT
  timeout 60 podman rm -f -t 0 "$BED_NAME-pipe" "$BED_NAME-lag" >/dev/null 2>&1 || true
  [ -n "$keep" ] || timeout 300 "$BED" down >/dev/null 2>&1 || true
  exit "$rc"
}
trap finish EXIT
timeout 300 "$BED" down >/dev/null 2>&1 || true
rm -rf "$W"
mkdir -p "$W/pipe" "$W/lib" "$W/jfr"
chmod 0777 "$W/jfr" # the worker and the pipe (UID 10001) write their recordings there
# Pipe.java against the image's own kafka-clients.
cid=$(timeout 60 podman create "$IMAGE")
jar=$(timeout 60 podman run --rm --entrypoint sh "$IMAGE" -c 'cd /opt/kafka/libs && ls kafka-clients-*.jar')
timeout 60 podman cp "$cid:/opt/kafka/libs/$jar" "$W/lib/" >/dev/null
timeout 60 podman rm "$cid" >/dev/null
timeout 120 javac --release 17 -cp "$W/lib/$jar" -d "$W/pipe" "$here/Pipe.java" || die "javac Pipe.java failed" 3
# The pipe's log: warnings and errors on stderr (kafka-run-class.sh would log INFO to stdout,
# where the pipe writes its figures).
printf '%s\n' 'status = error' 'appender.err.type = Console' 'appender.err.name = STDERR' \
  'appender.err.target = SYSTEM_ERR' 'appender.err.layout.type = PatternLayout' \
  'appender.err.layout.pattern = [%d] %p %m (%c)%n' 'rootLogger.level = WARN' \
  'rootLogger.appenderRef.err.ref = STDERR' >"$W/pipe/log4j2.properties"
chmod -R a+rX "$W/pipe"
log "bed $BED_NAME: TLS brokers (9092, 9094, 9095), $BED_BROKER_TMPFS of log each"
# The records' values: 20,000 lines of 512 random capital letters, as kafka-producer-perf-test.sh
# makes a value (as compressible), drawn at random per record (--payload-file): the tool then no
# longer draws 512 random numbers a record, which on 2 cores took the CPU the copiers measure.
mkdir -p "$W/payloads"
python3 -c 'import os, sys
n, s = int(sys.argv[1]), int(sys.argv[2])
t = bytes(65 + b % 26 for b in range(256))
with open(sys.argv[3], "wb") as f:
    for _ in range(n):
        f.write(os.urandom(s).translate(t) + b"\n")' 20000 "$S" "$W/payloads/values.txt"
chmod -R a+rX "$W/payloads"
timeout 400 "$BED" up 0 >"$W/up.log" 2>&1 || { cat "$W/up.log" >&2; die "the bed did not come up"; }
SRC=$BED_SRC_BOOTSTRAP TGT=$BED_TGT_BOOTSTRAP
kit() { timeout 900 "$BED" kit "$@"; }
LAT=(--config message.timestamp.type=LogAppendTime)
kit create-topics --bootstrap "$SRC" "${LAT[@]}" "bench.src:$P" "bench.raw2:$P" >/dev/null

# tool NAME ARGS...: a Kafka tool from the image's jars in a container on the bed, as the
# admin over SASL_PLAINTEXT (the source's own applications, not a client of mm2kit).
tool() {
  local t=$1
  shift
  timeout 900 podman run --rm --network "$BED_NET" --user 10001:10001 --read-only --tmpfs /tmp:rw,size=64m,mode=1777 \
    --cap-drop ALL --security-opt no-new-privileges --memory 1g -v "$W/payloads:/etc/bench/payloads:ro" -e "BENCH_JAAS=$(bed_jaas plain "$BED_ADMIN_USER" "$BED_ADMIN_PASSWORD")" \
    --entrypoint /bin/sh "$IMAGE" -c 'printf "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=%s\n" "$BENCH_JAAS" >/tmp/client.properties && exec "$@"' \
    sh "$t" "$@"
}
IMAGE_PRODUCER=(acks=all enable.idempotence=true max.in.flight.requests.per.connection=5 compression.type=lz4 linger.ms=20 batch.size=262144)
produce() { # TOPIC COUNT RATE OUT: the source's application, the image's producer settings
  tool kafka-producer-perf-test.sh --topic "$1" --num-records "$2" --payload-file /etc/bench/payloads/values.txt --throughput "$3" \
    --producer-props "bootstrap.servers=$SRC" "${IMAGE_PRODUCER[@]}" --command-config /tmp/client.properties >"$4.out" 2>"$4.err" ||
    die "kafka-producer-perf-test.sh into $1 failed: $(tail -n 3 "$4.err")"
}
drop() { # CLUSTER_BOOTSTRAP TOPIC...: frees the tmpfs
  local b=$1 t
  shift
  for t in "$@"; do
    tool kafka-topics.sh --bootstrap-server "$b" --command-config /tmp/client.properties --delete --topic "$t" >/dev/null 2>&1 || true
  done
}

log "raw producer, Kafka's defaults: $N records of $S B into bench.raw2"
tool kafka-producer-perf-test.sh --topic bench.raw2 --num-records "$N" --payload-file /etc/bench/payloads/values.txt --throughput -1 \
  --producer-props "bootstrap.servers=$SRC" acks=all --command-config /tmp/client.properties >"$W/raw-producer.out" 2>"$W/raw-producer.err" ||
  die "kafka-producer-perf-test.sh failed: $(tail -n 3 "$W/raw-producer.err")"
drop "$SRC" bench.raw2
log "raw producer, the image's producer settings: $N records into bench.src (every copy's input)"
produce bench.src "$N" -1 "$W/raw-producer-image"
log "raw consumer: $N records out of bench.src"
tool kafka-consumer-perf-test.sh --bootstrap-server "$SRC" --topic bench.src --num-records "$N" --timeout 60000 \
  --command-config /tmp/client.properties >"$W/raw-consumer.out" 2>"$W/raw-consumer.err" ||
  die "kafka-consumer-perf-test.sh failed: $(tail -n 3 "$W/raw-consumer.err")"

# . "$here/profile.sh": worker, pipe, connector and mm2 for the profile in $PROF.
# shellcheck source=bench/replication/profile.sh
. "$here/profile.sh"

# The brokers compiled first: every profile's pipe once, untimed (a copy warm and a copy
# timed each), so that the first profile measured does not pay for their JIT.
for PROF in $PROFILES; do
  log "warming the brokers over $PROF (the pipe, untimed)"
  pipe_copy "$PROF" bench.src "$N" warm
done
i=0
for PROF in $PROFILES; do
  i=$((i + 1))
  log "profile $PROF: a worker of its profile"
  worker "$i"
  # Two copies first, untimed, so that every timed one runs compiled code, as a worker's tasks
  # do after their first minutes (the pipe does the same in its own JVM: Pipe copy ... WARM_TO).
  mm2_copy "$PROF" "warm$i" '{}'
  mm2_copy "$PROF" "warm$i-2" '{}'
  # REPEAT runs of each, interleaved (odd runs the pipe first, even runs MM2 first): on 2 cores
  # shared with both brokers one run varies by a fifth; table.py prints the medians and spread.
  for r in $(seq 1 "$REPEAT"); do
    if [ $((r % 2)) = 1 ]; then
      pipe_copy "$PROF" bench.src "$N" "$r"
      mm2_copy "$PROF" "$PROF-$r" '{}'
    else
      mm2_copy "$PROF" "$PROF-$r" '{}'
      pipe_copy "$PROF" bench.src "$N" "$r"
    fi
  done
  rate=$(python3 "$here/table.py" --rate "$W"/mm2-"$PROF"-*.watch)
  prate=$(python3 "$here/table.py" --rate "$W"/pipe-"$PROF"-*.watch)
  for share in $LAT_SHARES; do
    lrate=$(((rate < prate ? rate : prate) / share))
    log "$PROF latency at $lrate records/s (1/$share of the slower: MM2 $rate, the pipe $prate) for $LAT_S s: MM2, then the pipe"
    latency "$PROF" "$lrate" "$share"
  done
  if [ "$PROF" = sasl_plaintext ]; then
    # What Connect gives a source task's producer without the image's producer.* lines
    # (Worker.baseProducerConfigs): idempotence off, acks=all, one request in flight, and the
    # producer's own defaults for the rest (Kafka 4: linger.ms 5, batch.size 16384, no compression).
    mm2_copy "$PROF" stock '{"producer.override.enable.idempotence": "false", "producer.override.acks": "all",
      "producer.override.max.in.flight.requests.per.connection": "1", "producer.override.compression.type": "none",
      "producer.override.linger.ms": "5", "producer.override.batch.size": "16384"}'
    for t in $SIZING; do mm2_copy "$PROF" "tasks$t" "{\"tasks.max\": \"$t\"}"; done
    if [ "${BENCH_CATCHUP:-1}" != 0 ]; then
      # Each catch-up against MM2's maximum measured right before it and right after it (a
      # single run varies by a fifth): copies cu0 .. cuR, catch-up K between cu(K-1) and cuK.
      mm2_copy "$PROF" cu0 '{}'
      for k in $(seq 1 "$CU_REPEAT"); do
        catch_up "$PROF" "$((rate / CU_SHARE))" "$k"
        mm2_copy "$PROF" "cu$k" '{}'
      done
    fi
  fi
  timeout 60 podman logs "$(bed_worker_name "$i")" >"$W/worker-$PROF.log" 2>&1 || true
  timeout 90 podman rm -f -t 10 "$(bed_worker_name "$i")" >/dev/null 2>&1 || true
done
kafka=$(timeout 60 podman run --rm --entrypoint sh "$IMAGE" -c 'ls /opt/kafka/libs | sed -n "s/^kafka-clients-\(.*\)\.jar$/\1/p"')
python3 "$here/table.py" "$W" "$N" "$S" "$P" "$kafka" "$(nproc)" "$PROFILES" "$SIZING" "$REPEAT" "$LAT_SHARES"
