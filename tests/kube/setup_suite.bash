# shellcheck shell=bash
# The test cluster and the bed's brokers start once per run, side by side (tests/kube/world.sh,
# about 25 s warm), after the host's state is recorded for the last test to compare.  Output
# goes to files, not to bats' fd 3: background processes would inherit the pipe and bats
# would wait on it.
setup_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  export KUBE_E2E_DIR=$root/build/kube/e2e
  rm -rf "$KUBE_E2E_DIR"
  mkdir -p "$KUBE_E2E_DIR"
  # A crashed run's cluster and bed are removed first, so the record is the host's own.
  timeout 600 "$root/tests/kube/world.sh" down >"$KUBE_E2E_DIR/down-before.log" 2>&1 3>&- </dev/null || true
  "$root/tests/kube/cluster.sh" host-state >"$KUBE_E2E_DIR/host-before.txt" 2>&1 3>&- </dev/null
  if ! timeout 1800 "$root/tests/kube/world.sh" up >"$KUBE_E2E_DIR/up.log" 2>&1 3>&- </dev/null; then
    cat "$KUBE_E2E_DIR/up.log" >&3
    return 1
  fi
}

teardown_suite() {
  local root
  root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  [ -z "${MM2KIT_KEEP_KUBE:-}" ] || return 0
  # The producer 10_cluster.bats started, if 40_rollout.bats did not stop it.
  local pidf=$root/build/kube/e2e/producer.pid pid
  touch "$root/build/kube/e2e/ctl/stop" 2>/dev/null || true
  pid=$(cat "$pidf" 2>/dev/null || true)
  rm -f "$pidf"
  # Only while that PID is still the producer's timeout wrapper: PIDs wrap at 32768 here
  # (kernel.pid_max), so a stale PID can name another suite's process, whose children a blind
  # pkill -P would kill (a faults sampler and a rehearsal producer died so).
  if [[ $pid =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null |
    grep -qF -- "bedkit.py produce-loop --bootstrap"; then
    sleep 5
    # It flushes on SIGTERM, which can take minutes once the brokers are gone: SIGKILL.
    pkill -KILL -P "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
  fi
  timeout 600 "$root/tests/kube/world.sh" down >/dev/null 2>&1 3>&- </dev/null || true
}
