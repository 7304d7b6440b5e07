# shellcheck shell=bash disable=SC2016
# The run log of the long runs on the bed (the rehearsal, tests/rehearsal/run.sh, and the fault
# matrix, tests/faults/run.sh): timestamped events and acceptance checks as JSON lines in $W,
# which their report.py reads.  Source after defining W and log().

now_ms() { date +%s%3N; }

event() { # KIND key=value... (values that parse as JSON stay JSON): a line of $W/events.jsonl
  local kind=$1 kv k v args=()
  shift
  for kv in "$@"; do
    k=${kv%%=*} v=${kv#*=}
    if [ -n "$v" ] && jq . >/dev/null 2>&1 <<<"$v"; then args+=(--argjson "$k" "$v"); else args+=(--arg "$k" "$v"); fi
  done
  jq -nc --arg kind "$kind" --argjson t "$(now_ms)" "${args[@]}" '$ARGS.named + {t: $t, kind: $kind}' >>"$W/events.jsonl"
}

check() { # NAME OK(0|1) DETAIL: one acceptance check, a line of $W/checks.jsonl
  jq -nc --arg name "$1" --argjson ok "$([ "$2" = 0 ] && echo true || echo false)" --arg detail "$3" \
    '{name: $name, ok: $ok, detail: $detail}' >>"$W/checks.jsonl"
  [ "$2" = 0 ] || log "check failed: $1: $3"
}
