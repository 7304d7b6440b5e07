# shellcheck shell=bash
# Variables here are used by the .bats files that load this one.
# shellcheck disable=SC2034
# mm2-offsets on the bed: every run is a container of the image, as the
# Kubernetes Job runs it (UID 10001, read-only root, /tmp tmpfs, no
# capabilities, the secrets as environment variables), with the migration's
# files in a work directory mounted at /work.  The Flink job is played by
# bedkit: flink-copy copies source records [0, C) to the target and commits C
# for the group with librdkafka, as Flink's source does (assign(), no member).

BUILD=${MM2_BUILD:-$E2E_ROOT/build}
KIT=("$BED" kit)

# oj_dir NAME: a fresh work directory for migration NAME, writable by 10001.
oj_dir() {
  local d=$BED_DIR/offsets/$1
  rm -rf "$d"
  mkdir -p "$d"
  chmod 0777 "$d"
  printf '%s' "$d"
}

# oj_files DIR NAME TOPICS_REGEX [WORKER]: connector.json (connector NAME
# replicating TOPICS_REGEX with the bed's settings) and migration.ini
# (Connect at WORKER, group NAME-flink, checkpoints every second) in DIR.
oj_files() {
  local d=$1 name=$2 topics=$3 w=${4:-1}
  mirror_connector_json "$name" "$topics" >"$d/connector.json"
  cat >"$d/migration.ini" <<INI
; the bed's migration (tests/e2e/offsets_helpers.bash)
[source]
bootstrap.servers = $BED_SRC_BOOTSTRAP
security.protocol = SASL_PLAINTEXT
sasl.mechanisms = PLAIN
sasl.username = \${env:MM2_SOURCE_SASL_USERNAME}
sasl.password = \${env:MM2_SOURCE_SASL_PASSWORD}

[target]
bootstrap.servers = $BED_TGT_BOOTSTRAP
security.protocol = SASL_PLAINTEXT
sasl.mechanisms = PLAIN
sasl.username = \${env:MM2_TARGET_SASL_USERNAME}
sasl.password = \${env:MM2_TARGET_SASL_PASSWORD}

[connect]
url = http://$(bed_worker_ip "$w"):8088
username = $BED_REST_USER
password = \${env:MM2_REST_PASSWORD}
request.timeout.seconds = 100
retry.budget.seconds = 120

[flink]
group.id = $name-flink
checkpoint.interval.seconds = 1

[connector]
file = connector.json
INI
  chmod 0644 "$d/connector.json" "$d/migration.ini"
}

# oj DIR ARGS...: mm2-offsets ARGS in a container of the image, in DIR (named OJ_NAME when set).
oj() {
  local d=$1; shift
  timeout 300 podman run --rm ${OJ_NAME:+--name "$OJ_NAME"} --network "$BED_NET" --user 10001:10001 --read-only \
    --tmpfs /tmp:rw,size=64m,mode=1777 --cap-drop ALL --security-opt no-new-privileges \
    --memory 256m -v "$d:/work:rw" -w /work \
    -e "MM2_SOURCE_SASL_USERNAME=$BED_SOURCE_USER" -e "MM2_SOURCE_SASL_PASSWORD=$BED_SOURCE_PASSWORD" \
    -e "MM2_TARGET_SASL_USERNAME=$BED_TARGET_USER" -e "MM2_TARGET_SASL_PASSWORD=$BED_TARGET_PASSWORD" \
    -e "MM2_REST_PASSWORD=${OJ_REST_PASSWORD:-$BED_REST_PASSWORD}" \
    --entrypoint mm2-offsets "$IMAGE" "$@" 3>&-
}

# topics_both NAME:PARTITIONS...: the topics on source and target.
topics_both() {
  "${KIT[@]}" create-topics --bootstrap "$BED_SRC_BOOTSTRAP" "$@" >/dev/null &&
    "${KIT[@]}" create-topics --bootstrap "$BED_TGT_BOOTSTRAP" "$@" >/dev/null
}

produce() { # TOPIC COUNT PARTITIONS [START] [SEED]
  "${KIT[@]}" produce --bootstrap "$BED_SRC_BOOTSTRAP" --topic "$1" --count "$2" \
    --partitions "$3" --start "${4:-0}" --seed "${5:-1}" >/dev/null
}

# flink GROUP TOPIC P:C,...: the Flink-like copier up to C, then C committed.
flink() {
  "${KIT[@]}" flink-copy --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" \
    --group "$1" --topic "$2" --upto "$3" >/dev/null
}

# migration NAME TOPIC REGEX PARTITIONS RECORDS UPTO: a fresh migration NAME
# (oj_dir, oj_files replicating REGEX), TOPIC on both clusters with RECORDS
# records, the group NAME-flink at UPTO (P:C,...); its directory in MIG.
migration() {
  MIG=$(oj_dir "$1")
  oj_files "$MIG" "$1" "$3"
  topics_both "$2:$4"
  produce "$2" "$5" "$4"
  flink "$1-flink" "$2" "$6"
}

# export_plan DIR: export (2 s between the reads) and plan; fails the test on error. PLAN_DIGEST
# is plan's stdout: the digest.
export_plan() {
  run -0 oj "$1" export --config migration.ini --out export.json --stable-wait 2 -q
  # stdout alone: the digest (a warning, e.g. of boundary duplicates, goes to stderr).
  run -0 --separate-stderr oj "$1" plan --config migration.ini --export export.json --out plan.json -q
  # shellcheck disable=SC2154 # set by bats' run
  PLAN_DIGEST=$output
}

# connector_absent NAME: Connect has no such connector (GET answers 404).
connector_absent() {
  run -0 rest GET 1 "/connectors/$1"
  assert_line --index 0 404
}

# offsets_json NAME: the connector's offsets, sorted, one compact line.
offsets_json() {
  curl -s -m 100 "http://$(bed_worker_ip 1):8088/connectors/$1/offsets" |
    jq -c '.offsets | sort_by(.partition.topic, .partition.partition)'
}

# no_secret TEXT...: no sentinel password (the workers', the source's, the target's, REST's) in TEXT.
no_secret() {
  local t
  for t in "$@"; do
    if [[ "$t" == *"$BED_CONNECT_PASSWORD"* || "$t" == *"$BED_SOURCE_PASSWORD"* || "$t" == *"$BED_TARGET_PASSWORD"* ||
      "$t" == *"$BED_REST_PASSWORD"* || "$t" == *"$BED_REST_PROBE_PASSWORD"* ]]; then
      fail "the secret appeared in output"
    fi
  done
}
