# shellcheck shell=bash
# The TLS bed (tests/bed/bed.sh with BED_SECURITY): its own name, network and
# CA, brokers only; each test starts the workers of the profile it proves.
setup_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  export BED_NAME=mm2kit-tls BED_OCTET=12 BED_SECURITY=sasl_ssl
  export BED_DIR=${BED_DIR:-$root/build/tls-bed}
  mkdir -p "$BED_DIR"
  if ! timeout 400 "$root/tests/bed/bed.sh" up 0 >"$BED_DIR/up.log" 2>&1 3>&- </dev/null; then
    cat "$BED_DIR/up.log" >&3
    return 1
  fi
}

teardown_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  [ -n "${MM2KIT_KEEP_BED:-}" ] || timeout 300 "$root/tests/bed/bed.sh" down >/dev/null 2>&1 3>&- </dev/null
}
