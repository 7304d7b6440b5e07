# shellcheck shell=bash
# Sourced by the kube tests and the rehearsal on kube; needs KUBE_BIN and NS.

# kc ARGS...: kubectl on the test cluster, in the test namespace, bounded: 120 s, or 30 s
# more than a --timeout=Ns of its own (a rollout status or wait must end on its own timeout,
# with its own message, not be cut by this bound; a loaded machine makes rollouts slow).
kc() {
  local a t=120
  for a in "$@"; do
    case $a in --timeout=*[0-9]s) a=${a#--timeout=} && t=$((${a%s} + 30)) ;; esac
  done
  timeout "$t" "$KUBE_BIN/kubectl" -n "$NS" "$@"
}
