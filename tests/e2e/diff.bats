#!/usr/bin/env bats
# mm2-offsets diff on real workers (docs/day-two.md): a running connector equal to its file is 0,
# and a hand `curl PUT .../config` on it is drift that diff names, exit 7, secrets never shown.
# shellcheck disable=SC2154 # output and lines are set by bats' run
load helpers
load offsets_helpers

# put_config NAME JQ: PUT /connectors/NAME/config with its live config edited by the jq filter,
# as an operator would by hand.
put_config() {
  local cfg
  cfg=$(curl -s -m 100 "http://$(bed_worker_ip 1):8088/connectors/$1/config" | jq -c "$2")
  run -0 rest PUT 1 "/connectors/$1/config" "$cfg"
  assert_line --index 0 200
}

# make e2e (make test runs diff against the fake Connect: tests/cli/offsets_diff.bats).
# bats test_tags=long
@test "diff: a hand PUT of the running connector's config is drift, named by key, exit 7" {
  d=$(oj_dir dft)
  oj_files "$d" dft 'dft\\.t'
  topics_both dft.t:1
  produce dft.t 20 1
  run -0 rest POST 1 /connectors "$(cat "$d/connector.json")"
  assert_line --index 0 201
  wait_for 90 connector_running dft
  run -0 oj "$d" diff --config migration.ini -q
  assert_line --index 1 "verdict: the connector equals its file"
  no_secret "$output"
  # By hand: tasks.max, and a key the repository never had.
  put_config dft '.["tasks.max"] = "1" | .["offset.lag.max"] = "50"'
  run -7 oj "$d" diff --config migration.ini -q
  assert_line --index 1 --partial 'harmless: removed offset.lag.max: "50" -> (not set): '
  assert_line --index 2 --partial 'harmless: changed tasks.max: "1" -> "3": '
  assert_line --index 3 "verdict: harmless: a PUT of the file restarts the tasks only, the stored offsets stay"
  no_secret "$output"
  # A new alias by hand: it moves offsets.
  put_config dft '.["source.cluster.alias"] = "elsewhere"'
  run -7 --separate-stderr oj "$d" diff --config migration.ini --format json
  assert_equal "$(jq -c '[.class, [.changes[] | select(.key == "source.cluster.alias") | .old, .new, .class]]' <<<"$output")" \
    '["moves-offsets",["elsewhere","source","moves-offsets"]]'
  no_secret "$output" "$stderr"
  run -0 rest DELETE 1 /connectors/dft
}
