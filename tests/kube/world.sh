#!/usr/bin/env bash
# The world of the tests that run on the test Kubernetes cluster (make kube-e2e, make
# alerts-e2e, make rehearsal): the cluster (tests/kube/cluster.sh) and the Kafka brokers its
# pods reach (tests/bed/bed.sh up 0 on mm2kit-kube, 198.18.22.0/24), started side by side.
#
#   world.sh up      both at once (about 25 s with the binaries cached); each one's output in
#                    $WORLD_LOGS/{cluster,bed}-up.log, the last lines of a failed one on stderr
#   world.sh down    the cluster first (its pods stop cleanly while the brokers still answer:
#                    a worker whose brokers are gone waits out its grace period), then the brokers
#
# BED_DIR (default build/kube/bed) goes to bed.sh as it is.
# Exit codes: 0 ok, 2 usage, otherwise the failed part's (cluster.sh, bed.sh: 3 a tool or the
# image is missing, 4 something did not come up).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/kube/kube.env
. "$here/kube.env"
export BED_NAME=$KUBE_BED_NAME BED_OCTET=$KUBE_BED_OCTET BED_DIR=${BED_DIR:-$root/build/kube/bed}
: "${WORLD_LOGS:=$root/build/kube/world}"
t0=$SECONDS

log() { printf 'world: [%3ds] %s\n' "$((SECONDS - t0))" "$*" >&2; }

up() {
  local cpid bpid crc=0 brc=0
  mkdir -p "$WORLD_LOGS"
  timeout 1800 "$here/cluster.sh" up >"$WORLD_LOGS/cluster-up.log" 2>&1 </dev/null &
  cpid=$!
  timeout 400 "$root/tests/bed/bed.sh" up 0 >"$WORLD_LOGS/bed-up.log" 2>&1 </dev/null &
  bpid=$!
  wait "$bpid" || brc=$?
  [ "$brc" = 0 ] && log "the brokers are up ($BED_NAME, 198.18.$BED_OCTET.0/24)"
  wait "$cpid" || crc=$?
  [ "$crc" = 0 ] && log "the cluster is up (KUBECONFIG=$KUBECONFIG)"
  if [ "$crc" != 0 ]; then
    tail -n 20 "$WORLD_LOGS/cluster-up.log" >&2
    log "error: the cluster did not come up (exit $crc); see $WORLD_LOGS/cluster-up.log"
  fi
  if [ "$brc" != 0 ]; then
    tail -n 20 "$WORLD_LOGS/bed-up.log" >&2
    log "error: the brokers did not come up (exit $brc); see $WORLD_LOGS/bed-up.log"
  fi
  [ "$crc" = 0 ] || return "$crc"
  return "$brc"
}

down() {
  local rc=0 r=0
  timeout 300 "$here/cluster.sh" down || rc=$?
  timeout 300 "$root/tests/bed/bed.sh" down || r=$?
  [ "$rc" != 0 ] || rc=$r
  log "down (exit $rc)"
  return "$rc"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) printf 'usage: world.sh up | down\n' >&2; exit 2 ;;
esac
