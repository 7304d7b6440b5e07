# shellcheck shell=bash
# The bed is slow to start (two brokers, three JVM workers): once per run.
setup_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  export BED_DIR=${BED_DIR:-$root/build/bed}
  timeout 400 "$root/tests/bed/bed.sh" up 3 >&3 2>&1
}

teardown_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  [ -n "${MM2KIT_KEEP_BED:-}" ] || timeout 300 "$root/tests/bed/bed.sh" down
}
