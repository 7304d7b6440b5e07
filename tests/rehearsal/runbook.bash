# shellcheck shell=bash disable=SC2154
# The rehearsal runs docs/RUNBOOK.md's own commands, taken from the document by block id and
# index (scripts/runbook-commands --block ID --set NAME=VALUE --strict), so the runbook cannot
# drift from what works.  Sourced by run.sh after oj (podman) or kube.bash's oj (kube):
#   rbo STEP ID N [NAME=VALUE...]  the N-th command of block ID, typed "in the operator pod":
#                                  podman, a container of the Job's image, files and Secrets
#                                  with /work the cutover directory; kube, kubectl exec in the
#                                  pod mm2-operator.  stdout and stderr in CUT/STEP.out, .err.
#   rbw STEP ID N [NAME=VALUE...]  the N-th command of block ID, typed "on the workstation"
#                                  (kube only: the podman rehearsal has no kubectl): bash in
#                                  $W/workstation, whose cutover/ is CUT and whose k8s/ and
#                                  tests/ are the tree's, kubectl the cluster's.
# Each command run is recorded in $W/runbook-ran.tsv (ID<TAB>N); at the end rb_coverage checks
# that every command of the runbook was run, or is in tests/rehearsal/runbook-skip (with the
# reason), or, on podman, is not an mm2-offsets or mm2-probe line.
# Uses run.sh's W, CUT, root, on, STEP_MS, event, check, now_ms, die.

RB_EXTRACT=$root/scripts/runbook-commands
RB_SKIP=$root/tests/rehearsal/runbook-skip
RB_RAN=$W/runbook-ran.tsv
RB_WS=$W/workstation
: >"$RB_RAN"

# rb_line ID N [NAME=VALUE...]: the command, placeholders filled in; dies on one left over.
rb_line() {
  local id=$1 n=$2 kv line out
  local -a sets=() cmds
  shift 2
  for kv in "$@"; do sets+=(--set "$kv"); done
  # Not mapfile < <(...): a process substitution's failure would go unseen.
  out=$("$RB_EXTRACT" --block "$id" "${sets[@]}" --strict) ||
    die "scripts/runbook-commands --block $id: $("$RB_EXTRACT" --block "$id" "${sets[@]}" --strict 2>&1 >/dev/null)"
  mapfile -t cmds <<<"$out"
  line=${cmds[$((n - 1))]:-}
  [ -n "$line" ] || die "docs/RUNBOOK.md's block $id has no command $n"
  printf '%s\n' "$line"
}

# rb_done STEP ID N RC T0: recorded, timed, an event.
rb_done() {
  printf '%s\t%s\n' "$2" "$3" >>"$RB_RAN"
  STEP_MS[$1]=$(($(now_ms) - $5))
  event step name="$1" rc="$4" ms="${STEP_MS[$1]}" t0="$5" runbook="$2/$3"
}

rbo() {
  local step=$1 id=$2 n=$3 line t0 rc=0
  shift 3
  # rb_line's die ends only this command substitution: end the run too.
  line=$(rb_line "$id" "$n" "$@") || exit 4
  case $line in
    mm2-offsets\ * | mm2-probe\ *) ;;
    *) die "docs/RUNBOOK.md's $id/$n runs in the operator pod but is not mm2-offsets or mm2-probe: $line" ;;
  esac
  t0=$(now_ms)
  op_sh "$step" "$line" || rc=$?
  rb_done "$step" "$id" "$n" "$rc" "$t0"
  return "$rc"
}

rbw() {
  local step=$1 id=$2 n=$3 line t0 rc=0
  shift 3
  [ "$on" = kube ] || die "rbw $id/$n: workstation lines run on the kube rehearsal only"
  # rb_line's die ends only this command substitution: end the run too.
  line=$(rb_line "$id" "$n" "$@") || exit 4
  if [ ! -d "$RB_WS" ]; then
    mkdir -p "$RB_WS"
    ln -sfn "$CUT" "$RB_WS/cutover"
    ln -sfn "$root/k8s" "$RB_WS/k8s"
    ln -sfn "$root/tests" "$RB_WS/tests"
  fi
  t0=$(now_ms)
  (cd "$RB_WS" && PATH=$KUBE_BIN:$PATH timeout 900 bash -o pipefail -c "$line") >"$CUT/$step.out" 2>"$CUT/$step.err" || rc=$?
  rb_done "$step" "$id" "$n" "$rc" "$t0"
  return "$rc"
}

# rb_coverage: the check runbook.coverage (see above).
rb_coverage() {
  local id n cmd missing='' ran=0 skipped=0
  while IFS=$'\t' read -r id n cmd; do
    if grep -qxF "$id"$'\t'"$n" "$RB_RAN"; then
      ran=$((ran + 1))
    elif awk -v id="$id" -v n="$n" -v on="$on" '!/^#/ && $1 == id && ($2 == n || $2 == "*") && ($3 == on || $3 == "both") { f = 1 } END { exit !f }' "$RB_SKIP"; then
      skipped=$((skipped + 1))
    elif [ "$on" = podman ] && [[ "$cmd" != mm2-offsets\ * && "$cmd" != mm2-probe\ * ]]; then
      skipped=$((skipped + 1))
    else
      missing+="$id/$n "
    fi
  done < <("$RB_EXTRACT" --ids)
  check runbook.coverage "$([ -z "$missing" ] && echo 0 || echo 1)" \
    "docs/RUNBOOK.md's commands: $ran run as the document says, $skipped not run here (tests/rehearsal/runbook-skip$([ "$on" = podman ] && echo ', and every line but mm2-offsets and mm2-probe: no kubectl')); neither: ${missing:-none}"
}
