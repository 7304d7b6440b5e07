#!/usr/bin/env bats
# mm2-offsets: every artifact belongs to one migration, and each command that reads
# one refuses another migration's, field by field, before it touches Connect
# (tests/fakes/fake_connect.py stands by and must see no request); and each command
# that must not take an artifact of some kind (a plan as an export, a backup as a
# plan, ...) says what it was given. Without Kafka: the INI pins both cluster ids.
# bats' run --separate-stderr sets stderr; ${env:VAR} is INI syntax:
# shellcheck disable=SC2154,SC2016
load offsets_helpers

# The fields an artifact is bound by, one crafted artifact each.
FIELDS=(group source target connector config topics)

# seal_edit FILE PYTHON...: runs each statement over the JSON d of FILE, writes it
# back and seals it again, as if mm2-offsets had written it that way.
seal_edit() {
  local f=$1
  shift
  timeout 10 python3 - "$f" "$@" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
for stmt in sys.argv[2:]:
    exec(stmt)
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
  timeout 10 "$SEAL" "$f" >/dev/null
}

# plan_of FIELD: $WORK/plan-FIELD.json, the default plan as another migration's,
# differing in FIELD only.
plan_of() {
  local f=$WORK/plan-$1.json
  [ -e "$WORK/plan.json" ] || make_plan
  cp "$WORK/plan.json" "$f"
  case $1 in
    group) seal_edit "$f" 'd["flink"]["group_id"] = "other-flink"' ;;
    source) seal_edit "$f" 'd["source_cluster_id"] = "src-other"' ;;
    target) seal_edit "$f" 'd["target_cluster_id"] = "tgt-other"' ;;
    connector) seal_edit "$f" 'd["connector"]["name"] = "other-source"' ;;
    config) seal_edit "$f" "d['connector']['config_digest'] = '$BOGUS'" ;;
    topics) seal_edit "$f" 'for t in d["topics"]:
    if t["name"] == "payments":
        t.update(name="refunds", target="refunds", flink_target="refunds")
for e in d["partitions"]:
    if e["topic"] == "payments":
        e.update(topic="refunds", target_topic="refunds")' ;;
  esac
  printf '%s' "$f"
}

# export_of FIELD: $WORK/export-FIELD.json, the default export differing in FIELD.
export_of() {
  local f=$WORK/export-$1.json
  case $1 in
    group) make_export "$f" 'x["flink"]["group_id"] = "other-flink"' ;;
    source) make_export "$f" 'x["source_cluster_id"] = "src-other"' ;;
    target) make_export "$f" 'x["target_cluster_id"] = "tgt-other"' 'x["connect"]["kafka_cluster_id"] = "tgt-other"' ;;
    connector) make_export "$f" 'x["connector"]["name"] = "other-source"' ;;
    config) make_export "$f" "x['connector']['config_digest'] = '$BOGUS'" ;;
    topics) make_export "$f" 'topic("payments").update(name="refunds", target="refunds", flink_target="refunds")' \
      'part("payments", 0)["topic"] = "refunds"' ;;
  esac >/dev/null
  printf '%s' "$f"
}

# binding_line KIND FIELD CMD: CMD's refusal of an artifact of KIND differing in FIELD.
binding_line() {
  local d fix
  case $2 in
    group) d="its [flink] group.id is \"other-flink\", but $INI's is \"flink-copy\"" ;;
    source) d="its source cluster id is \"src-other\", but $INI pins [source] cluster.id \"$SRC_ID\"" ;;
    target) d="its target cluster id is \"tgt-other\", but $INI pins [target] cluster.id \"$TGT_ID\"" ;;
    connector) d="its connector is \"other-source\", but $WORK/connector.json names \"mirror-source\"" ;;
    config)
      # An export of the fixtures records no config view (as one of an older mm2-offsets); a
      # plan made from it records the INI connector's, equal here: only the digests differ.
      local older=""
      [ "$1" = export ] && older=", the export recorded only its digest"
      d="its connector config differs from the one in $WORK/connector.json ($BOGUS in the $1, $(config_digest) in connector.json$older)"
      ;;
    topics) d="its topic set (2 topics) holds \"refunds\", which the connector in $WORK/connector.json does not replicate" ;;
  esac
  fix="use the $1 made with this INI, or export and plan again"
  [ "$1" = export ] && fix="use the export made with this INI, or export again"
  printf '%s' "$E $3: error: refused: the $1 belongs to another migration: $d; $fix [rule binding]"
}

# refused_untouched CMD NOT_DONE LINE: the run refused with exactly LINE, its
# closing count and line, sent nothing to Kafka or Connect, and Connect saw no request.
refused_untouched() {
  assert_summary --stderr "$1" 1 0 0
  assert_equal "$stderr" "$3
$E $1: error: 1 refusal; $2"
  assert_equal "$output" ""
  if grep -q 'HTTP/1' "$WORK/fake.log"; then
    fail "$1 sent Connect a request: $(cat "$WORK/fake.log")"
  fi
}

# run_plan_cmd CMD PLAN: CMD on PLAN with whatever else it needs.
run_plan_cmd() {
  local c=$1 p=$2 extra=()
  case $c in
    resume) extra=(--approve "$(json_get "$p" 'd["digest"]')") ;;
    rollback-plan) extra=(--out "$WORK/rollback.csv") ;;
  esac
  run -1 --separate-stderr offsets "$c" --config "$INI" --plan "$p" "${extra[@]}"
}

# binding_matrix CMD: CMD refuses a plan of another migration for every field.
binding_matrix() {
  local c=$1 f
  start_fake offsets-stopped
  for f in "${FIELDS[@]}"; do
    run_plan_cmd "$c" "$(plan_of "$f")"
    refused_untouched "$c" "Connect was not touched" "$(binding_line plan "$f" "$c")"
  done
  [ ! -e "$WORK/rollback.csv" ] || fail "rollback-plan wrote its CSV"
  # The plan of this migration passes the same gate (here, verify reads it back).
  if [ "$c" = verify ]; then
    planned_offsets
    run -0 offsets verify --config "$INI" --plan "$WORK/plan.json" -q
  fi
}

@test "plan refuses an export of another migration, each field, with one line naming both values" {
  local f
  start_fake offsets-stopped
  for f in "${FIELDS[@]}"; do
    run -1 --separate-stderr offsets plan --config "$INI" --export "$(export_of "$f")" --out "$WORK/plan.json"
    refused_untouched plan "no plan written" "$(binding_line export "$f" plan)"
    [ ! -e "$WORK/plan.json" ] || fail "plan wrote a plan for the $f of another migration"
  done
}
@test "apply refuses a plan of another migration, each field, before it touches Kafka or Connect" {
  binding_matrix apply
}
@test "verify refuses a plan of another migration, each field, before it touches Connect" {
  binding_matrix verify
}
@test "resume refuses a plan of another migration, each field, even with its digest approved" {
  binding_matrix resume
}
@test "status refuses a plan of another migration, each field, before it touches Kafka or Connect" {
  binding_matrix status
}
@test "check refuses a plan of another migration, each field, before it touches Kafka" {
  binding_matrix check
}
@test "rollback-plan refuses a plan of another migration, each field, and writes no CSV" {
  binding_matrix rollback-plan
}
@test "a connector JSON changed after the plan: apply names the keys that differ, secrets masked and references as written [rule binding]" {
  make_plan
  # The operator raised tasks.max, moved a password into the JSON and referenced another.
  timeout 10 python3 - "$WORK/connector.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["config"]["tasks.max"] = "8"
d["config"]["source.cluster.ssl.key.password"] = "s3cret-in-the-json"
d["config"]["target.cluster.sasl.jaas.config"] = "${env:MM2_TARGET_JAAS}"
json.dump(d, open(sys.argv[1], "w"))
PY
  start_fake offsets-stopped
  run -1 --separate-stderr offsets apply --config "$INI" --plan "$WORK/plan.json"
  assert_equal "${stderr_lines[0]}" "$E apply: error: refused: the plan belongs to another migration: its connector config differs from the one in $WORK/connector.json (in 3 keys: source.cluster.ssl.key.password (not in the plan, a secret value in connector.json), target.cluster.sasl.jaas.config (not in the plan, \"\${env:MM2_TARGET_JAAS}\" in connector.json), tasks.max (\"4\" in the plan, \"8\" in connector.json)); use the plan made with this INI, or export and plan again [rule binding]"
  [[ "$stderr" != *s3cret-in-the-json* ]] || fail "the secret's value was printed"
  # The plan records the config secrets masked, references as written.
  run -0 json_get "$WORK/plan.json" 'sorted(d["connector"]["config"])[:3]'
  assert_output '["connector.class", "emit.offset-syncs.enabled", "name"]'
}
@test "every field that differs is one line of its own" {
  make_plan
  cp "$WORK/plan.json" "$WORK/other.json"
  seal_edit "$WORK/other.json" 'd["flink"]["group_id"] = "other-flink"' 'd["source_cluster_id"] = "src-other"' \
    'd["connector"]["config_digest"] = "'"$BOGUS"'"'
  start_fake offsets-stopped
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/other.json"
  assert_summary --stderr verify 1 0 0
  assert_equal "$stderr" "$(binding_line plan group verify)
$(binding_line plan source verify)
$(binding_line plan config verify)
$E verify: error: 3 refusals; Connect was not touched"
}
@test "without a pinned cluster id, the INI's value is read from the cluster, and an unreachable one exits 4" {
  make_plan
  ini_drop cluster.id
  ini_set request.timeout.seconds 1
  run -4 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 4 0 0
  assert_equal "$output" ""
  [[ $stderr == "$E verify: error: reading the source cluster's id (or pin it in $INI: [source] cluster.id): [source] cluster id: no broker answered within "* ]] ||
    fail "unexpected: $stderr"
}
@test "a pinned cluster.id must look like a Kafka cluster id, once per section" {
  ini_add source 'cluster.id = not a cluster id!'
  run -3 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_output "$E verify: error: $INI: [source] cluster.id is given twice (or continued on an indented line); give it once"
  write_ini
  sed -i "s/^cluster.id = $SRC_ID/cluster.id = not a cluster id!/" "$INI"
  run -3 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_output "$E verify: error: $INI: [source] cluster.id must be a Kafka cluster id (1 to 63 characters of [A-Za-z0-9._-], as kafka-cluster.sh cluster-id prints it), got \"not a cluster id!\""
}

# --- an artifact of the wrong kind ----------------------------------------------------------

# artifact KIND: a file of that kind, as mm2-offsets writes it.
artifact() {
  local f=$WORK/a-$1.json
  case $1 in
    export) make_export "$f" >/dev/null ;;
    plan) make_plan "$f" ;;
    verify)
      start_fake offsets-stopped
      planned_offsets
      make_plan
      offsets verify --config "$INI" --plan "$WORK/plan.json" --report "$f" -q >/dev/null
      stop_fake
      ;;
    backup | check)
      make_plan
      timeout 10 python3 - "$f" "$1" "$WORK/plan.json" <<'PY'
import json, sys
f, kind, plan = sys.argv[1:4]
p = json.load(open(plan))
m = {"flink_group_id": p["flink"]["group_id"], "source_cluster_id": p["source_cluster_id"],
     "target_cluster_id": p["target_cluster_id"], "connector": p["connector"]["name"],
     "source_alias": p["connector"]["source_alias"],
     "config_digest": p["connector"]["config_digest"], "topics": [t["name"] for t in p["topics"]]}
x = {"kind": "mm2kit.%s/v2" % kind, "tool": "mm2-offsets test", "created": "2026-01-02T03:04:05Z",
     "plan_digest": p["digest"], "migration": m}
if kind == "backup":
    x["offsets"] = [{"cluster": "src", "topic": "orders", "partition": 0, "offset": 99}]
else:
    x.update(partitions=[], equal=0, pending=0, failed=0, ok=True)
json.dump(x, open(f, "w"), indent=2)
PY
      timeout 10 "$SEAL" "$f" >/dev/null
      ;;
  esac
  [ -s "$f" ] || fail "no $1 artifact"
  printf '%s' "$f"
}

# noun KIND: what the refusal calls an artifact of KIND.
noun() {
  case $1 in
    export) echo "an export" ;;
    plan) echo "a plan" ;;
    backup) echo "a backup of a connector's offsets" ;;
    verify) echo "a verify report" ;;
    check) echo "a check report" ;;
  esac
}

# wrong_kind KIND: every command that must not take an artifact of KIND refuses it
# with one line naming what it is and what to give instead, exit 3.
wrong_kind() {
  local k=$1 f c want v=v1
  f=$(artifact "$k")
  [ "$k" = export ] || [ "$k" = plan ] || v=v2
  if [ "$k" != export ]; then
    run -3 --separate-stderr offsets plan --config "$INI" --export "$f" --out "$WORK/out.json"
    assert_summary --stderr plan 3 0 0
    assert_equal "$stderr" "$E plan: error: $f: this is $(noun "$k") (kind \"mm2kit.$k/$v\"), not an export: give the export that 'mm2-offsets export' wrote"
    [ ! -e "$WORK/out.json" ]
  fi
  [ "$k" != plan ] || return 0
  for c in apply verify resume status check accept remove rollback-plan; do
    want="$E $c: error: $f: this is $(noun "$k") (kind \"mm2kit.$k/$v\"), not a plan: give the plan that 'mm2-offsets plan' wrote"
    case $c in
      resume) run -3 --separate-stderr offsets resume --config "$INI" --plan "$f" --approve "$BOGUS" ;;
      rollback-plan) run -3 --separate-stderr offsets rollback-plan --config "$INI" --plan "$f" --out "$WORK/r.csv" ;;
      *) run -3 --separate-stderr offsets "$c" --config "$INI" --plan "$f" ;;
    esac
    assert_summary --stderr "$c" 3 0 0
    assert_equal "$stderr" "$want"
  done
  [ ! -e "$WORK/r.csv" ]
}

@test "an export given where a plan goes: apply, verify, resume, status, check and rollback-plan exit 3" {
  wrong_kind export
}
@test "a plan given as the export: plan exits 3 naming what it was given" {
  wrong_kind plan
}
@test "a backup given as an export or a plan: every command exits 3 naming it a backup" {
  wrong_kind backup
}
@test "a verify report given as an export or a plan: every command exits 3 naming it" {
  wrong_kind verify
}
@test "a check report given as an export or a plan: every command exits 3 naming it" {
  wrong_kind check
}
@test "an artifact of another format version or an unknown kind says so" {
  make_plan
  cp "$WORK/plan.json" "$WORK/v9.json"
  seal_edit "$WORK/v9.json" 'd["kind"] = "mm2kit.plan/v9"'
  run -3 offsets verify --config "$INI" --plan "$WORK/v9.json"
  assert_summary verify 3 0 0
  assert_output "$E verify: error: $WORK/v9.json: this is a plan of another format version (kind \"mm2kit.plan/v9\"); this mm2-offsets reads \"mm2kit.plan/v1\": use the mm2-offsets that wrote it"
  seal_edit "$WORK/v9.json" 'd["kind"] = "acme.plan"'
  run -3 offsets verify --config "$INI" --plan "$WORK/v9.json"
  assert_summary verify 3 0 0
  assert_output "$E verify: error: $WORK/v9.json: kind \"acme.plan\" is no mm2-offsets artifact kind, and not \"mm2kit.plan/v1\": give the plan that 'mm2-offsets plan' wrote"
}
@test "the reports and backups name their migration" {
  local f
  f=$(artifact verify)
  run -0 json_get "$f" 'd["migration"]'
  assert_output "{\"flink_group_id\": \"flink-copy\", \"source_cluster_id\": \"$SRC_ID\", \"target_cluster_id\": \"$TGT_ID\", \"connector\": \"mirror-source\", \"source_alias\": \"src\", \"config_digest\": \"$(config_digest)\", \"topics\": [\"orders\", \"payments\"]}"
}
