# shellcheck shell=bash
# One world for every step (the bed takes a minute to start): see harness.sh.
# Its output goes to a file, not to bats' fd 3: the containers' conmon
# processes and the background servers would inherit the pipe and bats would
# wait on it forever.
setup_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  mkdir -p "$root/build/alerts"
  if ! timeout 600 "$root/tests/alerts/harness.sh" up >"$root/build/alerts/up.log" 2>&1 3>&- </dev/null; then
    tail -n 30 "$root/build/alerts/up.log" >&3
    return 1
  fi
}

teardown_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  [ -n "${MM2KIT_KEEP_BED:-}" ] || timeout 300 "$root/tests/alerts/harness.sh" down >/dev/null 2>&1 3>&- </dev/null
}
