# shellcheck shell=bash
# bench/replication/run.sh's steps for one security profile, sourced by it (W, BED, SRC, TGT,
# N, S, P, LAT, LAT_S, CU_PAUSE, IMAGE_PRODUCER, kit, tool, produce, drop, log and die come
# from there).
# shellcheck disable=SC2016 # jq programs and the container's sh -c are single-quoted on purpose
# shellcheck disable=SC2153,SC2154 # PROF, root and the rest are set by run.sh, which sources this

# The bootstrap of each cluster for a profile, and its client settings as the connector's
# clients have them (docker/mm2/connectors/*.json), the password from the environment.
port_of() { case $1 in sasl_plaintext) echo 9092 ;; sasl_ssl) echo "$BED_SASL_SSL_PORT" ;; ssl) echo "$BED_SSL_PORT" ;; esac; }

# worker I PROF: worker I of the image's profile for PROF.  The stock baseline is a connector's
# producer overrides, which the image's profiles refuse (connector.client.config.override.policy
# =None): the bench's workers run the same profile with the policy All, and nothing else changed.
worker() {
  local profile=connect-mm2.properties
  case $PROF in sasl_ssl) profile=connect-mm2-sasl-ssl.properties ;; ssl) profile=connect-mm2-mtls.properties ;; esac
  sed 's/^connector\.client\.config\.override\.policy=None$/connector.client.config.override.policy=All/' \
    "$root/docker/mm2/$profile" >"$W/$profile"
  grep -qx 'connector.client.config.override.policy=All' "$W/$profile" || die "docker/mm2/$profile no longer sets the policy None"
  chmod 0644 "$W/$profile"
  local jfr=()
  # BENCH_JFR=1: the worker records a Flight Recorder profile of its whole life (written when it
  # stops) into $W/jfr/worker-PROF.jfr; jfr-top.py reads it.
  [ "${BENCH_JFR:-0}" = 1 ] && jfr=(-v "$W/jfr:/jfr" -e "KAFKA_OPTS=-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=/jfr/worker-$PROF.jfr")
  if ! BED_SECURITY=$PROF timeout 120 "$BED" worker-start "$1" -v "$W/$profile:/etc/mm2/$profile:ro" "${jfr[@]}" >>"$W/up.log" 2>&1 ||
    ! BED_SECURITY=$PROF timeout 300 "$BED" worker-wait "$1" 240 >>"$W/up.log" 2>&1; then
    cat "$W/up.log" >&2
    die "worker $1 ($PROF) did not come up"
  fi
  url="http://$(bed_worker_ip "$1"):8088"
  wname=$(bed_worker_name "$1")
}

# cpu_us NAME: the CPU microseconds of a running container, from its cgroup (cgroup v2, or
# v2's unified hierarchy beside v1's controllers, as on these machines; else v1's cpuacct).
cpu_us() {
  local cg f
  cg=$(timeout 30 podman inspect --format '{{.State.CgroupPath}}' "$1") || die "no cgroup for $1"
  for f in "/sys/fs/cgroup$cg/cpu.stat" "/sys/fs/cgroup/unified$cg/cpu.stat"; do
    [ -r "$f" ] && { awk '$1 == "usage_usec" { print $2 }' "$f"; return; }
  done
  f=/sys/fs/cgroup/cpuacct$cg/cpuacct.usage
  [ -r "$f" ] || die "no CPU accounting for $1 (cgroup $cg)"
  echo $(($(cat "$f") / 1000))
}

# The worker's heap as mm2-entrypoint sets it (entrypoint/launch.c) when KAFKA_HEAP_OPTS is unset.
WORKER_HEAP_OPTS='-XX:InitialRAMPercentage=25 -XX:MaxRAMPercentage=50'
grep -qF "\"$WORKER_HEAP_OPTS\"" "$root/entrypoint/launch.c" || die "entrypoint/launch.c no longer sets KAFKA_HEAP_OPTS to $WORKER_HEAP_OPTS"

# pipe NAME PROF ARGS...: Pipe.java in a container on the bed, the settings files on its tmpfs
# (no password on disk).  Its JVM runs as the worker's does: through the image's
# kafka-run-class.sh (G1 and Kafka's JVM performance options; a plain java in a container of
# less than 2 GiB runs the serial collector), the worker's memory limit and heap.  The copier
# logs in over PROF as MM2's clients do: the connector's source principal reads, the workers'
# principal writes (a MirrorSourceTask's records go out through the worker's producer).  PROF
# admin: the bed's admin over SASL_PLAINTEXT, for the readers that measure (latency, lag), as
# kit watch does.
pipe() {
  local name=$1 prof=$2 port src_jaas tgt_jaas jopt=
  shift 2
  # BENCH_JFR=1: each timed copy records a Flight Recorder profile into $W/jfr/ too.
  [ "${BENCH_JFR:-0}" = 1 ] && [ "$name" = pipe ] && jopt="-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=/jfr/pipe-$prof-$(date +%s%N).jfr"
  src_jaas=$BED_SOURCE_JAAS tgt_jaas=$BED_JAAS
  [ "$prof" = sasl_ssl ] && src_jaas=$BED_SOURCE_SCRAM_JAAS tgt_jaas=$BED_SCRAM_JAAS
  if [ "$prof" = admin ]; then
    prof=sasl_plaintext
    src_jaas=$(bed_jaas plain "$BED_ADMIN_USER" "$BED_ADMIN_PASSWORD") tgt_jaas=$src_jaas
  fi
  port=$(port_of "$prof")
  timeout 1200 podman run --rm --name "$BED_NAME-$name" --network "$BED_NET" --user 10001:10001 --read-only \
    --tmpfs /tmp:rw,size=64m,mode=1777 --cap-drop ALL --security-opt no-new-privileges --memory "$BED_WORKER_MEMORY" \
    -e "BENCH_PROF=$prof" -e "BENCH_SRC=$BED_SRC_IP:$port" -e "BENCH_TGT=$BED_TGT_IP:$port" \
    -e "BENCH_SRC_JAAS=$src_jaas" -e "BENCH_TGT_JAAS=$tgt_jaas" -e "BENCH_KEY_PASSWORD=$BED_TLS_KEY_PASSWORD" \
    -e "BENCH_PRODUCER=$(printf '%s\n' "${IMAGE_PRODUCER[@]}")" -e "KAFKA_OPTS=$jopt" -v "$W/jfr:/jfr" \
    -e "KAFKA_HEAP_OPTS=$WORKER_HEAP_OPTS" -e CLASSPATH=/bench -e LOG_DIR=/tmp \
    -e KAFKA_LOG4J_OPTS=-Dlog4j2.configurationFile=/bench/log4j2.properties \
    -v "$W/pipe:/bench:ro" -v "$BED_DIR/tls/mount/source:/etc/mm2/tls/source:ro" -v "$BED_DIR/tls/mount/worker:/etc/mm2/tls/target:ro" \
    --entrypoint /bin/sh "$IMAGE" -c '
      props() { # SIDE BOOTSTRAP JAAS
        printf "bootstrap.servers=%s\n" "$2"
        case $BENCH_PROF in
          sasl_plaintext) printf "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=%s\n" "$3" ;;
          sasl_ssl) printf "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=%s\n" "$3"
            printf "ssl.truststore.type=PEM\nssl.truststore.location=/etc/mm2/tls/%s/ca.crt\n" "$1" ;;
          ssl) printf "security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=/etc/mm2/tls/%s/ca.crt\n" "$1"
            printf "ssl.keystore.type=PEM\nssl.keystore.location=/etc/mm2/tls/%s/keystore.pem\nssl.key.password=%s\n" "$1" "$BENCH_KEY_PASSWORD" ;;
        esac
      }
      props source "$BENCH_SRC" "$BENCH_SRC_JAAS" >/tmp/src.properties
      { props target "$BENCH_TGT" "$BENCH_TGT_JAAS"; printf "%s\n" "$BENCH_PRODUCER"; } >/tmp/tgt.properties
      m=$1
      shift
      exec /opt/kafka/bin/kafka-run-class.sh Pipe "$m" /tmp/src.properties /tmp/tgt.properties "$@"' \
    sh "$@"
}

# pipe_copy PROF FROM COUNT RUN: the pipe copies COUNT records of FROM to pipe-PROF-RUN.FROM
# (3 threads); files pipe-PROF-RUN.*.
pipe_copy() {
  local to="pipe-$1-$4.$2"
  kit create-topics --bootstrap "$TGT" "${LAT[@]}" "$to:$P" >/dev/null
  log "$1: the pipe copies $3 records $2 -> $to"
  kit watch --bootstrap "$TGT" --topic "$to" --count "$3" --interval 0.1 --timeout 900 --trace >"$W/pipe-$1-$4.watch" &
  local pid=$!
  kit create-topics --bootstrap "$TGT" "pipe-$1-$4.warm:$P" >/dev/null
  if ! pipe pipe "$1" copy "$2" "$to" "$3" 3 "pipe-$1-$4.warm" >"$W/pipe-$1-$4.json" 2>"$W/pipe-$1-$4.err"; then
    kill "$pid" 2>/dev/null || true
    die "$1: the pipe failed: $(tail -n 3 "$W/pipe-$1-$4.err")"
  fi
  wait "$pid" || die "$1: the target did not show the pipe's $3 records"
  drop "$TGT" "$to" "pipe-$1-$4.warm"
}

# The connector: the rehearsal's settings, its clients over PROF as docker/mm2/connectors/ has
# them, a source alias per run so each copies to a topic of its own (ALIAS.TOPIC).
connector() { # NAME ALIAS TOPIC EXTRA_JSON
  local port clients
  port=$(port_of "$PROF")
  case $PROF in
    sasl_plaintext) clients='{"source.cluster.security.protocol": "SASL_PLAINTEXT", "source.cluster.sasl.mechanism": "PLAIN",
      "source.cluster.sasl.jaas.config": "${env:MM2_SOURCE_SASL_JAAS_CONFIG}",
      "target.cluster.security.protocol": "SASL_PLAINTEXT", "target.cluster.sasl.mechanism": "PLAIN",
      "target.cluster.sasl.jaas.config": "${env:MM2_TARGET_SASL_JAAS_CONFIG}"}' ;;
    sasl_ssl) clients=$(jq -c '.config | with_entries(select(.key | test("^(source|target)\\.cluster\\.(security|sasl|ssl)")))' \
      "$root/docker/mm2/connectors/sasl-ssl.json") ;;
    ssl) clients=$(jq -c '.config | with_entries(select(.key | test("^(source|target)\\.cluster\\.(security|sasl|ssl)")))' \
      "$root/docker/mm2/connectors/mtls.json") ;;
  esac
  jq -n --arg name "$1" --arg alias "$2" --arg topic "$3" --argjson clients "$clients" --argjson extra "$4" \
    --arg src "$BED_SRC_IP:$port" --arg tgt "$BED_TGT_IP:$port" '{name: $name, config: ({
    "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector", "tasks.max": "3",
    "source.cluster.alias": $alias, "target.cluster.alias": "target",
    "source.cluster.bootstrap.servers": $src, "target.cluster.bootstrap.servers": $tgt,
    "topics": ($topic | gsub("\\."; "\\.")),
    "replication.policy.class": "org.apache.kafka.connect.mirror.DefaultReplicationPolicy",
    "emit.offset-syncs.enabled": "false",
    "sync.topic.configs.enabled": "false", "sync.topic.acls.enabled": "false",
    "refresh.topics.enabled": "true", "refresh.topics.interval.seconds": "60",
    "source.consumer.auto.offset.reset": "earliest", "source.consumer.isolation.level": "read_committed",
    "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"} + $clients + $extra)}'
}
post() { # NAME ALIAS TOPIC EXTRA_JSON
  local code
  connector "$@" >"$W/$1.json"
  code=$(curl -s -m 60 -o "$W/$1.post" -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data @"$W/$1.json" "$url/connectors")
  [ "$code" = 201 ] || die "POST /connectors $1: HTTP $code: $(cat "$W/$1.post")"
}
running() { # NAME: the connector and every task RUNNING
  curl -sf -m 10 "$url/connectors/$1/status" | jq -e '.connector.state == "RUNNING" and (.tasks | length > 0) and all(.tasks[]; .state == "RUNNING")' >/dev/null
}

# mm2_copy PROF ALIAS EXTRA_JSON: a connector copies bench.src's N records to ALIAS.bench.src;
# the worker's CPU from the POST until the target holds them all.
mm2_copy() {
  local name="mm2-$2" c0 c1
  kit create-topics --bootstrap "$TGT" "$2.bench.src:$P" >/dev/null
  log "$1: MM2 ($2) copies $N records bench.src -> $2.bench.src"
  c0=$(cpu_us "$wname")
  post "$name" "$2" bench.src "$3"
  kit watch --bootstrap "$TGT" --topic "$2.bench.src" --count "$N" --interval 0.1 --timeout 900 --trace >"$W/$name.watch" ||
    die "$name: the target did not get $N records"
  c1=$(cpu_us "$wname")
  echo "$((c1 - c0))" >"$W/$name.cpu"
  curl -s -m 60 -o /dev/null -X DELETE "$url/connectors/$name"
  drop "$TGT" "$2.bench.src"
}

# latency PROF RATE TAG: LAT_S seconds of input at RATE into a fresh topic copied live, by MM2
# and then by the pipe; each pair of topics LogAppendTime; files lat-{mm2,pipe}-PROF-TAG.*.
latency() {
  local n=$(($2 * LAT_S)) s t="$1-$3" pid end
  s="lat-mm2-$t"
  kit create-topics --bootstrap "$SRC" "${LAT[@]}" "$s:$P" >/dev/null
  kit create-topics --bootstrap "$TGT" "${LAT[@]}" "l$t.$s:$P" >/dev/null
  post "lat-$t" "l$t" "$s" '{}'
  end=$((SECONDS + 120))
  until running "lat-$t"; do [ $SECONDS -lt $end ] || die "lat-$t not RUNNING within 120 s"; sleep 1; done
  sleep 5 # the tasks' first poll
  produce "$s" "$n" "$2" "$W/lat-mm2-$t-producer"
  kit watch --bootstrap "$TGT" --topic "l$t.$s" --count "$n" --interval 0.5 --timeout 600 >/dev/null ||
    die "lat-$t: the target did not get $n records"
  pipe reader admin latency "$s" "l$t.$s" "$LAT_SKIP_MS" >"$W/lat-mm2-$t.json" 2>"$W/lat-mm2-$t.err" ||
    die "latency of MM2 ($t): $(tail -n 3 "$W/lat-mm2-$t.err")"
  curl -s -m 60 -o /dev/null -X DELETE "$url/connectors/lat-$t"
  drop "$SRC" "$s"
  drop "$TGT" "l$t.$s"
  s="lat-pipe-$t"
  kit create-topics --bootstrap "$SRC" "${LAT[@]}" "$s:$P" >/dev/null
  kit create-topics --bootstrap "$TGT" "${LAT[@]}" "pipe-$t.$s:$P" "pipe-$t.warm:$P" >/dev/null
  # The pipe compiled first, as the worker is: a warm copy of bench.src, then it waits on $s.
  pipe pipe "$1" copy "$s" "pipe-$t.$s" "$n" 3 "pipe-$t.warm" bench.src "$N" >"$W/lat-pipe-$t.copy" 2>"$W/lat-pipe-$t.copy.err" &
  pid=$!
  kit watch --bootstrap "$TGT" --topic "pipe-$t.warm" --count "$N" --interval 0.5 --timeout 600 >/dev/null ||
    die "the pipe ($t) did not make its warm copy: $(tail -n 3 "$W/lat-pipe-$t.copy.err")"
  sleep 5 # its timed copy's consumers assigned and polling, as the connector's tasks were
  produce "$s" "$n" "$2" "$W/lat-pipe-$t-producer"
  wait "$pid" || die "the pipe ($t, latency) failed: $(tail -n 3 "$W/lat-pipe-$t.copy.err")"
  pipe reader admin latency "$s" "pipe-$t.$s" "$LAT_SKIP_MS" >"$W/lat-pipe-$t.json" 2>"$W/lat-pipe-$t.err" ||
    die "latency of the pipe ($t): $(tail -n 3 "$W/lat-pipe-$t.err")"
  drop "$SRC" "$s"
  drop "$TGT" "pipe-$t.$s" "pipe-$t.warm"
  echo "$2" >"$W/lat-$t.rate"
}

# catch_up PROF RATE K: a steady input at RATE, MM2 copying; stopped (PUT .../stop) for CU_PAUSE
# s and resumed; the lag sampled every 0.25 s throughout.  Files catchup-K.*, times in epoch ms,
# for table.py; run.sh measures MM2's maximum right before and right after each (mm2-cuK).
catch_up() {
  local rate=$2 k=$3 warm=30 s="cu$3.src" c="catchup-$3" n pid lpid
  n=$((rate * (warm + CU_PAUSE + CU_PAUSE / 2 + 30)))
  kit create-topics --bootstrap "$SRC" "$s:$P" >/dev/null
  kit create-topics --bootstrap "$TGT" "c$k.$s:$P" >/dev/null
  post "$c" "c$k" "$s" '{}'
  local end=$((SECONDS + 120))
  until running "$c"; do [ $SECONDS -lt $end ] || die "$c not RUNNING within 120 s"; sleep 1; done
  log "$1 catch-up $k: $n records at $rate records/s; MM2 stopped after $warm s for $CU_PAUSE s"
  pipe lag admin lag "$s" "c$k.$s" 250 $((n / rate + 300)) >"$W/$c.lag" 2>"$W/$c.lag.err" &
  lpid=$!
  produce "$s" "$n" "$rate" "$W/$c-producer" &
  pid=$!
  sleep "$warm"
  date +%s%3N >"$W/$c.stop"
  curl -sf -m 60 -o /dev/null -X PUT "$url/connectors/$c/stop" || die "PUT /connectors/$c/stop failed"
  sleep "$CU_PAUSE"
  date +%s%3N >"$W/$c.resume"
  curl -sf -m 60 -o /dev/null -X PUT "$url/connectors/$c/resume" || die "PUT /connectors/$c/resume failed"
  wait "$pid" || die "the catch-up input failed"
  date +%s%3N >"$W/$c.input-end"
  kit watch --bootstrap "$TGT" --topic "c$k.$s" --count "$n" --interval 0.5 --timeout 600 >/dev/null ||
    die "$c: the target did not get $n records"
  sleep 2
  timeout 60 podman rm -f -t 0 "$BED_NAME-lag" >/dev/null 2>&1 || true
  wait "$lpid" || true
  echo "$rate" >"$W/$c.rate"
  curl -s -m 60 -o /dev/null -X DELETE "$url/connectors/$c"
  drop "$SRC" "$s"
  drop "$TGT" "c$k.$s"
}
