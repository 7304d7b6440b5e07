# shellcheck shell=bash
# What the bats suites on a bed (tests/e2e, tests/alerts) ask of its workers, sourced after
# bed.env: a bounded retry, and which worker leads the group.

# wait_for SECONDS COMMAND...: retries COMMAND once a second until it succeeds.
wait_for() {
  local t=$1; shift
  local end=$((SECONDS + t))
  until "$@"; do
    [ $SECONDS -lt $end ] || return 1
    sleep 1
  done
}

# worker_index_of IP: the index of the worker at that address (bed_worker_ip's inverse).
worker_index_of() { local ip=$1; printf '%s' "${ip##"$BED_WORKER_IP_PREFIX"}"; }

# leader_index [WORKER]: the group leader's index, from the newest assignment worker WORKER
# (1 unless told) logged.
leader_index() {
  local url
  url=$(podman logs "$(bed_worker_name "${1:-1}")" 2>&1 | grep -o "leaderUrl='http://[0-9.]*:8088/'" | tail -n 1)
  url=${url#leaderUrl=\'http://}
  worker_index_of "${url%%:*}"
}
