#!/usr/bin/env bats
# The cluster comes down and leaves the host as it found it: every process stopped by
# its recorded PID, and every sysctl, link, address, route, chain, table, mount, cgroup
# and path as setup_suite recorded them before the cluster started.
# shellcheck disable=SC2154 # output and stderr are set by bats' run
load helpers

@test "down stops every process and leaves the host exactly as before the cluster" {
  # The record audit and the logs first: the namespace goes with the cluster.
  kc get events -o json >"$W/events.json" 2>/dev/null || true
  run -0 timeout 300 "$ROOT/tests/kube/cluster.sh" status
  # The cluster first: its pods stop cleanly while the brokers still answer.
  run -0 timeout 300 "$ROOT/tests/kube/cluster.sh" down
  run -0 timeout 300 "$ROOT/tests/bed/bed.sh" down
  run -1 timeout 60 "$ROOT/tests/kube/cluster.sh" status
  "$ROOT/tests/kube/cluster.sh" host-state >"$W/host-after.txt" 2>&1
  run diff -u "$W/host-before.txt" "$W/host-after.txt"
  assert_success
  [ ! -e "$KUBE_DIR" ]
}
