#!/usr/bin/env bats
# docs/RUNBOOK.md against the tree, without a cluster: the commands of its ```sh runbook blocks
# (scripts/runbook-commands) use only the mm2-offsets and mm2-probe subcommands and options the
# built binaries' --help lists, name only the Kubernetes objects, labels and files that k8s/base
# and the tree hold, and run where they can (mm2-offsets in the operator pod, kubectl on the
# workstation); every subcommand has its step; every [rule NAME] the code raises has its line
# and no other; its exit-code table is the README's; its alerts are k8s/base's. So the runbook
# cannot drift from what works: each checker is also run once on a copy with one thing broken,
# and must fail.
# bats' run sets output, lines and status:
# shellcheck disable=SC2154
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
BUILD=${MM2_BUILD:-$ROOT/build}
OFF=$BUILD/mm2-offsets
PROBE=$BUILD/mm2-probe
RUNBOOK=$ROOT/docs/RUNBOOK.md
EXTRACT=$ROOT/scripts/runbook-commands
BASE=$ROOT/k8s/base
JOB=$BASE/job-offsets.yaml
# The namespace every kubectl line names: the example overlay's.
NS=$(sed -n 's/^namespace: *//p' "$ROOT/k8s/overlays/example/kustomization.yaml")

# kubectl to render the base with: the test cluster's pinned one, else one on PATH; none: the
# base's own files are read instead.
find_kubectl() {
  local k
  for k in "${MM2KIT_CACHE:-/var/cache/mm2kit}"/kubernetes/*/bin/kubectl; do
    [ -x "$k" ] && { printf '%s\n' "$k"; return 0; }
  done
  command -v kubectl || true
}

# objects_of: "Kind name" of every object in the YAML on stdin (kind: and metadata.name at the
# top level of each document).
objects_of() {
  awk '/^---/ { kind = ""; meta = 0; next }
       /^kind: / { kind = $2 }
       /^metadata:/ { meta = 1; next }
       /^[^ ]/ { meta = 0 }
       meta && /^  name: / { if (kind != "") print kind, $2; meta = 0 }'
}

# refs_of: "Secret name" / "ConfigMap name" for every Secret and ConfigMap the YAML on stdin
# refers to (the name: inside a secretKeyRef, secretRef, configMapKeyRef, configMapRef or
# configMap, whatever the order of its keys; secretName): those the operator creates
# (mm2-connect-auth, mm2-rest-auth, the plan).
refs_of() {
  awk '{ ind = match($0, /[^ -]/) - 1; line = substr($0, ind + 1) }
       blk != "" && ind <= bind { blk = "" }
       line ~ /^secretName: / { sub(/^secretName: /, "", line); print "Secret", line; next }
       blk != "" && line ~ /^name: / { sub(/^name: /, "", line); print blk, line; next }
       line ~ /^(secretKeyRef|secretRef):$/ { blk = "Secret"; bind = ind; next }
       line ~ /^(configMapKeyRef|configMapRef|configMap):$/ { blk = "ConfigMap"; bind = ind }'
}

# base_objects MODE: "Kind name" of what k8s/base holds or refers to; MODE rendered (kubectl
# kustomize; a generated ConfigMap also under its generator's name) or files (its YAML files,
# and the configMapGenerator's names).
base_objects() {
  local yaml
  if [ "$1" = rendered ]; then
    yaml=$("$KUBECTL" kustomize "$BASE") || return 1
  else
    yaml=$(for f in "$BASE"/*.yaml; do
      [ "${f##*/}" = kustomization.yaml ] || { cat "$f"; echo '---'; }
    done)
    awk '/^configMapGenerator:/ { on = 1; next } /^[^ ]/ { on = 0 }
         on && /^  - name: / { print "ConfigMap", $3 }' "$BASE/kustomization.yaml"
  fi
  objects_of <<<"$yaml" | sed -E -n 'p; s/^(ConfigMap .*)-[a-z0-9]{10}$/\1/p'
  refs_of <<<"$yaml"
  # The namespace the overlays set (k8s/overlays/example), and the operator's pod: named by
  # tests/kube/operator-pod.jq, from the Job's template.
  echo "Namespace $NS"
  sed -n 's/.*metadata: {name: "\([a-z0-9-]*\)".*/Pod \1/p' "$ROOT/tests/kube/operator-pod.jq"
}

# commands FILE: the runbook's commands, placeholders (<LIKE_THIS>) replaced by PLACEHOLDER.
commands() {
  "$EXTRACT" "$1" | sed -E 's/<[A-Za-z][A-Za-z0-9_]*>/PLACEHOLDER/g'
}

# words LINE: LINE's words as a shell reads them (quotes and backslashes undone), one a line;
# an unquoted |, ;, >, < or && is a word of its own. Status 1 for an open quote.
words() {
  local s=$1 i=0 c w='' have=0 q=''
  while [ "$i" -lt "${#s}" ]; do
    c=${s:i:1}
    if [ -n "$q" ]; then
      if [ "$c" = "$q" ]; then
        q=''
      elif [ "$q" = '"' ] && [ "$c" = "\\" ]; then
        i=$((i + 1))
        w+=${s:i:1}
      else
        w+=$c
      fi
    else
      case $c in
        "'" | '"') q=$c have=1 ;;
        "\\") i=$((i + 1)) && w+=${s:i:1} && have=1 ;;
        ' ' | $'\t') [ "$have" = 0 ] || { printf '%s\n' "$w" && w='' && have=0; } ;;
        '|' | ';' | '>' | '<')
          [ "$have" = 0 ] || { printf '%s\n' "$w" && w='' && have=0; }
          printf '%s\n' "$c"
          ;;
        '&')
          if [ "${s:i+1:1}" = '&' ]; then
            [ "$have" = 0 ] || { printf '%s\n' "$w" && w='' && have=0; }
            printf '&&\n'
            i=$((i + 1))
          else
            w+=$c have=1
          fi
          ;;
        *) w+=$c have=1 ;;
      esac
    fi
    i=$((i + 1))
  done
  [ -z "$q" ] || return 1
  [ "$have" = 0 ] || printf '%s\n' "$w"
}

# offsets_commands FILE: the command lines that run mm2-offsets or mm2-probe: typed, or after
# kubectl exec ... --.
offsets_commands() {
  local line
  while IFS= read -r line; do
    case $line in
      mm2-offsets\ * | mm2-probe\ *) printf '%s\n' "$line" ;;
      kubectl\ *\ --\ mm2-offsets\ * | kubectl\ *\ --\ mm2-probe\ *) printf '%s\n' "${line#* -- }" ;;
    esac
  done < <(commands "$1")
}

# option_listed HELP OPTION: OPTION (--long or -s) is one of the Options lines of HELP.
option_listed() {
  local o=$2
  if [[ "$o" == --* ]]; then
    grep -qE -- "^ +(-[A-Za-z0-9], )?${o}( |$)" <<<"$1"
  else
    grep -qE -- "^ +${o}, --" <<<"$1"
  fi
}

# check_tool LINE: LINE (mm2-offsets or mm2-probe, read with bash word splitting) names a
# subcommand the binary has and only options its --help lists. One line per problem.
check_tool() {
  local -a w
  local prog sub help subs i o bad=0
  read -ra w <<<"$1"
  prog=${w[0]}
  case $prog in
    mm2-offsets)
      subs=$("$OFF" --help | awk '/^Commands/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }')
      ;;
    mm2-probe)
      subs=$("$PROBE" --help | awk '/^Checks:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }')
      ;;
    *) echo "$1: not mm2-offsets or mm2-probe" && return 1 ;;
  esac
  sub=${w[1]:-}
  case $sub in
    --version | -V | --help | -h) return 0 ;;
  esac
  grep -qxF -- "$sub" <<<"$subs" || { echo "$1: $prog has no command '$sub'"; return 1; }
  help=$("$([ "$prog" = mm2-offsets ] && echo "$OFF" || echo "$PROBE")" "$sub" --help) ||
    { echo "$1: $prog $sub --help failed"; return 1; }
  for ((i = 2; i < ${#w[@]}; i++)); do
    o=${w[i]}
    case $o in
      '|' | '||' | '&&' | ';' | '>'* | '<'* | [0-9]'>'*) break ;;
      --*) o=${o%%=*} ;;
      -[A-Za-z0-9]) ;;
      *) continue ;;
    esac
    option_listed "$help" "$o" || { echo "$1: '$o' is not an option of $prog $sub"; bad=1; }
  done
  return "$bad"
}

# check_tools FILE: check_tool on every mm2-offsets and mm2-probe command of FILE.
check_tools() {
  local line bad=0 n=0
  while IFS= read -r line; do
    n=$((n + 1))
    check_tool "$line" || bad=1
  done < <(offsets_commands "$1")
  [ "$n" -gt 0 ] || { echo "$1: no mm2-offsets command"; bad=1; }
  return "$bad"
}

# kind_of WORD: the Kind a kubectl resource word names (job, jobs, deploy, cm, job.batch...).
kind_of() {
  local k=${1,,}
  k=${k%%.*}
  case $k in
    job | jobs) echo Job ;;
    deployment | deployments | deploy) echo Deployment ;;
    pod | pods | po) echo Pod ;;
    configmap | configmaps | cm) echo ConfigMap ;;
    secret | secrets) echo Secret ;;
    service | services | svc) echo Service ;;
    serviceaccount | serviceaccounts | sa) echo ServiceAccount ;;
    servicemonitor | servicemonitors) echo ServiceMonitor ;;
    prometheusrule | prometheusrules) echo PrometheusRule ;;
    networkpolicy | networkpolicies | netpol) echo NetworkPolicy ;;
    poddisruptionbudget | poddisruptionbudgets | pdb) echo PodDisruptionBudget ;;
    namespace | namespaces | ns) echo Namespace ;;
    *) echo "?$1" ;;
  esac
}

# path_ok WORD: a word naming a file of the tree (k8s/, tests/, docs/, scripts/, docker/)
# names one that exists; up to its first placeholder (k8s/overlays/<OVERLAY>: k8s/overlays).
path_ok() {
  local p=$1
  case $p in
    k8s/* | tests/* | docs/* | scripts/* | docker/*) ;;
    *) return 0 ;;
  esac
  p=${p%%PLACEHOLDER*}
  p=${p%/}
  [ -e "$ROOT/$p" ]
}

# check_kubectl OBJECTS WORDS...: one kubectl command's words (after "kubectl"): -n is the
# example overlay's namespace (kustomize excepted), every object it names is in OBJECTS ("Kind
# name" lines), every -l label is one k8s/base sets, every file of the tree it names exists.
check_kubectl() {
  local objects=$1 line ns='' a v verb kind name t sel kv
  local -a pos=() pairs=()
  shift
  line="kubectl $*"
  while [ $# -gt 0 ]; do
    a=$1
    shift
    case $a in
      --) break ;;
      -n | --namespace) ns=${1:-} && shift ;;
      --namespace=*) ns=${a#*=} ;;
      -l | --selector) sel=${1:-} && shift && pairs+=("$sel") ;;
      --selector=*) pairs+=("${a#*=}") ;;
      -f | --filename | -k | --kustomize)
        v=${1:-} && shift
        path_ok "$v" || echo "$line: $v does not exist"
        ;;
      -o | --output | -p | --patch | -c | --container | --type | --field-manager) shift ;;
      --from-file=*)
        v=${a#*=} && v=${v#*=}
        path_ok "$v" || echo "$line: $v does not exist"
        ;;
      -*) ;;
      *) pos+=("$a") ;;
    esac
  done
  verb=${pos[0]:-}
  if [ "$verb" = kustomize ]; then
    path_ok "${pos[1]:-}" || echo "$line: ${pos[1]:-} does not exist"
    [ -z "$ns" ] || echo "$line: kustomize takes no namespace"
    return 0
  fi
  if [ "$verb $(kind_of "${pos[1]:-}")" = "create Namespace" ]; then
    [ -z "$ns" ] || echo "$line: a namespace is made without -n"
  else
    [ "$ns" = "$NS" ] || echo "$line: -n is '$ns', not the namespace $NS of k8s/overlays/example"
  fi
  local -a targets=()
  case $verb in
    apply) ;;
    create)
      case ${pos[1]:-} in
        secret) targets=("Secret ${pos[3]:-}") ;;
        *) targets=("$(kind_of "${pos[1]:-}") ${pos[2]:-}") ;;
      esac
      ;;
    exec | logs)
      t=${pos[1]:-}
      if [[ "$t" == */* ]]; then targets=("$(kind_of "${t%%/*}") ${t#*/}"); else targets=("Pod $t"); fi
      ;;
    rollout)
      for t in "${pos[@]:2}"; do targets+=("$(kind_of "${t%%/*}") ${t#*/}"); done
      ;;
    get | describe | delete | patch | wait | label | annotate | edit | scale)
      if [[ "${pos[1]:-}" == */* ]]; then
        for t in "${pos[@]:1}"; do targets+=("$(kind_of "${t%%/*}") ${t#*/}"); done
      else
        IFS=, read -ra kinds <<<"${pos[1]:-}"
        for kind in "${kinds[@]}"; do
          [ "$(kind_of "$kind")" != "?$kind" ] || echo "$line: '$kind' is no kind of k8s/base"
          for name in "${pos[@]:2}"; do targets+=("$(kind_of "$kind") $name"); done
        done
      fi
      ;;
    *) echo "$line: verb '$verb' is not one this test reads: teach it" ;;
  esac
  for t in "${targets[@]}"; do
    [ "${t#* }" != PLACEHOLDER ] || continue
    grep -qxF -- "$t" <<<"$objects" || echo "$line: $t is not in k8s/base (nor referred to by it)"
  done
  for sel in "${pairs[@]}"; do
    IFS=, read -ra kinds <<<"$sel"
    for kv in "${kinds[@]}"; do
      grep -rqF -- "${kv%%=*}: ${kv#*=}" "$BASE" || echo "$line: label $kv is set by nothing in k8s/base"
    done
  done
}

# check_kubectls FILE MODE: check_kubectl on every kubectl command of FILE (a line's pipeline
# split at |, &&, ;, redirections left out); MODE as base_objects. Every file of the tree that
# any command names exists. One line per problem.
check_kubectls() {
  local objects line w n=0
  local -a cmd
  objects=$(base_objects "$2") || { echo "cannot read k8s/base ($2)"; return 1; }
  while IFS= read -r line; do
    cmd=()
    while IFS= read -r w; do
      case $w in
        '|' | '&&' | ';')
          if [ "${cmd[0]:-}" = kubectl ]; then n=$((n + 1)) && check_kubectl "$objects" "${cmd[@]:1}"; fi
          cmd=()
          ;;
        *) cmd+=("$w") ;;
      esac
      path_ok "$w" || echo "$line: $w does not exist"
    done < <(words "$line" | awk '$0 == ">" || $0 == "<" { skip = 1; next } skip { skip = 0; next } { print }'; echo '|')
  done < <(commands "$1") | tee "$BATS_TEST_TMPDIR/kubectl-problems"
  [ ! -s "$BATS_TEST_TMPDIR/kubectl-problems" ]
}

# blocks FILE: "WHERE<TAB>COMMAND" for every command of FILE's ```sh runbook blocks: WHERE is
# the block's first comment ("# on the workstation...", "# in the operator pod...").
blocks() {
  awk '/^```sh runbook( id=[^ \t]*)?[ \t]*$/ { on = 1; where = ""; cont = 0; next }
       on && /^```[ \t]*$/ { on = 0; next }
       !on { next }
       /^[ \t]*$/ { next }
       where == "" { where = ($0 ~ /^# /) ? $0 : "(none)"; if ($0 ~ /^# /) next }
       /^[ \t]*#/ && !cont { next }
       { if (!cont) { c = $0; sub(/^[ \t]+/, "", c); print where "\t" c } cont = /\\$/ }' "$1"
}

@test "runbook-commands: --help on stdout, exit 0; an unknown option, a missing file and an open block exit 2" {
  run -0 --separate-stderr "$EXTRACT" --help
  assert_line --index 0 "Usage: scripts/runbook-commands [--only PROGRAM] [--block ID] [--set NAME=VALUE]... [--strict] [--ids] [FILE]"
  assert_equal "$stderr" ""
  run -2 --separate-stderr "$EXTRACT" --bogus
  assert_equal "$stderr" "runbook-commands: unknown option '--bogus'
Try 'scripts/runbook-commands --help'."
  run -2 --separate-stderr "$EXTRACT" "$BATS_TEST_TMPDIR/none.md"
  assert_output ""
  printf '%s\n' '```sh runbook' 'kubectl get pods' >"$BATS_TEST_TMPDIR/open.md"
  run -2 --separate-stderr "$EXTRACT" "$BATS_TEST_TMPDIR/open.md"
  assert_output ""
  assert_equal "${stderr_lines[0]}" "runbook-commands: $BATS_TEST_TMPDIR/open.md:1: the \`\`\`sh runbook block that starts here never closes"
}

@test "runbook-commands: only sh runbook blocks, continued lines joined, comments and blank lines skipped; --only" {
  cat >"$BATS_TEST_TMPDIR/t.md" <<'EOF'
text `kubectl not-me`
```sh
kubectl not-me-either
```
```sh runbook
# a comment

  kubectl -n mm2 get job \
      mm2-offsets-apply
mm2-offsets verify --config a.ini --plan p.json
```
```text
mm2-offsets not-me
```
EOF
  run -0 "$EXTRACT" "$BATS_TEST_TMPDIR/t.md"
  assert_output "kubectl -n mm2 get job mm2-offsets-apply
mm2-offsets verify --config a.ini --plan p.json"
  run -0 "$EXTRACT" --only mm2-offsets "$BATS_TEST_TMPDIR/t.md"
  assert_output "mm2-offsets verify --config a.ini --plan p.json"
  run -0 "$EXTRACT" --only=kubectl "$BATS_TEST_TMPDIR/t.md"
  assert_output "kubectl -n mm2 get job mm2-offsets-apply"
  # By default, docs/RUNBOOK.md.
  run -0 "$EXTRACT"
  [ "${#lines[@]}" -ge 20 ] || fail "only ${#lines[@]} commands in docs/RUNBOOK.md"
}

@test "every mm2-offsets command has its step: typed in the operator pod, or apply and verify in the offset Job it runs" {
  local -a subs
  local s job
  mapfile -t subs < <("$OFF" --help | awk '/^Commands/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }')
  for s in preflight export plan apply verify resume status check accept stop remove rollback-plan; do
    printf '%s\n' "${subs[@]}" | grep -qxF "$s" || fail "mm2-offsets --help lists no $s"
  done
  run -0 offsets_commands "$RUNBOOK"
  for s in "${subs[@]}"; do
    [ "$s" != diff ] && [ "$s" != update ] || continue # day two: docs/day-two.md, below
    assert_line --regexp "^mm2-offsets $s( |\$)"
  done
  run -0 offsets_commands "$ROOT/docs/day-two.md"
  assert_line --regexp "^mm2-offsets diff( |\$)"
  assert_line --regexp "^mm2-offsets update( |\$)"
  # apply also runs in the Job the runbook unsuspends and waits for, as the Job's own command.
  job=$(sed -n 's/^ *\(&& \)\{0,1\}\(mm2-offsets [a-z-]* --config .*\)$/\2/p' "$JOB")
  assert_equal "$(cut -d' ' -f2 <<<"$job" | tr '\n' ' ')" "apply verify "
  run -0 commands "$RUNBOOK"
  assert_line "kubectl -n $NS patch job mm2-offsets-apply --type=merge -p '{\"spec\":{\"suspend\":false}}'"
  assert_line --regexp "^kubectl -n $NS wait --for=condition=Complete job/mm2-offsets-apply --timeout=[0-9]+s\$"
  assert_line --regexp "^kubectl -n $NS logs job/mm2-offsets-apply "
}

@test "every mm2-offsets and mm2-probe command uses a subcommand and options the binaries' --help lists; the Job's too" {
  local line
  run -0 check_tools "$RUNBOOK"
  assert_output ""
  run -0 check_tools "$ROOT/docs/day-two.md"
  assert_output ""
  while IFS= read -r line; do
    run -0 check_tool "$line"
  done < <(sed -n 's/^ *\(&& \)\{0,1\}\(mm2-offsets [a-z-]* --config .*\)$/\2/p' "$JOB")
}

@test "a misspelled option, an unknown subcommand or a misspelled probe option fails the check" {
  local copy=$BATS_TEST_TMPDIR/RUNBOOK.md
  sed 's/--out export.json$/--out export.json --stable-wiat 90/' "$RUNBOOK" >"$copy"
  run -1 check_tools "$copy"
  assert_output --partial "'--stable-wiat' is not an option of mm2-offsets export"
  sed 's/^mm2-offsets rollback-plan /mm2-offsets rollback /' "$RUNBOOK" >"$copy"
  run -1 check_tools "$copy"
  assert_output --partial "mm2-offsets has no command 'rollback'"
  sed 's/--password-env MM2_REST_PASSWORD/--pasword-env MM2_REST_PASSWORD/' "$RUNBOOK" >"$copy"
  run -1 check_tools "$copy"
  assert_output --partial "'--pasword-env' is not an option of mm2-probe connectors"
  rm -f "$copy"
}

@test "mm2-offsets runs in the operator pod with the Job's INI; kubectl on the workstation; every block says where" {
  local config plan_cm plan_key
  run -0 blocks "$RUNBOOK"
  refute_line --regexp $'^\\(none\\)\t'
  refute_line --regexp $'^# on the workstation[^\t]*\t(mm2-offsets|mm2-probe) '
  refute_line --regexp $'^# in the operator pod[^\t]*\tkubectl '
  refute_line --regexp $'^(# on the workstation|# in the operator pod)[^\t]*\t.* # '
  while IFS= read -r line; do
    [[ "$line" == "# on the workstation"* || "$line" == "# in the operator pod"* ]] || fail "a block runs elsewhere: $line"
  done <<<"$output"
  # --config is where the Job mounts its INI; the plan ConfigMap and key are those it mounts.
  config=$(grep -o -- '--config [^ ]*' "$JOB" | head -n 1 | cut -d' ' -f2)
  run -0 bash -c "grep -o -- '--config [^ ]*' <<<\"\$(\"$EXTRACT\" --only mm2-offsets \"$RUNBOOK\")\" | sort -u"
  assert_output "--config $config"
  plan_key=$(grep -o -- '--plan [^ ]*' "$JOB" | head -n 1 | cut -d' ' -f2)
  plan_cm=$(awk '/^      volumes:/ { on = 1 } on && /- name: plan$/ { p = 1; next } p && /name: / { print $2; exit }' "$JOB")
  assert_equal "$plan_cm" mm2-offsets-plan
  run -0 commands "$RUNBOOK"
  assert_line --regexp "^kubectl -n $NS create configmap $plan_cm --from-file=${plan_key##*/}="
  # mm2-probe asks the INI's [connect] url as its user.
  run -0 bash -c "\"$EXTRACT\" --only mm2-probe \"$RUNBOOK\" | grep -o -- '--url [^ ]*\\|--user [^ ]*' | sort -u"
  assert_output "--url $(sed -n 's/^url = //p' "$BASE/offsets/migration.ini")
--user $(sed -n 's/^username = //p' "$BASE/offsets/migration.ini")"
}

@test "every kubectl command names objects, labels and files of k8s/base and the tree (the rendered base)" {
  KUBECTL=$(find_kubectl)
  [ -n "$KUBECTL" ] || skip "no kubectl to render k8s/base with (the next test reads its files)"
  run -0 check_kubectls "$RUNBOOK" rendered
  assert_output ""
}

@test "every kubectl command names objects, labels and files of k8s/base and the tree (its files)" {
  run -0 check_kubectls "$RUNBOOK" files
  assert_output ""
  # Each kafka-topics.sh --create is one of the workers' internal topics.
  run -0 bash -c "\"$EXTRACT\" \"$RUNBOOK\" | sed -n 's/^kafka-topics.sh .* --topic \\([^ ]*\\) .*/\\1/p' | sort"
  assert_output "$(sed -n 's/^  CONNECT_[A-Z]*_STORAGE_TOPIC: //p' "$BASE/configmap.yaml" | sort)"
}

@test "a kubectl command naming an object, a label or a file the tree lacks fails the check" {
  local copy=$BATS_TEST_TMPDIR/RUNBOOK.md
  sed 's|wait --for=condition=Complete job/mm2-offsets-apply|wait --for=condition=Complete job/mm2-offsets-aply|' "$RUNBOOK" >"$copy"
  run -1 check_kubectls "$copy" files
  assert_output --partial "Job mm2-offsets-aply is not in k8s/base"
  sed 's/create configmap mm2-offsets-plan /create configmap mm2-offsets-plans /' "$RUNBOOK" >"$copy"
  run -1 check_kubectls "$copy" files
  assert_output --partial "ConfigMap mm2-offsets-plans is not in k8s/base"
  sed 's/,app.kubernetes.io\/component=worker$/,app.kubernetes.io\/component=workers/' "$RUNBOOK" >"$copy"
  run -1 check_kubectls "$copy" files
  assert_output --partial "label app.kubernetes.io/component=workers is set by nothing in k8s/base"
  sed 's|-f tests/kube/operator-pod.jq|-f tests/kube/operator.jq|' "$RUNBOOK" >"$copy"
  run -1 check_kubectls "$copy" files
  assert_output --partial "tests/kube/operator.jq does not exist"
  sed "s/^kubectl -n $NS get job /kubectl -n default get job /" "$RUNBOOK" >"$copy"
  run -1 check_kubectls "$copy" files
  assert_output --partial "-n is 'default', not the namespace $NS"
  rm -f "$copy"
}

@test "the rules the runbook names are exactly those lib/ and jobs/ raise" {
  run -0 bash -c "grep -rhoE '\\[rule [a-z-]+\\]' '$ROOT/lib' '$ROOT/jobs' | sort -u"
  local code=$output
  run -0 bash -c "grep -oE '\\[rule [a-z-]+\\]' '$RUNBOOK' | sort -u"
  assert_equal "$output" "$code"
}

@test "the runbook's exit codes are the README's table" {
  run -0 bash -c "sed -n '/^## Exit codes/,/^## /p' '$ROOT/README.md' | grep -E '^\\| [0-9]+ \\|'"
  local readme=$output
  [ "${#lines[@]}" -ge 8 ] || fail "the README's table has ${#lines[@]} rows"
  run -0 bash -c "sed -n '/^## Exit codes/,/^## /p' '$RUNBOOK' | grep -E '^\\| [0-9]+ \\|'"
  assert_equal "$output" "$readme"
}

@test "the alerts the runbook lists are exactly k8s/base's" {
  run -0 bash -c "sed -n 's/^ *- alert: //p' '$BASE/prometheusrule.yaml' | sort"
  local alerts=$output
  run -0 bash -c "grep -oE '^\\| MM2[A-Za-z]+ \\|' '$RUNBOOK' | tr -d '| ' | sort"
  assert_equal "$output" "$alerts"
}

@test "runbook-commands: --block ID, --set NAME=VALUE, --strict and --ids; a bad, repeated or unknown id exits 2" {
  cat >"$BATS_TEST_TMPDIR/t.md" <<'EOF'
```sh runbook id=one
# in the operator pod
mm2-offsets resume --config a.ini --plan p.json --approve <PLAN_DIGEST>
mm2-offsets check --config a.ini --plan <PLAN>
```
```sh runbook
kubectl -n mm2 get pods
```
EOF
  run -0 "$EXTRACT" --block one --set PLAN_DIGEST=sha256:00 --set PLAN=p.json "$BATS_TEST_TMPDIR/t.md"
  assert_output "mm2-offsets resume --config a.ini --plan p.json --approve sha256:00
mm2-offsets check --config a.ini --plan p.json"
  run -1 --separate-stderr "$EXTRACT" --block one --set PLAN=p.json --strict "$BATS_TEST_TMPDIR/t.md"
  assert_output ""
  assert_equal "$stderr" "runbook-commands: $BATS_TEST_TMPDIR/t.md:3: <PLAN_DIGEST> is left in: mm2-offsets resume --config a.ini --plan p.json --approve <PLAN_DIGEST>"
  run -0 "$EXTRACT" --ids "$BATS_TEST_TMPDIR/t.md"
  assert_output "one	1	mm2-offsets resume --config a.ini --plan p.json --approve <PLAN_DIGEST>
one	2	mm2-offsets check --config a.ini --plan <PLAN>
-	1	kubectl -n mm2 get pods"
  run -2 --separate-stderr "$EXTRACT" --block two "$BATS_TEST_TMPDIR/t.md"
  assert_equal "${stderr_lines[0]}" "runbook-commands: $BATS_TEST_TMPDIR/t.md: no \`\`\`sh runbook block has the id 'two'"
  run -2 --separate-stderr "$EXTRACT" --set plan=x "$BATS_TEST_TMPDIR/t.md"
  assert_equal "${stderr_lines[0]}" "runbook-commands: --set needs NAME=VALUE (NAME as in <NAME>), got 'plan=x'"
  # shellcheck disable=SC2016 # backquotes, not an expansion
  sed 's/^```sh runbook$/```sh runbook id=one/' "$BATS_TEST_TMPDIR/t.md" >"$BATS_TEST_TMPDIR/dup.md"
  run -2 --separate-stderr "$EXTRACT" "$BATS_TEST_TMPDIR/dup.md"
  assert_equal "${stderr_lines[0]}" "runbook-commands: $BATS_TEST_TMPDIR/dup.md:6: block id 'one' is already the block's of line 1"
  sed 's/id=one/id=One/' "$BATS_TEST_TMPDIR/t.md" >"$BATS_TEST_TMPDIR/bad.md"
  run -2 --separate-stderr "$EXTRACT" "$BATS_TEST_TMPDIR/bad.md"
  assert_equal "${stderr_lines[0]}" "runbook-commands: $BATS_TEST_TMPDIR/bad.md:1: a block id is lower case letters, digits and dashes, got 'One'"
}

# rehearsed: "ID<TAB>N" for every runbook command a rehearsal runs: rbo/rbw STEP ID N in
# tests/rehearsal/*.sh and *.bash, N a number, or "$n" in a one-line "for n in 1 2 ...; do" loop.
rehearsed() {
  cat "$ROOT"/tests/rehearsal/*.sh "$ROOT"/tests/rehearsal/*.bash | awk '
    { loop = ""; if (match($0, /for n in [0-9 ]+;/)) { loop = substr($0, RSTART + 9, RLENGTH - 10) } }
    { line = $0
      while (match(line, /rb[ow] "?[a-z0-9$-]+"? [a-z0-9-]+ ("\$n"|[0-9]+)/)) {
        split(substr(line, RSTART, RLENGTH), w, " ")
        if (w[4] == "\"$n\"") { k = split(loop, ns, " "); for (i = 1; i <= k; i++) print w[3] "\t" ns[i] }
        else print w[3] "\t" w[4]
        line = substr(line, RSTART + RLENGTH) } }' | sort -u
}

# skipped ON: "ID<TAB>N" for every command tests/rehearsal/runbook-skip names for ON (kube|podman).
skipped() {
  local on=$1
  "$EXTRACT" --ids "$RUNBOOK" | while IFS=$'\t' read -r id n _; do
    if awk -v id="$id" -v n="$n" -v on="$on" '!/^#/ && $1 == id && ($2 == n || $2 == "*") && ($3 == on || $3 == "both") { f = 1 } END { exit !f }' \
      "$ROOT/tests/rehearsal/runbook-skip"; then printf '%s\t%s\n' "$id" "$n"; fi
  done
}

# coverage FILE: one line per command of FILE's sh runbook blocks that neither rehearsal runs
# nor tests/rehearsal/runbook-skip names (podman: only mm2-offsets and mm2-probe lines count),
# per skip line without a block, a place or a reason, per rehearsed command FILE lacks or
# skips; a block without an id.  Exit 1 when there is any.
coverage() {
  local all ran skip_kube skip_podman id n cmd on reason
  all=$(RUNBOOK=$1 "$EXTRACT" --ids "$1")
  ran=$(rehearsed)
  skip_kube=$(RUNBOOK=$1 skipped kube)
  skip_podman=$(RUNBOOK=$1 skipped podman)
  {
    while IFS=$'\t' read -r id n cmd; do
      [ "$id" != - ] || echo "a block without an id: $cmd"
      grep -qxF "$id"$'\t'"$n" <<<"$ran"$'\n'"$skip_kube" || echo "$id/$n: neither rehearsed on kube nor in runbook-skip: $cmd"
      case $cmd in
        mm2-offsets\ * | mm2-probe\ *)
          grep -qxF "$id"$'\t'"$n" <<<"$ran"$'\n'"$skip_podman" || echo "$id/$n: neither rehearsed on podman nor in runbook-skip: $cmd" ;;
      esac
    done <<<"$all"
    while read -r id n on reason; do
      [[ -z "$id" || "$id" == \#* ]] && continue
      grep -q "^$id"$'\t' <<<"$all" || echo "runbook-skip names block $id, which the runbook lacks"
      [[ "$on" =~ ^(kube|podman|both)$ ]] || echo "runbook-skip: $id $n: '$on' is not kube, podman or both"
      [ -n "$reason" ] || echo "runbook-skip: $id $n gives no reason"
    done <"$ROOT/tests/rehearsal/runbook-skip"
    while IFS=$'\t' read -r id n; do
      grep -q "^$id"$'\t'"$n"$'\t' <<<"$all" || echo "the rehearsal runs $id/$n, which the runbook lacks"
      ! grep -qxF "$id"$'\t'"$n" <<<"$skip_kube" || echo "$id/$n is rehearsed but runbook-skip skips it on kube"
    done <<<"$ran"
  } | tee "$BATS_TEST_TMPDIR/coverage"
  [ ! -s "$BATS_TEST_TMPDIR/coverage" ]
}

@test "every sh runbook block has an id; each command is run by the rehearsals (podman: mm2-offsets and mm2-probe) or in runbook-skip with a reason" {
  run -0 coverage "$RUNBOOK"
  assert_output ""
  [ "$(rehearsed | wc -l)" -ge 40 ] || fail "only $(rehearsed | wc -l) commands rehearsed"
}

@test "a runbook command neither rehearsed nor skipped, or a block without an id, fails the coverage check" {
  local copy=$BATS_TEST_TMPDIR/RUNBOOK.md
  { cat "$RUNBOOK"; printf '%s\n' '```sh runbook id=extra' '# on the workstation' 'kubectl -n mm2 get pods' '```'; } >"$copy"
  run -1 coverage "$copy"
  assert_output "extra/1: neither rehearsed on kube nor in runbook-skip: kubectl -n mm2 get pods"
  # shellcheck disable=SC2016 # backquotes, not an expansion
  sed 's/^```sh runbook id=stop$/```sh runbook/' "$RUNBOOK" >"$copy"
  run -1 coverage "$copy"
  assert_line --partial "a block without an id: mm2-offsets stop"
}
