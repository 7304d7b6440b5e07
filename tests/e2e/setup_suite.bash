# shellcheck shell=bash
# The bed is slow to start (two brokers, three JVM workers): once per run.
# Its output goes to a file, not to bats' fd 3: the containers' conmon
# processes would inherit the pipe and bats would wait on it forever.
setup_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  export BED_DIR=${BED_DIR:-$root/build/bed}
  # Broker logs on the host, as on the fault matrix's bed: a broker restarted keeps its log.
  export BED_BROKER_DATA=${BED_BROKER_DATA:-1}
  mkdir -p "$BED_DIR"
  if ! timeout 400 "$root/tests/bed/bed.sh" up 3 >"$BED_DIR/up.log" 2>&1 3>&- </dev/null; then
    cat "$BED_DIR/up.log" >&3
    return 1
  fi
}

teardown_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  [ -n "${MM2KIT_KEEP_BED:-}" ] || timeout 300 "$root/tests/bed/bed.sh" down >/dev/null 2>&1 3>&- </dev/null
}
