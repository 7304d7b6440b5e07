#!/usr/bin/env bats
# The audit trail on real clusters (docs/ARCHITECTURE.md §3.4): every artifact and report of a
# migration is also recorded in the [trail] topic on the target, with the [target] login's rows
# of docs/acls.md only, and `status --trail` reads it back whole, each digest verified, and
# restores the files a lost Job pod took with it.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

# restored DIR NAME: the newest file restored as OFFSET-NAME in DIR.
restored() {
  find "$1" -maxdepth 1 -name "*-$2" -printf '%f\n' | sort -n | tail -1 | sed "s|^|$1/|"
}

@test "the trail: every step of the cutover and the rollback reads back whole from the target, and the Job's files come back byte for byte" {
  d=$BED_DIR/offsets/acc
  # offsets.bats' cutover and rollback ran there (export, plan, apply, verify, resume, check,
  # stop twice, rollback-plan --commit), each run in its own container, as Job pods.
  [ -f "$d/rollback.csv" ] || fail "needs offsets.bats' cutover and rollback tests, run before this file"
  run -0 --separate-stderr oj "$d" status --config migration.ini --trail --format json
  assert_equal "$(jq -c '[.documents[] | select(.state != "ok")] | length' <<<"$output")" 0
  assert_equal "$(jq -c '[.documents[].step] | unique' <<<"$output")" \
    '["apply","check","export","plan","resume","rollback-plan","stop","verify"]'
  assert_equal "$(jq -c '.problems' <<<"$output")" '[]'
  assert_equal "$(jq -r '.migration' <<<"$output")" '{"connector":"acc","flink_group":"acc-flink"}'
  [[ "$stderr" == *"trail: whole: "*" documents, every digest verified"* ]] || fail "status said: $stderr"
  # resume recorded the digest it was approved with, before it started MM2.
  run -0 jq -r '[.documents[] | select(.step == "resume")] | length' <<<"$output"
  assert_output 1
  # The Job's pod is gone, and its files with it: the trail gives them back, byte for byte.
  mkdir -p "$d/restored" && chmod 0777 "$d/restored"
  run -0 --separate-stderr oj "$d" status --config migration.ini --trail --restore restored
  [[ "$stderr" == *"trail: restored "*" documents into restored"* ]] || fail "status said: $stderr"
  local f
  for f in export.json plan.json check.json rollback.csv; do
    [ -n "$(restored "$d/restored" "$f")" ] || fail "$f was not restored: $(ls "$d/restored")"
    cmp "$d/$f" "$(restored "$d/restored" "$f")" || fail "the restored $f differs"
  done
  cmp "$(ls "$d"/backup-acc-*.json)" "$(restored "$d/restored" "$(basename "$(ls "$d"/backup-acc-*.json)")")"
  # and the restored plan is taken as the plan was: its seal and its migration hold.
  run -0 oj "$d" status --config migration.ini --plan "restored/$(basename "$(restored "$d/restored" plan.json)")" -q
}

# make e2e (not make test: its refusals before Kafka are tests/cli/offsets_trail.bats').
# bats test_tags=long
@test "a command that cannot record keeps its file and exits 5 naming the fix, and record puts the file in the trail later" {
  migration trl trl.t 'trl\\.t' 2 40 0:10,1:12
  # Nothing recorded yet for this migration: refused, saying so.
  run -1 --separate-stderr oj "$MIG" status --config migration.ini --trail --format json
  [[ "$stderr" == *"refused: the trail mm2kit.trail holds nothing for migration"*"trl"* ]] || fail "status said: $stderr"
  # Write on the trail taken from the [target] login: export writes its file, then exits 5
  # naming the refusal and how to record it later.
  local line
  line=$(grep -n -- '| target | Write | Topic | {trail topic} |' "$E2E_ROOT/docs/acls.md" | cut -d: -f1)
  run -0 "${KIT[@]}" grant --revoke-line "$line" --name "trail topic=mm2kit.trail"
  run --separate-stderr oj "$MIG" export --config migration.ini --out export.json --stable-wait 2
  local rc=$status err=$stderr
  run -0 "${KIT[@]}" grant --role target --name "trail topic=mm2kit.trail"
  [ "$rc" -eq 5 ] || fail "export exited $rc: $err"
  [[ "$err" == *"TOPIC_AUTHORIZATION_FAILED"*"export.json is not in the audit trail: fix that, then run 'mm2-offsets record --config migration.ini --file export.json'"* ]] ||
    fail "export said: $err"
  [ -s "$MIG/export.json" ]
  # Granted again: record puts it in the trail under the step that wrote it.
  run -0 --separate-stderr oj "$MIG" record --config migration.ini --file export.json
  [[ "$stderr" == *"trail: recorded export.json (mm2kit.export/v1, "*" in mm2kit.trail on the target"* ]] || fail "record said: $stderr"
  run -0 --separate-stderr oj "$MIG" status --config migration.ini --trail --format json
  assert_equal "$(jq -c '[.documents[] | [.step, .kind, .file, .state]]' <<<"$output")" \
    '[["export","mm2kit.export/v1","export.json","ok"]]'
  # Another migration's artifact is refused by record.
  cp "$BED_DIR/offsets/acc/plan.json" "$MIG/acc-plan.json"
  run -1 --separate-stderr oj "$MIG" record --config migration.ini --file acc-plan.json
  [[ "$stderr" == *"refused: acc-plan.json is of connector acc and Flink group acc-flink, not of this INI file's migration (connector trl, group trl-flink) [rule binding]"* ]] ||
    fail "record said: $stderr"
}

# 28.7 MB, 55 chunks: the export of 50,000 partitions (bench/limits' generator), recorded and read
# back whole. The host's mm2-offsets: the parse of so large an artifact needs more than the Job's
# 256 MiB (bench/README.md).
# bats test_tags=long
@test "a 50,000-partition export is recorded in 55 chunks and reads back whole, byte for byte" {
  local d
  d=$(oj_dir big)
  oj_files "$d" big 'prod\\.payments\\..*'
  python3 "$E2E_ROOT/bench/limits/gen_export.py" "$d/export.json" 50 1000 "sha256:$(printf '0%.0s' {1..64})"
  # the generator's migration is connector mirror-source, group flink-copy: this INI's
  sed -i 's/^group.id = .*/group.id = flink-copy/' "$d/migration.ini"
  jq '.name = "mirror-source"' "$d/connector.json" >"$d/c.json" && mv "$d/c.json" "$d/connector.json"
  "$BUILD/tests/seal-artifact" "$d/export.json" >/dev/null
  [ "$(stat -c %s "$d/export.json")" -gt 28000000 ]
  (cd "$d" && env MM2_SOURCE_SASL_USERNAME="$BED_SOURCE_USER" MM2_SOURCE_SASL_PASSWORD="$BED_SOURCE_PASSWORD" \
    MM2_TARGET_SASL_USERNAME="$BED_TARGET_USER" MM2_TARGET_SASL_PASSWORD="$BED_TARGET_PASSWORD" \
    MM2_REST_PASSWORD="$BED_REST_PASSWORD" "$BUILD/mm2-offsets" record --config migration.ini --file export.json) 2>"$d/record.err" ||
    fail "record: $(cat "$d/record.err")"
  grep -q "in 55 chunks" "$d/record.err" || fail "record said: $(cat "$d/record.err")"
  mkdir -p "$d/restored"
  (cd "$d" && env MM2_SOURCE_SASL_USERNAME="$BED_SOURCE_USER" MM2_SOURCE_SASL_PASSWORD="$BED_SOURCE_PASSWORD" \
    MM2_TARGET_SASL_USERNAME="$BED_TARGET_USER" MM2_TARGET_SASL_PASSWORD="$BED_TARGET_PASSWORD" \
    MM2_REST_PASSWORD="$BED_REST_PASSWORD" "$BUILD/mm2-offsets" status --config migration.ini --trail --restore restored --format json) \
    >"$d/status.json" 2>"$d/status.err" || fail "status: $(cat "$d/status.err")"
  assert_equal "$(jq -c '[.documents[] | [.step, .chunks, .chunks_read, .state]]' "$d/status.json")" '[["export",55,55,"ok"]]'
  cmp "$d/export.json" "$(restored "$d/restored" export.json)"
}
