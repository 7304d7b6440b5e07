#!/usr/bin/env bats
# The one exit-code table (lib/mm2_err.h, docs/ARCHITECTURE.md §5) against what users read: every
# program's --help (each mm2-offsets command's too), every man page's EXIT STATUS and the README.
# Each names a code with the table's text first (then what the code means there), and a program's
# --help and man page list the same codes.
# The parsers' output is read through variables bats sets (lines, output):
# shellcheck disable=SC2154
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

BUILD=${MM2_BUILD:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build}
ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
COMMANDS="preflight export plan apply verify resume status check accept stop remove rollback-plan record diff update"

# help_codes: the "Exit codes:" paragraph of a --help on stdin, one "CODE<TAB>TEXT" line per code.
help_codes() {
  sed -n '/^Exit codes: /,/^$/p' | tr '\n' ' ' | sed -E -e 's/^Exit codes: //' -e 's/[. ]+$//' \
    -e 's/, ([0-9]+) /\n\1\t/g' -e 's/^([0-9]+) /\1\t/'
  echo
}
# man_codes FILE: from EXIT STATUS, each ".B CODE" and the line after it.
man_codes() {
  awk '/^\.SH EXIT STATUS/ { on = 1; next } /^\.SH / { on = 0 }
       on && /^\.B [0-9]+$/ { code = $2; next }
       on && code != "" { printf "%s\t%s\n", code, $0; code = "" }' "$1"
}
# readme_codes: the rows of the README's exit-code table.
readme_codes() {
  sed -n '/^## Exit codes/,/^## /p' "$ROOT/README.md" |
    sed -n -E 's/^\| ([0-9]+) \| (.*) \|$/\1\t\2/p'
}
# agree WHAT: every "CODE<TAB>TEXT" line on stdin names a code of the table and starts with its
# text, followed by nothing, " (", ":" or "."; one line per disagreement, and status 1 if any.
agree() {
  awk -F '\t' -v what="$1" '
    NR == FNR { t[$1] = $2; next }
    $0 == "" { next }
    !($1 in t) { printf "%s: code %s is not in the table\n", what, $1; bad = 1; next }
    { rest = substr($2, length(t[$1]) + 1) }
    index($2, t[$1]) != 1 || (rest != "" && rest !~ /^( \(|:|\.)/) {
      printf "%s: code %s says \"%s\", not the table'"'"'s \"%s\"\n", what, $1, $2, t[$1]; bad = 1 }
    END { exit bad }' <("$BUILD/tests/exit-table") -
}
codes() { cut -f1 | sed '/^$/d' | tr '\n' ' '; }

@test "the table names the codes of docs/ARCHITECTURE.md §5, in order" {
  run -0 "$BUILD/tests/exit-table"
  assert_equal "$(printf '%s\n' "${lines[@]}" | codes)" "0 1 2 3 4 5 7 126 127 "
}
@test "the check catches a code whose text is not the table's, and one not in the table" {
  run -1 agree sample <<<$'0\tsuccess (written)\n2\tusage mistake\n9\tfine'
  assert_line "sample: code 2 says \"usage mistake\", not the table's \"usage error\""
  assert_line "sample: code 9 is not in the table"
  assert_equal "${#lines[@]}" 2
}
@test "the --help parser reads every code of a wrapped paragraph" {
  run -0 help_codes <<<$'Exit codes: 0 success (x), 1 check failed (a, b), 2 usage\nerror, 126 exec failed: not executable.'
  assert_equal "$output" $'0\tsuccess (x)\n1\tcheck failed (a, b)\n2\tusage error\n126\texec failed: not executable'
}
@test "mm2-entrypoint --help and its man page give the table's text for the same codes" {
  local help man
  help=$("$BUILD/mm2-entrypoint" --help | help_codes)
  man=$(man_codes "$ROOT/docs/mm2-entrypoint.1")
  agree "mm2-entrypoint --help" <<<"$help"
  agree "mm2-entrypoint(1)" <<<"$man"
  assert_equal "$(codes <<<"$help")" "0 2 3 126 127 "
  assert_equal "$(codes <<<"$man")" "$(codes <<<"$help")"
}
@test "mm2-probe --help and its man page give the table's text for the same codes" {
  local help man
  help=$("$BUILD/mm2-probe" --help | help_codes)
  man=$(man_codes "$ROOT/docs/mm2-probe.1")
  agree "mm2-probe --help" <<<"$help"
  agree "mm2-probe(1)" <<<"$man"
  assert_equal "$(codes <<<"$help")" "0 1 2 3 4 5 "
  assert_equal "$(codes <<<"$man")" "$(codes <<<"$help")"
}
@test "mm2-offsets --help, each command's --help and the man page give the table's text" {
  local help man c sub
  help=$("$BUILD/mm2-offsets" --help | help_codes)
  man=$(man_codes "$ROOT/docs/mm2-offsets.1")
  agree "mm2-offsets --help" <<<"$help"
  agree "mm2-offsets(1)" <<<"$man"
  assert_equal "$(codes <<<"$help")" "0 1 2 3 4 5 7 "
  assert_equal "$(codes <<<"$man")" "$(codes <<<"$help")"
  for c in $COMMANDS; do
    sub=$("$BUILD/mm2-offsets" "$c" --help | help_codes)
    agree "mm2-offsets $c --help" <<<"$sub"
    # Each command's codes are the program's, 0 and 2 always among them.
    for code in $(codes <<<"$sub"); do
      [[ " $(codes <<<"$help")" == *" $code "* ]] || fail "mm2-offsets $c --help: code $code is not one of mm2-offsets'"
    done
    [[ "$(codes <<<"$sub")" == "0 "* && "$(codes <<<"$sub")" == *" 2 "* ]] || fail "mm2-offsets $c --help: $(codes <<<"$sub")"
  done
}
@test "the README's table is the table, every code" {
  local rows
  rows=$(readme_codes)
  agree README.md <<<"$rows"
  assert_equal "$(codes <<<"$rows")" "$("$BUILD/tests/exit-table" | codes)"
}
