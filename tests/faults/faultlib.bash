# shellcheck shell=bash
# Fault injection on the bed, shared by the fault matrix (tests/faults/run.sh, its short form
# included) and the e2e test of a PATCH cut (tests/e2e/faults.bats).  Source after
# tests/bed/bed.env.  Every command runs under timeout; a fault is always undone by its pair
# (fl_partition/fl_heal, fl_freeze/fl_thaw) or by removing the container it was injected into.
#
# A worker is the container bed_worker_name I; its JVM is the container's PID 1
# (mm2-entrypoint execs it), so the host PID podman reports is the JVM's.

# fl_pid NAME: the host PID of the container's PID 1.
fl_pid() {
  local pid
  pid=$(timeout 30 podman inspect -f '{{.State.Pid}}' "$1") || return 1
  [[ "$pid" =~ ^[1-9][0-9]*$ ]] || return 1
  printf '%s' "$pid"
}

# fl_ns NAME COMMAND...: COMMAND in the container's network namespace (the host's iptables,
# applied to that namespace alone).
fl_ns() {
  local pid
  pid=$(fl_pid "$1") || return 1
  shift
  timeout 30 nsenter -t "$pid" -n "$@"
}

# fl_partition NAME: the container's network cut off both ways (loopback kept); packets are
# dropped, not refused, as a partitioned network does.  fl_heal NAME undoes it.
fl_partition() {
  fl_ns "$1" iptables -I INPUT 1 ! -i lo -j DROP -m comment --comment mm2kit-faults &&
    fl_ns "$1" iptables -I OUTPUT 1 ! -o lo -j DROP -m comment --comment mm2kit-faults
}
fl_heal() {
  fl_ns "$1" iptables -D INPUT ! -i lo -j DROP -m comment --comment mm2kit-faults &&
    fl_ns "$1" iptables -D OUTPUT ! -o lo -j DROP -m comment --comment mm2kit-faults
}

# fl_freeze NAME / fl_thaw NAME: SIGSTOP / SIGCONT to the container's JVM (a long GC pause).
fl_freeze() { local pid; pid=$(fl_pid "$1") && kill -STOP "$pid"; }
fl_thaw() { local pid; pid=$(fl_pid "$1") && kill -CONT "$pid"; }

# fl_broker_restart NAME clean|kill: stops the broker (SIGTERM with a 60 s grace, or SIGKILL)
# and starts the same container again: same address, same data (BED_BROKER_DATA=1).  Prints
# "MS EXIT_CODE": the time from the stop to the start, and the exit code of the stop.
fl_broker_restart() {
  local name=$1 how=$2 t0 code
  t0=$(date +%s%3N)
  if [ "$how" = kill ]; then
    timeout 60 podman kill -s KILL "$name" >/dev/null
    timeout 60 podman wait "$name" >/dev/null
  else
    timeout 90 podman stop -t 60 "$name" >/dev/null
  fi
  code=$(timeout 30 podman inspect -f '{{.State.ExitCode}}' "$name")
  timeout 60 podman start "$name" >/dev/null
  printf '%s %s\n' "$(($(date +%s%3N) - t0))" "$code"
}

# fl_leader I...: of workers I..., the index whose address the newest assignment in their logs
# names as leader (empty when none is found).
fl_leader() {
  local i line best='' best_t=''
  for i in "$@"; do
    line=$(timeout 30 podman logs --tail 3000 "$(bed_worker_name "$i")" 2>&1 |
      grep -F "leaderUrl='http://" | tail -n 1) || true
    [ -n "$line" ] || continue
    if [ -z "$best_t" ] || [[ "${line:1:23}" > "$best_t" ]]; then
      best_t=${line:1:23}
      best=$line
    fi
  done
  best=${best#*leaderUrl=\'http://}
  best=${best%%:*}
  [ -n "$best" ] && printf '%s' "${best##"$BED_WORKER_IP_PREFIX"}"
  return 0
}

# fl_status CONN I: the connector's status JSON, asked of worker I.
fl_status() { curl -s -m 10 "http://$(bed_worker_ip "$2"):8088/connectors/$1/status"; }

# fl_tasks_on CONN I ASK: how many of the connector's tasks worker I runs (asking worker ASK).
fl_tasks_on() {
  fl_status "$1" "$3" | jq --arg w "$(bed_worker_ip "$2"):8088" '[.tasks[]? | select(.worker_id == $w)] | length'
}

# fl_running CONN I...: every task of the connector RUNNING, each on one of workers I... (asking
# the first).  The connector's own state is not asked: after a broker outage it can read
# UNASSIGNED while the connector runs (a stale status record: Kafka's KafkaStatusBackingStore
# drops stale UNASSIGNED records for tasks, KAFKA-12525, but not for connectors).
fl_running() {
  local conn=$1 live
  shift
  live=$(for i in "$@"; do printf '%s:8088\n' "$(bed_worker_ip "$i")"; done | jq -Rsc 'split("\n") | map(select(. != ""))')
  fl_status "$conn" "$1" | jq -e --argjson live "$live" '(.tasks | length) > 0
    and all(.tasks[]; .state == "RUNNING" and (.worker_id as $w | $live | index($w)))' >/dev/null 2>&1
}

# fl_connector_state CONN I: the connector's own state as worker I reports it.
fl_connector_state() { fl_status "$1" "$2" | jq -r '.connector.state // "unknown"' 2>/dev/null || echo unknown; }

# fl_offsets_equal_plan CONN PLAN I: Connect's offsets for CONN (asked of worker I) are exactly
# the plan's: {"offset": M} for every "offset" entry, nothing for a "reset" one, nothing else
# under the plan's alias and topics.  Read twice, 2 s apart, until two reads agree (a worker
# that just started lists partitions as it reads its offsets topic); prints what Connect has.
fl_offsets_equal_plan() {
  local conn=$1 plan=$2 url want got prev='' end=$((SECONDS + 60))
  url="http://$(bed_worker_ip "$3"):8088/connectors/$conn/offsets"
  want=$(jq -c '.connector.source_alias as $c | [.partitions[] | select(.action == "offset") | [$c, .topic, .partition, .m]] | sort' "$plan")
  while :; do
    got=$(curl -s -m 100 "$url" | jq -c '[.offsets[]? | select(.offset != null and .offset.offset != null)
      | [.partition.cluster, .partition.topic, .partition.partition, .offset.offset]] | sort' 2>/dev/null) || got=''
    [ -n "$got" ] && [ "$got" = "$prev" ] && break
    [ $SECONDS -lt $end ] || break
    prev=$got
    sleep 2
  done
  printf '%s\n' "${got:-unreadable}"
  [ "$got" = "$want" ]
}

# The script is single-quoted on purpose: its $names are the container shell's.
# shellcheck disable=SC2016
# fl_job_start DIR STEP CONNECT_IP GATE ARGS...: mm2-offsets ARGS in a container of the image
# (named $BED_NAME-job-STEP) as the Kubernetes Job runs it, DIR mounted as its work directory,
# mm2-connect resolving to CONNECT_IP.  With GATE=1 it waits (up to 60 s) for DIR/STEP.go
# before it starts, so a fault can be armed in its network namespace first.  Its stdout and
# stderr go to DIR/STEP.out and DIR/STEP.err as they are written.  fl_job_wait collects it.
fl_job_start() {
  local d=$1 step=$2 ip=$3 gate=$4
  shift 4
  rm -f "$d/$step.go" "$d/$step.out" "$d/$step.err"
  timeout 60 podman rm -f -t 0 "$BED_NAME-job-$step" >/dev/null 2>&1 || true
  timeout 120 podman run -d --name "$BED_NAME-job-$step" --network "$BED_NET" "${BED_HOSTS[@]}" \
    --add-host "mm2-connect:$ip" --user 10001:10001 --read-only --tmpfs /tmp:rw,size=64m,mode=1777 \
    --cap-drop ALL --security-opt no-new-privileges --memory 256m -v "$d:/work:rw" -w /work \
    -e "MM2_SOURCE_SASL_USERNAME=$BED_SOURCE_USER" -e "MM2_SOURCE_SASL_PASSWORD=$BED_SOURCE_PASSWORD" \
    -e "MM2_TARGET_SASL_USERNAME=$BED_TARGET_USER" -e "MM2_TARGET_SASL_PASSWORD=$BED_TARGET_PASSWORD" \
    -e "MM2_REST_PASSWORD=$BED_REST_PASSWORD" \
    --entrypoint /bin/sh "$IMAGE" -c '
      step=$1 gate=$2; shift 2
      if [ "$gate" = 1 ]; then
        n=0
        while [ ! -e "$step.go" ]; do n=$((n + 1)); [ $n -lt 600 ] || exit 124; sleep 0.1; done
      fi
      exec mm2-offsets "$@" >"$step.out" 2>"$step.err"' sh "$step" "$gate" "$@" >/dev/null
}

# fl_job_wait STEP SECONDS: waits for the job container, prints its exit code, removes it.
fl_job_wait() {
  local name=$BED_NAME-job-$1 rc
  rc=$(timeout "$2" podman wait "$name" 2>/dev/null) || {
    timeout 60 podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
    echo 124
    return 0
  }
  timeout 60 podman rm -f "$name" >/dev/null 2>&1 || true
  echo "$rc"
}

# fl_wait_line FILE TEXT SECONDS: waits until FILE holds a line with TEXT.
fl_wait_line() {
  local end=$((SECONDS + $3))
  until grep -qF -- "$2" "$1" 2>/dev/null; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.05
  done
}

# fl_patch_cut STEP request|answer: arms a cut on the job container's network at its PATCH:
# "request" drops the PATCH itself (Connect never sees it), "answer" lets it through and then
# drops everything Connect sends back, so the offsets are written and the job never hears.
fl_patch_cut() {
  local c=$BED_NAME-job-$1
  if [ "$2" = request ]; then
    fl_ns "$c" iptables -A OUTPUT -p tcp --dport 8088 -m string --string "PATCH /connectors/" --algo bm -j DROP
  else
    fl_ns "$c" iptables -A OUTPUT -p tcp --dport 8088 -m string --string "PATCH /connectors/" --algo bm \
      -m recent --name mm2kit-patch --set --rdest -j ACCEPT &&
      fl_ns "$c" iptables -A INPUT -p tcp --sport 8088 -m recent --name mm2kit-patch --rcheck --rsource -j DROP
  fi
}
