# shellcheck shell=bash
# Variables here are used by the .bats files that load this one.
# shellcheck disable=SC2034
# mm2-probe CLI tests: the built binary from a scrubbed environment (env -i),
# against tests/fakes/fake_connect.py, one fake server per test, started by
# the test (start_fake MODE) and killed in teardown. Everything runs under
# timeout.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

BUILD=${MM2_BUILD:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build}
PROBE=$BUILD/mm2-probe
FAKE_CONNECT=$BATS_TEST_DIRNAME/../fakes/fake_connect.py
E="mm2-probe: error:"
TRY="Try 'mm2-probe --help'."

# start_fake MODE: starts fake_connect.py in MODE and sets URL to it. The
# server's fds 1-3 go to a log: bats waits for any process holding them.
start_fake() {
  rm -f "$WORK/port"
  timeout 60 python3 "$FAKE_CONNECT" "$1" "$WORK/port" >"$WORK/fake.log" 2>&1 3>&- &
  FAKE_PID=$!
  local i
  for i in $(seq 100); do
    [ -s "$WORK/port" ] && break
    sleep 0.05
  done
  [ -s "$WORK/port" ] || { cat "$WORK/fake.log" >&2; fail "fake_connect $1 did not start in 5 s"; }
  URL="http://127.0.0.1:$(cat "$WORK/port")"
}

stop_fake() {
  if [ -n "${FAKE_PID:-}" ]; then
    kill "$FAKE_PID" 2>/dev/null || true
    wait "$FAKE_PID" 2>/dev/null || true
    FAKE_PID=
  fi
}

# A port on 127.0.0.1 with nothing listening: bound by the kernel, then closed.
closed_port() {
  timeout 10 python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# with_env NAME=value...: adds to the scrubbed environment of this test.
with_env() { ENV+=("$@"); }

# probe ARGS...: mm2-probe from the scrubbed environment ENV.
probe() { env -i "${ENV[@]}" timeout 20 "$PROBE" "$@"; }

# timed [-N] ARGS...: `run -N probe ARGS...`, and MS = its wall time in ms.
timed() {
  local t0 t1
  t0=$(date +%s%N)
  run "$@"
  t1=$(date +%s%N)
  MS=$(((t1 - t0) / 1000000))
}

# startup_ms: the wall time of one probe run that ends at once (a closed port),
# i.e. what exec, the dynamic loader and (under SAN=1) the sanitizer runtime cost
# on this machine right now, outside the probe's own deadline.
startup_ms() {
  local port t0 t1
  port=$(closed_port)
  t0=$(date +%s%N)
  probe live --url "http://127.0.0.1:$port" >/dev/null 2>&1
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}

# assert_near MS TARGET: the deadline fired within 100 ms of TARGET. Where the probe says how
# long it waited ("timed out after N ms", its own clock), N must be within 100 ms of TARGET.
# MS is the wall time of the whole process, so its upper bound adds the start-up cost measured
# now (startup_ms) and 300 ms for a loaded machine's scheduling (two SAN suites and a build side
# by side in make test): exec and the sanitizers are not the deadline. A deadline that is not
# kept still fails by far more.
# shellcheck disable=SC2154 # output is set by bats' run
assert_near() {
  local start said
  start=$(startup_ms)
  said=$(grep -oE 'timed out after [0-9]+ ms' <<<"$output" | grep -oE '[0-9]+' | head -n 1)
  if [ -n "$said" ] && { [ "$said" -lt $(($2 - 100)) ] || [ "$said" -gt $(($2 + 100)) ]; }; then
    fail "said it waited $said ms, expected $2 ms +/- 100 ms"
  fi
  if [ "$1" -lt $(($2 - 100)) ] || [ "$1" -gt $(($2 + 100 + start + 300)) ]; then
    fail "took $1 ms, expected $2 ms +/- 100 ms (+ $start ms to start a probe now, + 300 ms)"
  fi
}

setup() {
  WORK=$(mktemp -d /tmp/mm2-probe-cli.XXXXXX)
  ENV=("PATH=/usr/bin:/bin")
  FAKE_PID=
  URL=
}

teardown() {
  stop_fake
  rm -rf "$WORK"
}
