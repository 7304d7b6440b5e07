#!/usr/bin/env bats
# mm2-offsets preflight on the least-privilege bed (docs/acls.md): with every row the page lists
# it passes; with one row of the logins it holds taken away it refuses, naming the principal,
# the operation and the resource, with the kafka-acls.sh line that grants it back. make test
# runs one such row; make preflight-table runs every row of the page (tag acl-table).
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

# pf_workers I...: [connect] workers naming the bed's workers I... by address.
pf_workers() {
  local i out=()
  for i in "$@"; do out+=("http://$(bed_worker_ip "$i"):8088"); done
  (IFS=,; printf '%s' "${out[*]}")
}

# pf_files DIR NAME REGEX: the migration's files, with the principals the INI's logins are
# and Connect's internal topics as the bed names them (one broker: factor 1, min ISR 1).
pf_files() {
  oj_files "$1" "$2" "$3"
  awk -v sp="User:$BED_SOURCE_USER" -v tp="User:$BED_TARGET_USER" -v ct="$BED_CONFIG_TOPIC" \
    -v wl="$(pf_workers 1 2 3)" \
    -v ot="$BED_OFFSET_TOPIC" -v st="$BED_STATUS_TOPIC" '{ print }
    /^sasl.password = .*MM2_SOURCE_SASL_PASSWORD/ { print "principal = " sp }
    /^sasl.password = .*MM2_TARGET_SASL_PASSWORD/ { print "principal = " tp }
    /^retry.budget.seconds/ { print "config.topic = " ct; print "offset.topic = " ot
      print "status.topic = " st; print "internal.replication.factor = 1"
      print "internal.min.insync.replicas = 1" }
    /^checkpoint.interval.seconds/ { print "isolation.level = read_committed" }
    /^url = / { print "workers = " wl }' \
    "$1/migration.ini" >"$1/migration.ini.new"
  mv "$1/migration.ini.new" "$1/migration.ini"
  chmod 0644 "$1/migration.ini"
}

setup_file() {
  PF=$(oj_dir pf)
  export PF
  pf_files "$PF" pf 'pf\\.orders'
  topics_both pf.orders:2
  produce pf.orders 100 2
  flink pf-flink pf.orders 0:20,1:30
}

# the rows of docs/acls.md the INI's logins hold (source and target), that the bed grants:
# "LINE ROLE OPERATION RESOURCE WHEN NAME" each (the name last: it may hold a space).
pf_rows() {
  awk -F'|' '/^## Principal: /{role=$0; sub(/^## Principal: /, "", role); next}
    /^## /{role=""}
    role ~ /^(source|target)$/ && /^\| (source|target) \|/ {
      gsub(/ /, "", $3); gsub(/ /, "", $4); gsub(/^ +| +$/, "", $5); gsub(/ /, "", $7)
      if ($7 == "always" || $7 == "commit") print NR, role, $3, $4, $7, $5 }' "$E2E_ROOT/docs/acls.md"
}

# refuses_row LINE ROLE OP RESOURCE NAME WHEN: with the row of LINE revoked, preflight names it
# with the kafka-acls.sh line that grants it back, and refuses (exit 1); a row it only warns
# about (Read on the Flink group, which only rollback-plan --commit needs; Create on a target
# topic that exists) leaves it at exit 0. The row is granted again whatever happens.
refuses_row() {
  local line=$1 role=$2 op=$3 res=$4 name=$5 when=$6 principal rc err want code=1
  principal=User:$BED_SOURCE_USER
  [ "$role" = target ] && principal=User:$BED_TARGET_USER
  name=${name//\{replicated topic\}/pf.orders}
  name=${name//\{flink group\}/pf-flink}
  name=${name//\{trail topic\}/mm2kit.trail}
  local names=(--name "replicated topic=pf.orders" --name "flink group=pf-flink" --name "trail topic=mm2kit.trail")
  if [ "$when" = commit ] || [ "$op" = Create ]; then code=0; fi
  run -0 "${KIT[@]}" grant --revoke-line "$line" "${names[@]}"
  # Read implies Describe (StandardAuthorizerData): a Describe row goes with the rows of the same
  # principal and resource that imply it, or its absence would not show.
  if [ "$op" = Describe ]; then
    local other
    for other in $(pf_rows | awk -v r="$role" -v t="$res" -v n="$5" \
      '$2 == r && $4 == t && $3 ~ /^(Read|Write|Delete|Alter)$/ {
        x = $6; for (i = 7; i <= NF; i++) x = x " " $i; if (x == n) print $1 }'); do
      run -0 "${KIT[@]}" grant --revoke-line "$other" "${names[@]}"
    done
  fi
  run --separate-stderr oj "$PF" preflight --config migration.ini
  rc=$status err=$stderr
  run -0 "${KIT[@]}" grant --role "$role" "${names[@]}"
  [ "$rc" -eq "$code" ] || fail "line $line ($role $op $res $name) revoked: preflight exited $rc, not $code: $err"
  want="--allow-principal $principal --operation $op --${res,,} $name"
  [[ "$err" == *"$want"* ]] || fail "line $line revoked: preflight did not say \"$want\": $err"
}

@test "preflight passes with the rows of docs/acls.md and nothing more, and writes its report" {
  run -0 --separate-stderr oj "$PF" preflight --config migration.ini --report preflight.json
  [[ "$stderr" != *"refused:"* ]] || fail "preflight refused: $stderr"
  run -0 jq -e '.refused == false' "$PF/preflight.json"
  # every worker asked at its own address, one build
  run -0 jq -r '.findings[] | select(.name == "workers") | "\(.severity) \(.message)"' "$PF/preflight.json"
  assert_output --regexp "^pass 3 workers answer, all Kafka [0-9.]+ \\(commit [0-9a-f]+\\): $(bed_worker_ip 1), $(bed_worker_ip 2), $(bed_worker_ip 3)\$"
}

@test "preflight refuses a missing Read on a replicated topic, naming the principal, the operation, the topic and the grant" {
  local line role op res when name
  read -r line role op res when name < <(pf_rows | awk '$2 == "source" && $3 == "Read" && $4 == "Topic"')
  [ -n "${line:-}" ] || fail "docs/acls.md has no source Read Topic row"
  refuses_row "$line" "$role" "$op" "$res" "$name" "$when"
}

# bats test_tags=acl-table
@test "preflight names every row of docs/acls.md the cutover's logins hold, each taken away in turn" {
  local n=0
  while read -r line role op res when name; do
    refuses_row "$line" "$role" "$op" "$res" "$name" "$when"
    n=$((n + 1))
  done < <(pf_rows)
  [ "$n" -ge 5 ] || fail "only $n rows checked"
}

# The workers' rows: "LINE OPERATION RESOURCE WHEN NAME" each.
worker_rows() {
  awk -F'|' '/^## Principal: workers/{on=1; next} /^## /{on=0}
    on && /^\| target \|/ { gsub(/ /, "", $3); gsub(/ /, "", $4); gsub(/^ +| +$/, "", $5); gsub(/ /, "", $7)
      print NR, $3, $4, $7, $5 }' "$E2E_ROOT/docs/acls.md"
}

# bats test_tags=acl-table
@test "preflight --workers, in a worker, names every row of the workers' internal topics taken away in turn; the two it cannot ask are said so" {
  local line op res when name n=0 skipped=() want rc err code
  local names=(--name "worker group=$BED_GROUP" --name "config topic=$BED_CONFIG_TOPIC"
    --name "offsets topic=$BED_OFFSET_TOPIC" --name "status topic=$BED_STATUS_TOPIC")
  while read -r line op res when name; do
    case $name in
      # Kafka describes no Connect group to librdkafka 2.8, and a worker pod has no topic list:
      # preflight says "not checked" for the first; tests/e2e/acls.bats shows the second.
      "{worker group}" | "{replicated topic}") skipped+=("$op $name"); continue ;;
    esac
    name=${name//\{config topic\}/$BED_CONFIG_TOPIC}
    name=${name//\{offsets topic\}/$BED_OFFSET_TOPIC}
    name=${name//\{status topic\}/$BED_STATUS_TOPIC}
    code=1
    [ "$op" = DescribeConfigs ] && code=0 # Connect's own cleanup.policy check is optional: a warning
    run -0 "${KIT[@]}" grant --revoke-line "$line" "${names[@]}"
    run --separate-stderr timeout 120 podman exec "$(bed_worker_name 1)" mm2-offsets preflight --workers \
      --replication-factor 1 --min-insync-replicas 1
    rc=$status err=$stderr
    run -0 "${KIT[@]}" grant --role workers "${names[@]}"
    [ "$rc" -eq "$code" ] || fail "line $line ($op $res $name) revoked: preflight --workers exited $rc, not $code: $err"
    want="--allow-principal User:$BED_CONNECT_USER --operation $op --${res,,} $name"
    [[ "$err" == *"$want"* ]] || fail "line $line revoked: preflight --workers did not say \"$want\": $err"
    n=$((n + 1))
  done < <(worker_rows)
  [ "$n" -eq 9 ] || fail "$n internal-topic rows checked, not 9"
  assert_equal "${skipped[*]}" "Read {worker group} Write {replicated topic}"
  run -0 --separate-stderr timeout 120 podman exec "$(bed_worker_name 1)" mm2-offsets preflight --workers \
    --replication-factor 1 --min-insync-replicas 1
  [[ "$stderr" == *"not checked: Read on Group:$BED_GROUP"* ]] || fail "preflight --workers said: $stderr"
}

# pf_variant NAME SED...: a copy of the migration's files in a directory of its own, its INI
# changed by the sed expressions.
pf_variant() {
  local d
  d=$(oj_dir "$1")
  shift
  cp "$PF/connector.json" "$d/connector.json"
  sed "$@" "$PF/migration.ini" >"$d/migration.ini"
  chmod 0644 "$d/connector.json" "$d/migration.ini"
  printf '%s' "$d"
}

@test "preflight refuses a Flink job that read read_uncommitted when the connector reads read_committed" {
  d=$(pf_variant pf-iso -e 's/^isolation.level = read_committed/isolation.level = read_uncommitted/')
  run -1 --separate-stderr oj "$d" preflight --config migration.ini
  [[ "$stderr" == *"refused: isolation: "*"read_committed"*"read_uncommitted"* ]] || fail "preflight said: $stderr"
}

# bats test_tags=acl-table
@test "preflight refuses a C whose record the source's retention.ms removes before the cutover can use it" {
  "${KIT[@]}" create-topics --bootstrap "$BED_SRC_BOOTSTRAP" --config retention.ms=3600000 pfr.orders:1 >/dev/null
  "${KIT[@]}" create-topics --bootstrap "$BED_TGT_BOOTSTRAP" pfr.orders:1 >/dev/null
  produce pfr.orders 10 1
  flink pfr-flink pfr.orders 0:5
  d=$(pf_variant pfr -e 's/^group.id = .*/group.id = pfr-flink/')
  sed -i 's/pf\\\\.orders/pfr\\\\.orders/' "$d/connector.json"
  run -1 --separate-stderr oj "$d" preflight --config migration.ini
  [[ "$stderr" == *"refused: retention: pfr.orders-0: "*"retention.ms=3600000"*"--add-config retention.ms="* ]] ||
    fail "preflight said: $stderr"
}

# bats test_tags=acl-table
@test "preflight refuses a worker [connect] workers names that does not answer, naming it" {
  local gone
  gone=$(bed_worker_ip 9)
  d=$(pf_variant pf-gone -e "s|^workers = .*|workers = $(pf_workers 1 2 3 9)|")
  run -1 --separate-stderr oj "$d" preflight --config migration.ini
  [[ "$stderr" == *"refused: workers: worker $gone (http://$gone:8088) does not answer GET /: "* ]] ||
    fail "preflight said: $stderr"
  [[ "$stderr" == *"fix: wait until every worker is Ready (kubectl rollout status deployment/mm2-connect)"* ]] ||
    fail "preflight said: $stderr"
}

# A worker of another Kafka build joins the group (tests/compat/run.sh runs this on an older
# version's bed, the newest image being the other build): half a rolling update.
# bats test_tags=compat-mixed
@test "preflight refuses workers of two Kafka builds in one group, each build with its addresses" {
  local other=${MIXED_IMAGE:-localhost/mm2kit/mm2:dev} mine theirs
  [ "$other" != "$IMAGE" ] || fail "MIXED_IMAGE ($other) is the bed's own image; give another build"
  IMAGE=$other "$BED" worker-start 9
  IMAGE=$other "$BED" worker-wait 9 180
  d=$(pf_variant pf-mixed -e "s|^workers = .*|workers = $(pf_workers 1 2 3 9)|")
  run --separate-stderr oj "$d" preflight --config migration.ini --report preflight.json
  timeout 60 podman rm -f -t 10 "$(bed_worker_name 9)" >/dev/null
  [ "$status" -eq 1 ] || fail "preflight exited $status, not 1: $stderr"
  mine=$(curl -s -m 10 "http://$(bed_worker_ip 1):8088/" | jq -r '"\(.version) (commit \(.commit))"')
  run -0 jq -r '.findings[] | select(.name == "workers" and .severity == "refuse") | .message' "$d/preflight.json"
  assert_output --partial "the workers run 2 different Kafka builds (a rolling update half done?): $mine on $(bed_worker_ip 1) $(bed_worker_ip 2) $(bed_worker_ip 3); "
  theirs=${output##*; }
  [[ "$theirs" == *" on $(bed_worker_ip 9)" && "$theirs" != "$mine"* ]] || fail "the other build is not named with its address: $output"
}

# bats test_tags=acl-table
@test "preflight refuses, as an estimate, a C that retention.bytes removes at the rate the source is written; unwritten, it is not checked" {
  local ctl=$BED_DIR/offsets/pfb-producer loop d d1 rc err
  # 1 MiB a partition, about 8,000 of the bed's records; the bed's retention.ms is -1: only the
  # size limits the log.
  "${KIT[@]}" create-topics --bootstrap "$BED_SRC_BOOTSTRAP" --config retention.bytes=1048576 pfb.orders:1 >/dev/null
  "${KIT[@]}" create-topics --bootstrap "$BED_TGT_BOOTSTRAP" pfb.orders:1 >/dev/null
  produce pfb.orders 200 1
  flink pfb-flink pfb.orders 0:50
  d=$(pf_variant pfb -e 's/^group.id = .*/group.id = pfb-flink/')
  sed -i 's/pf\\\\.orders/pfb\\\\.orders/' "$d/connector.json"
  rm -rf "$ctl" && mkdir -p "$ctl"
  # A producer writing 50 records/s: C=50 can leave the log within minutes, far below the
  # margin's default day. Started before preflight, stopped after it (or by its timeout).
  timeout 120 "${KIT[@]}" produce-loop --bootstrap "$BED_SRC_BOOTSTRAP" --topics pfb.orders:1 \
    --rate 50 --control "$ctl" >"$ctl/out" 2>&1 3>&- &
  loop=$!
  for _ in $(seq 100); do
    jq -e '.acked["pfb.orders/0"] > 0' "$ctl/state.json" >/dev/null 2>&1 && break
    sleep 0.1
  done
  run --separate-stderr oj "$d" preflight --config migration.ini --rate-wait 3 --report preflight.json
  rc=$status err=$stderr
  # The same C against a margin of 1 s: minutes of headroom pass, and the pass says "estimate".
  d1=$(pf_variant pfb1 -e 's/^group.id = .*/group.id = pfb-flink/' \
    -e 's/^isolation.level = read_committed/&\nretention.margin.seconds = 1/')
  cp "$d/connector.json" "$d1/connector.json"
  run --separate-stderr oj "$d1" preflight --config migration.ini --rate-wait 2
  touch "$ctl/stop"
  wait "$loop" || fail "the producer failed: $(cat "$ctl/out")"
  [ "$status" -eq 0 ] || fail "preflight with a margin of 1 s exited $status, not 0: $stderr"
  [[ "$stderr" == *"pass: retention-bytes: pfb.orders: retention.bytes=1048576 (per partition), estimate: C stays in the log about "*" s more in every partition, above the margin of 1 s"* ]] ||
    fail "preflight with a margin of 1 s said: $stderr"
  [ "$rc" -eq 1 ] || fail "preflight exited $rc, not 1: $err"
  [[ "$err" == *"reading the log ends again 3.000 s after the first read"* ]] || fail "preflight said: $err"
  [[ "$err" == *"refused: retention-bytes: pfb.orders-0: retention.bytes=1048576 (per partition), estimate: it keeps about "*" records/s over "*"C can leave the log in about "*"--add-config retention.bytes="* ]] ||
    fail "preflight said: $err"
  run -0 jq -e '[.findings[] | select(.name == "retention-bytes" and .severity == "refuse"
    and (.message | test("estimate")) and (.fix | test("--add-config retention.bytes=[0-9]+$")))] | length == 1' \
    "$d/preflight.json"
  # Nothing written between the two reads: no rate, no estimate, and never a pass.
  run -0 --separate-stderr oj "$d" preflight --config migration.ini --rate-wait 1
  [[ "$stderr" == *"warning: retention-bytes: not checked: pfb.orders-0: retention.bytes=1048576 (per partition), estimate: none: the log end stayed at "* ]] ||
    fail "preflight said: $stderr"
  [[ "$stderr" != *"pass: retention-bytes"* ]] || fail "a pass without a rate: $stderr"
}

# bats test_tags=acl-table
@test "preflight --workers refuses a config topic with 3 partitions and cleanup.policy=delete" {
  "${KIT[@]}" create-topics --no-grant --bootstrap "$BED_TGT_BOOTSTRAP" pf-bad-configs:3 >/dev/null
  "${KIT[@]}" grant --role workers --name "config topic=pf-bad-configs" >/dev/null
  run -1 --separate-stderr timeout 120 podman exec -e CONNECT_CONFIG_STORAGE_TOPIC=pf-bad-configs \
    "$(bed_worker_name 1)" mm2-offsets preflight --workers --replication-factor 1 --min-insync-replicas 1
  [[ "$stderr" == *"Connect's config topic pf-bad-configs has cleanup.policy=delete, not compact"* ]] ||
    fail "preflight --workers said: $stderr"
  [[ "$stderr" == *"Connect's config topic pf-bad-configs has 3 partitions, not 1"* ]] || fail "preflight --workers said: $stderr"
}

# bats test_tags=acl-table
@test "preflight refuses a missing Write on the audit trail's topic, naming the principal, the topic and the grant" {
  local line role op res when name
  # the trail exists once a command recorded (the first test's preflight did)
  read -r line role op res when name < <(pf_rows | awk '$2 == "target" && $3 == "Write" && $6 == "{trail" && $7 == "topic}"')
  [ -n "${line:-}" ] || fail "docs/acls.md has no target Write row on {trail topic}"
  refuses_row "$line" "$role" "$op" "$res" "$name" "$when"
}
