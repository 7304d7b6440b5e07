#!/usr/bin/env bats
# Least privilege on real clusters (docs/acls.md): every client of the bed holds only its rows of
# that page, so a row taken away shows what it does. Here: the workers' Write on a replicated
# target topic. A cutover that skips preflight gets through export, plan, apply and verify (none
# of them writes records) and the task fails only once resumed; resume, status and mm2-probe
# must then say it is an authorization refusal, on which topic, and what to do.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers
load offsets_helpers

probe() { # WORKER_INDEX ARGS...: mm2-probe inside worker I, as the kubelet runs it
  local i=$1
  shift
  timeout 30 podman exec "$(bed_worker_name "$i")" mm2-probe "$@" "${BED_PROBE_AUTH[@]}"
}

# acl_line PATTERN: the line number in docs/acls.md of the one row matching PATTERN.
acl_line() {
  local n
  n=$(grep -n -- "$1" "$E2E_ROOT/docs/acls.md" | cut -d: -f1)
  [ "$(wc -w <<<"$n")" = 1 ] || fail "docs/acls.md: not exactly one row matches '$1': $n"
  printf '%s' "$n"
}

# bats test_tags=acl-table
@test "without the workers' Write on a target topic the task FAILs after resume; resume, status and mm2-probe name the refusal, the topic and docs/acls.md" {
  migration acl acl.orders 'acl\\.orders' 2 100 0:20,1:30
  line=$(acl_line '^| target | Write | Topic | {replicated topic} | literal | always | task producer')
  run -0 "${KIT[@]}" grant --revoke-line "$line" --name "replicated topic=acl.orders"
  assert_output "target User:$BED_CONNECT_USER WRITE TOPIC acl.orders LITERAL"
  export_plan "$MIG"
  run -0 oj "$MIG" apply --config migration.ini --plan plan.json -q
  run -0 oj "$MIG" verify --config migration.ini --plan plan.json -q
  # resume waits for RUNNING: it may see the tasks RUNNING before the first send is refused (0),
  # or the refusal (1); either way the task is FAILED soon after.
  run --separate-stderr oj "$MIG" resume --config migration.ini --plan plan.json --approve "$PLAN_DIGEST"
  [ "$status" -eq 0 ] || [ "$status" -eq 1 ] || fail "resume exited $status: $stderr"
  if [ "$status" -eq 1 ]; then
    [[ "$stderr" == *"authorization: TopicAuthorizationException: Not authorized to access topics: [acl.orders]"*"docs/acls.md"* ]] ||
      fail "resume said: $stderr"
  fi
  wait_for 120 bash -c "curl -s http://$(bed_worker_ip 1):8088/connectors/acl/status | jq -e '[.tasks[].state] | index(\"FAILED\") != null' >/dev/null"
  run -1 --separate-stderr oj "$MIG" status --config migration.ini --plan plan.json --format json
  [[ "$stderr" == *"is RUNNING, task "*" FAILED on "*"; its trace: authorization: TopicAuthorizationException: Not authorized to access topics: [acl.orders]"*"grant the row of docs/acls.md"* ]] ||
    fail "status said: $stderr"
  assert_equal "$(jq -c '[.failed_authorization, (.failed_cause | test("TopicAuthorizationException.*\\[acl.orders\\]"))]' <<<"$output")" '[true,true]'
  run -1 probe 2 connectors --connector acl --timeout 10
  assert_output --partial "is FAILED on worker"
  assert_output --partial ": authorization: TopicAuthorizationException: Not authorized to access topics: [acl.orders]"
  assert_output --partial "a principal lacks an ACL (docs/acls.md)"
  # The row granted again and the task restarted: it copies from the plan's M + 1, as it would have.
  run -0 "${KIT[@]}" grant --role workers --name "replicated topic=acl.orders"
  run -0 rest POST 1 "/connectors/acl/restart?includeTasks=true&onlyFailed=true"
  run -0 "${KIT[@]}" compare --source "$BED_SRC_BOOTSTRAP" --target "$BED_TGT_BOOTSTRAP" --topic acl.orders --timeout 180
  run -0 rest DELETE 1 /connectors/acl
}
