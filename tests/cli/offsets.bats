#!/usr/bin/env bats
# mm2-offsets from the command line, without Kafka: usage errors and the INI
# file with their exact lines and exit codes, the artifacts' seals, every rule
# of plan (offline, on crafted exports), resume's approval gate, and verify
# (and rollback-plan once) against tests/fakes/fake_connect.py for the faults a
# real worker cannot show on demand. Every command that loaded its INI file ends
# with a closing line (assert_summary). The end-to-end runs on real clusters are
# tests/e2e's.
# Every test ends with the check that the sentinel secret given through
# ${env:MM2_SOURCE_PASSWORD} reached no output and no file (teardown).
# bats' run --separate-stderr sets stderr and stderr_lines; ${env:VAR} is INI
# syntax, written in single quotes on purpose:
# shellcheck disable=SC2154,SC2016
load offsets_helpers

# --- the command line ----------------------------------------------------------------------
@test "--help prints the commands in cutover order and the exit codes on stdout and exits 0" {
  run -0 --separate-stderr offsets --help
  assert_equal "$stderr" ""
  assert_line --index 0 "Usage: mm2-offsets COMMAND [OPTION]..."
  assert_equal "$(printf '%s\n' "${lines[@]}" | sed -n 's/^  \([a-z-]*\)  .*/\1/p' | tr '\n' ' ')" \
    "preflight export plan apply verify resume status check accept stop remove rollback-plan record diff update "
  assert_line "Exit codes: 0 success, 1 check failed (plan refused, verify or check mismatch),"
  assert_line "2 usage error, 3 invalid configuration (the INI file or an input file),"
  assert_line "4 dependency unreachable (Kafka, Connect or Flink, or timed out), 5 unexpected"
  assert_line "answer from dependency (Kafka, Connect or Flink), 7 the connector differs from"
  assert_line "its file (diff: a change to apply)."
  assert_line 'Environment: only the variables the INI file names as ${env:VAR}.'
}
@test "-h is --help" {
  run -0 offsets --help
  local help=$output
  run -0 offsets -h
  assert_equal "$output" "$help"
}
@test "--version and -V print mm2-offsets, the version and the librdkafka it links on stdout" {
  local v r
  v=$(cat "$BATS_TEST_DIRNAME/../../VERSION")
  r=$("$BATS_TEST_DIRNAME/../../scripts/librdkafka.sh" --version)
  run -0 --separate-stderr offsets --version
  assert_output "mm2-offsets $v (librdkafka $r)"
  assert_equal "$stderr" ""
  run -0 offsets -V
  assert_output "mm2-offsets $v (librdkafka $r)"
}
@test "every command's --help prints its usage and exit codes on stdout and exits 0" {
  local c
  declare -A usage=(
    [preflight]="preflight --config FILE [--report FILE] [--rate-wait SECONDS]"
    [export]="export --config FILE --out FILE [--stable-wait SECONDS]"
    [plan]="plan --config FILE --export FILE --out FILE [--accept-loss TOPIC:PARTITION]..."
    [apply]="apply --config FILE --plan FILE [--backup FILE] [--report FILE] [--replace-stale-offsets]"
    [verify]="verify --config FILE --plan FILE [--report FILE]"
    [resume]="resume --config FILE --plan FILE --approve DIGEST [--timeout SECONDS]"
    [status]="status --config FILE --plan FILE [--format text|json]"
    [check]="check --config FILE --plan FILE [--timeout SECONDS] [--report FILE] [--first-only]"
    [rollback-plan]="rollback-plan --config FILE --out FILE [--plan FILE] [--commit]"
    [stop]="stop --config FILE [--report FILE] [--timeout SECONDS]"
    [accept]="accept --config FILE --plan FILE [--observe SECONDS] [--report FILE] [--markdown FILE]"
    [remove]="remove --config FILE --plan FILE [--report FILE]"
    [record]="record --config FILE --file FILE"
    [diff]="diff --config FILE [--format text|json]"
    [update]="update --config FILE --out FILE [--start TOPIC=MODE]... [--carry-over]"
  )
  for c in preflight export plan apply verify resume status check accept stop remove rollback-plan record diff update; do
    run -0 --separate-stderr offsets "$c" --help
    assert_equal "$stderr" ""
    assert_line --index 0 "Usage: mm2-offsets ${usage[$c]}"
    assert_line --regexp '^  -c, --config FILE +the migration INI file$'
    assert_line --regexp '^  -q, --quiet +no progress lines$'
    assert_line --regexp '^  -v, --verbose +debug detail too$'
    assert_line --regexp '^  -h, --help +this text$'
    assert_line --regexp '^Exit codes: 0 '
    run -0 offsets "$c" -h
    assert_line --index 0 "Usage: mm2-offsets ${usage[$c]}"
  done
}
@test "--help after other options still prints the help and exits 0 without reading anything" {
  run -0 offsets verify --config "$WORK/nope.ini" --help
  assert_line --index 0 "Usage: mm2-offsets verify --config FILE --plan FILE [--report FILE]"
}
@test "no command exits 2 and points at --help" {
  run -2 offsets
  assert_output "$E: error: no command given
Try 'mm2-offsets --help'."
}
@test "an unknown command exits 2 and names the commands" {
  run -2 offsets migrate
  assert_output "$E: error: unknown command 'migrate'; expected preflight, export, plan, apply, verify, resume, status, check, accept, stop, remove, rollback-plan, record, diff or update
Try 'mm2-offsets --help'."
}
@test "an unknown option before the command exits 2 with one line and the help hint" {
  local o
  for o in --dry-run --bogus -x; do
    run -2 offsets "$o" verify
    assert_output "$E: error: unknown option '$o'; give a command first
Try 'mm2-offsets --help'."
  done
}
@test "an unknown long option of any command exits 2 with one line and the command's help hint" {
  local c
  for c in preflight export plan apply verify resume status check accept stop remove rollback-plan record diff update; do
    run -2 offsets "$c" --dry-run
    assert_output "$E $c: error: unknown option '--dry-run'
$(try "$c")"
  done
}
@test "an unknown short option exits 2 and names it" {
  run -2 offsets plan -x
  assert_output "$E plan: error: unknown option '-x'
$(try plan)"
}
@test "a command does not take --version: it is an unknown option" {
  run -2 offsets verify --version
  assert_output "$E verify: error: unknown option '--version'
$(try verify)"
}
@test "an option without its argument exits 2, long or short" {
  run -2 offsets plan --config
  assert_output "$E plan: error: option '--config' needs an argument
$(try plan)"
  run -2 offsets verify -p
  assert_output "$E verify: error: option '-p' needs an argument
$(try verify)"
}
@test "an empty option argument exits 2" {
  run -2 offsets verify --config "" --plan p.json
  assert_output "$E verify: error: --config needs a value, got \"\"
$(try verify)"
}
@test "an unexpected argument exits 2 and names it" {
  run -2 offsets plan --config "$INI" --export e.json --out p.json extra.json
  assert_output "$E plan: error: unexpected argument 'extra.json'
$(try plan)"
}
@test "a missing --config exits 2 in every command" {
  local c
  declare -A rest=(
    [export]="--out x.json" [plan]="--export e.json --out p.json" [apply]="--plan p.json"
    [verify]="--plan p.json" [resume]="--plan p.json --approve $BOGUS" [status]="--plan p.json"
    [check]="--plan p.json" [rollback-plan]="--out r.csv" [preflight]="--report r.json"
    [stop]="--report s.json" [remove]="--plan p.json" [accept]="--plan p.json" [record]="--file x.json"
    [diff]="--format json" [update]="--out u.json"
  )
  for c in preflight export plan apply verify resume status check accept stop remove rollback-plan record diff update; do
    # shellcheck disable=SC2086 # the options, split on purpose
    run -2 offsets "$c" ${rest[$c]}
    assert_output "$E $c: error: --config FILE is required (the migration INI file)
$(try "$c")"
  done
}
@test "a missing --out exits 2 in export, plan and rollback-plan" {
  run -2 offsets export --config "$INI"
  assert_output "$E export: error: --out FILE is required (where to write the export)
$(try export)"
  run -2 offsets plan --config "$INI" --export e.json
  assert_output "$E plan: error: --out FILE is required (where to write the plan)
$(try plan)"
  run -2 offsets rollback-plan --config "$INI"
  assert_output "$E rollback-plan: error: --out FILE is required (where to write the CSV)
$(try rollback-plan)"
}
@test "a missing --export exits 2 in plan" {
  run -2 offsets plan --config "$INI" --out p.json
  assert_output "$E plan: error: --export FILE is required (the export to plan from)
$(try plan)"
}
@test "a missing --plan exits 2 in apply, verify, resume, status and check" {
  local c
  for c in apply verify status check; do
    run -2 offsets "$c" --config "$INI"
    assert_output "$E $c: error: --plan FILE is required (the reviewed plan)
$(try "$c")"
  done
  run -2 offsets resume --config "$INI" --approve "$BOGUS"
  assert_output "$E resume: error: --plan FILE is required (the reviewed plan)
$(try resume)"
}
@test "a missing --plan is a usage error before the INI file is read" {
  local c
  for c in apply verify status check; do
    run -2 offsets "$c" --config "$WORK/nope.ini"
    assert_output "$E $c: error: --plan FILE is required (the reviewed plan)
$(try "$c")"
  done
  run -2 offsets resume --config "$WORK/nope.ini" --approve "$BOGUS"
  assert_output "$E resume: error: --plan FILE is required (the reviewed plan)
$(try resume)"
}
@test "a missing --approve exits 2 in resume before any file is read" {
  run -2 offsets resume --config "$WORK/nope.ini" --plan "$WORK/nope.json"
  assert_output "$E resume: error: --approve DIGEST is required: the plan digest a person approved (plan printed it)
$(try resume)"
}
@test "a --stable-wait that is not seconds above 0 and at most a day exits 2" {
  local w
  for w in 0 -1 1.2345 86401 30s abc ""; do
    run -2 offsets export --config "$INI" --out x.json --stable-wait "$w"
    assert_output "$E export: error: --stable-wait must be seconds above 0 and at most 86400, up to 3 decimals, as in 30 or 0.5, got \"$w\"
$(try export)"
  done
}
@test "a bad --timeout exits 2 in resume and check" {
  run -2 offsets resume --config "$INI" --plan p.json --approve "$BOGUS" --timeout 0
  assert_output "$E resume: error: --timeout must be seconds above 0 and at most 86400, up to 3 decimals, as in 30 or 0.5, got \"0\"
$(try resume)"
  run -2 offsets check --config "$INI" --plan p.json -t 1m
  assert_output "$E check: error: --timeout must be seconds above 0 and at most 86400, up to 3 decimals, as in 30 or 0.5, got \"1m\"
$(try check)"
}
@test "--accept-loss without a partition exits 2" {
  run -2 offsets plan --config "$INI" --export e.json --out p.json --accept-loss orders
  assert_output "$E plan: error: --accept-loss must be TOPIC:PARTITION: \"orders\" is not TOPIC:PARTITION
$(try plan)"
}
@test "--accept-loss with a partition that is not a number from 0 exits 2" {
  local p
  for p in x -1 1.5 2147483647; do
    run -2 offsets plan --config "$INI" --export e.json --out p.json -a "orders:$p"
    assert_output "$E plan: error: --accept-loss must be TOPIC:PARTITION: \"$p\" is not a partition number
$(try plan)"
  done
}
@test "--accept-loss with an invalid topic name exits 2 and says why" {
  run -2 offsets plan --config "$INI" --export e.json --out p.json -a "bad topic:1"
  assert_output "$E plan: error: --accept-loss must be TOPIC:PARTITION: \"bad topic\" is not a topic name: topic name \"bad topic\" has an illegal character at position 4 (allowed: [a-zA-Z0-9._-])
$(try plan)"
  run -2 offsets plan --config "$INI" --export e.json --out p.json -a ":1"
  assert_output "$E plan: error: --accept-loss must be TOPIC:PARTITION: \"\" is not a topic name: topic name is empty
$(try plan)"
}
@test "an unknown --format exits 2" {
  run -2 offsets status --config "$INI" --plan p.json --format yaml
  assert_output "$E status: error: --format must be text or json, got \"yaml\"
$(try status)"
}

# --- the INI file --------------------------------------------------------------------------
@test "a missing INI file exits 3 and names it" {
  run -3 offsets verify --config "$WORK/nope.ini" --plan p.json
  assert_output "$E verify: error: cannot open config file $WORK/nope.ini: No such file or directory"
}
@test "an INI file that is a directory exits 3" {
  run -3 offsets verify --config "$WORK" --plan p.json
  assert_output "$E verify: error: cannot read config file $WORK: Is a directory"
}
@test "a [policy] value out of range exits 3 naming the key, the value and what it must be" {
  ini_add policy "max.pause.seconds = 1h" "rollback.window.days = 400"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [policy] max.pause.seconds must be a whole number from 0 to 604800 (seconds: the longest pause from the plan to resume, 0 for none), got \"1h\"
$E verify: error: $INI: [policy] rollback.window.days must be a whole number from 1 to 366 (days a rollback must stay possible), got \"400\""
}
@test "an unknown section exits 3 and lists the sections, once" {
  ini_add kafka "linger.ms = 5" "acks = all"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: unknown section [kafka]; the sections are source, target, connect, flink, connector, trail, policy"
  # Once also when it comes back after another section.
  ini_add metrics "port = 9404"
  ini_add kafka "retries = 3"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: unknown section [kafka]; the sections are source, target, connect, flink, connector, trail, policy
$E verify: error: $INI: unknown section [metrics]; the sections are source, target, connect, flink, connector, trail, policy"
}
@test "a key outside any section exits 3 and names the sections" {
  sed -i '1i group.id = flink-copy' "$INI"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: key \"group.id\" is outside any section; put it under [source], [target], [connect], [flink], [connector], [trail] or [policy]"
}
@test "an unknown key exits 3 and lists the keys of its section" {
  ini_add connect "timeout = 5"
  ini_add flink "job = x"
  ini_add connector "path = connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [connect] has no key \"timeout\"; the keys are url, workers, ca.location, username, password, request.timeout.seconds, retry.budget.seconds, connect.wait.seconds, config.topic, offset.topic, status.topic, internal.replication.factor, internal.min.insync.replicas
$E verify: error: $INI: [flink] has no key \"job\"; the keys are group.id, rest.url, job.id, checkpoint.interval.seconds, topic.mapping, isolation.level, retention.margin.seconds, tail.records, tail.window, tail.bytes, tail.partitions, headers.preserved, timestamps.preserved
$E verify: error: $INI: [connector] has no key \"path\"; the key is file"
}
@test "any librdkafka property is accepted in [source] and [target]" {
  ini_add source "linger.ms = 5" "client.id = mm2-offsets"
  ini_add target "socket.timeout.ms = 1000"
  make_export "$WORK/export.json" >/dev/null
  run -0 --separate-stderr plan_with -q
  assert_equal "$stderr" ""
}
@test "a key given twice exits 3, in [source] as in [connect]" {
  ini_add source "bootstrap.servers = other:9092"
  ini_add connect "url = http://other:8083"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [source] bootstrap.servers is given twice (or continued on an indented line); give it once
$E verify: error: $INI: [connect] url is given twice (or continued on an indented line); give it once"
}
@test "a line of 198 characters is read whole" {
  # "file = " and a 191-character name: 198 characters, the most Debian's libinih reads.
  local name
  name=$(printf 'c%.0s' $(seq 186)).json
  write_connector "$WORK/$name"
  ini_set file "$name"
  assert_equal "$(grep -c '^.\{198\}$' "$INI")" 1
  make_export "$WORK/export.json" >/dev/null
  run -0 plan_with -q
}
@test "a line longer than 198 characters exits 3 with its line number and length, each one" {
  printf 'client.id = %s\n' "$(printf 'c%.0s' $(seq 187))" >>"$INI"
  printf 'client.rack = %s\n' "$(printf 'r%.0s' $(seq 300))" >>"$INI"
  local n
  n=$(wc -l <"$INI")
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI:$((n - 1)): line is 199 characters, above the 198 libinih reads; shorten it or move the value into \${env:VAR}
$E verify: error: $INI:$n: line is 314 characters, above the 198 libinih reads; shorten it or move the value into \${env:VAR}"
}
@test "a line that is no INI syntax exits 3 with its line number" {
  printf 'this is not ini\n' >>"$INI"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI:$(wc -l <"$INI"): not a \"key = value\" line, a [section] or a comment"
}
@test "an unset \${env:VAR} exits 3 and names the variable, never a value" {
  ini_add target 'sasl.password = ${env:MM2_TARGET_PASSWORD}'
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [target] sasl.password: environment variable MM2_TARGET_PASSWORD is not set; set it in the Job's environment (from its Secret)"
}
@test "an unset \${env:VAR} in a required key is its one problem, not also a missing key" {
  ini_set url '${env:MM2_CONNECT_URL}'
  ini_set group.id '${env:MM2_GROUP}'
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [connect] url: environment variable MM2_CONNECT_URL is not set; set it in the Job's environment (from its Secret)
$E verify: error: $INI: [flink] group.id: environment variable MM2_GROUP is not set; set it in the Job's environment (from its Secret)"
}
@test "a \${...} that is not \${env:NAME} exits 3, each one" {
  ini_add target 'a = ${MM2_X}' 'b = ${env:1X}' 'c = ${env:MM2_X' 'd = ${env:}'
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [target] a: \"\${\" must start \${env:NAME} and end with \"}\"
$E verify: error: $INI: [target] b: \${env:...} must name a variable as [A-Za-z_][A-Za-z0-9_]*
$E verify: error: $INI: [target] c: \"\${\" must start \${env:NAME} and end with \"}\"
$E verify: error: $INI: [target] d: \${env:...} must name a variable as [A-Za-z_][A-Za-z0-9_]*"
}
@test "\${env:VAR} is read in every key, numbers and topic.mapping included" {
  ini_drop request.timeout.seconds
  ini_drop retry.budget.seconds
  ini_add connect 'request.timeout.seconds = ${env:MM2_TIMEOUT}' 'retry.budget.seconds = ${env:MM2_BUDGET}'
  ini_add flink 'checkpoint.interval.seconds = ${env:MM2_CKPT}' 'topic.mapping = ${env:MM2_MAPPING}'
  make_export "$WORK/export.json" 'topic("payments")["flink_target"] = "payments-copy"' >/dev/null
  local env0=("${ENV[@]}")
  # Wrong values show as read from the environment.
  with_env MM2_TIMEOUT=0.5 MM2_BUDGET=5d MM2_CKPT=0 MM2_MAPPING=payments
  run -3 plan_with
  assert_output "$E plan: error: $INI: [connect] request.timeout.seconds must be seconds from 1.000 to 3600 (up to 3 decimals), got \"0.5\"
$E plan: error: $INI: [connect] retry.budget.seconds must be seconds from 1.000 to 86400 (up to 3 decimals), got \"5d\"
$E plan: error: $INI: [flink] checkpoint.interval.seconds must be seconds from 0.001 to 86400 (up to 3 decimals), got \"0\"
$E plan: error: $INI: [flink] topic.mapping must be \"identity\" or SOURCE=TARGET pairs separated by commas, got \"payments\""
  # Good ones are used: the mapping from the environment is the one the export recorded.
  ENV=("${env0[@]}" MM2_TIMEOUT=5 MM2_BUDGET=5 MM2_CKPT=60 MM2_MAPPING=payments=payments-copy)
  run -1 plan_with
  assert_refused "topic payments: MM2's replication policy writes it to \"payments\" but Flink wrote it to \"payments-copy\"; use a replication.policy.class that maps it to the topic Flink wrote (IdentityReplicationPolicy for the same name) or fix [flink] topic.mapping [rule topic-mapping]"
}
@test "missing required keys exit 3, one line each" {
  ini_drop bootstrap.servers
  ini_drop url
  ini_drop group.id
  ini_drop file
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [source] bootstrap.servers is required (host:port[,host:port...])
$E verify: error: $INI: [target] bootstrap.servers is required (host:port[,host:port...])
$E verify: error: $INI: [connect] url is required (the Connect REST API, http://HOST:8088)
$E verify: error: $INI: [flink] group.id is required (the Flink job's consumer group)
$E verify: error: $INI: [connector] file is required (the connector JSON)"
}
@test "an empty value exits 3 and names the key" {
  ini_set group.id ""
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] group.id is empty"
}
@test "a bootstrap.servers that is not host:port exits 3 and says why" {
  ini_drop bootstrap.servers
  ini_add source "bootstrap.servers = kafka:0"
  ini_add target "bootstrap.servers = kafka-1:9092,"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [source] bootstrap.servers must be host:port[,...]: entry \"kafka:0\" has an invalid port (expected 1..65535)
$E verify: error: $INI: [target] bootstrap.servers must be host:port[,...]: entry 2 is empty"
}
@test "an invalid [connect] url exits 3 with the expected form" {
  ini_set url "127.0.0.1:8083"
  ini_set rest.url "http://flink:8081/?x=1"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [connect] url must be http[s]://HOST[:PORT]: \"127.0.0.1:8083\" does not start with http:// or https://
$E verify: error: $INI: [flink] rest.url must be http[s]://HOST[:PORT]: \"http://flink:8081/?x=1\" has a query or fragment"
}
@test "an invalid [connect] url from \${env:} is quoted: it is no secret, and what to fix" {
  ini_set url '${env:MM2_CONNECT_URL}'
  with_env "MM2_CONNECT_URL=connect:8083"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [connect] url must be http[s]://HOST[:PORT]: \"connect:8083\" does not start with http:// or https://"
}
@test "a secret's value inside an invalid [connect] url is redacted" {
  # ${env:MM2_SOURCE_PASSWORD} is sasl.password's: a secret wherever it shows.
  ini_set url 'ftp://${env:MM2_SOURCE_PASSWORD}'
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [connect] url must be http[s]://HOST[:PORT]: \"ftp://<redacted>\" does not start with http:// or https://"
}
@test "a [connect] url with credentials exits 3 without repeating them" {
  ini_set url 'http://admin:${env:MM2_SOURCE_PASSWORD}@connect:8083'
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [connect] url must be http[s]://HOST[:PORT]: it carries credentials (USER@), which the process list would show"
}
@test "rest.url without job.id exits 3: they go together" {
  ini_drop job.id
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] rest.url and job.id go together; give both or neither"
}
@test "a job.id that is not 32 lowercase hex digits exits 3" {
  ini_set job.id "0123456789ABCDEF0123456789ABCDEF"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] job.id must be a Flink job id (32 lowercase hex digits), got \"0123456789ABCDEF0123456789ABCDEF\""
}
@test "a bad job.id from \${env:} is quoted, cut at 40 characters" {
  ini_set job.id '${env:MM2_JOB_ID}'
  with_env "MM2_JOB_ID=flink-job-0123456789abcdef0123456789abcdef-copy"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] job.id must be a Flink job id (32 lowercase hex digits), got \"flink-job-0123456789abcdef0123456789abcd\""
}
@test "a secret given to job.id by mistake is never printed, not even cut short" {
  # The message cuts the value to 40 characters; that head of the 58-character
  # sasl.password is redacted too.
  ini_set job.id '${env:MM2_SOURCE_PASSWORD}'
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] job.id must be a Flink job id (32 lowercase hex digits), got \"<redacted>\""
}
@test "a bad topic.mapping exits 3 and names the pair" {
  ini_add flink "topic.mapping = orders=orders-copy, payments"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] topic.mapping must be \"identity\" or SOURCE=TARGET pairs separated by commas, got \"payments\""
  write_ini
  ini_add flink "topic.mapping = orders=bad topic"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] topic.mapping: \"orders=bad topic\": topic name \"bad topic\" has an illegal character at position 4 (allowed: [a-zA-Z0-9._-])"
  write_ini
  ini_add flink "topic.mapping = orders=a,orders=b"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] topic.mapping maps orders twice"
}
@test "seconds out of range in [connect] exit 3 with the range" {
  sed -i 's/^request.timeout.seconds = 5/request.timeout.seconds = 0.5/; s/^retry.budget.seconds = 5/retry.budget.seconds = 5 s/' "$INI"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [connect] request.timeout.seconds must be seconds from 1.000 to 3600 (up to 3 decimals), got \"0.5\"
$E verify: error: $INI: [connect] retry.budget.seconds must be seconds from 1.000 to 86400 (up to 3 decimals), got \"5 s\""
}
@test "a checkpoint.interval.seconds of 0 exits 3 with a range that excludes 0" {
  ini_add flink "checkpoint.interval.seconds = 0"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [flink] checkpoint.interval.seconds must be seconds from 0.001 to 86400 (up to 3 decimals), got \"0\""
}
@test "a topic.mapping with an empty pair exits 3" {
  local m
  for m in "orders=a,,payments=b" ",orders=a" "orders=a," "orders=a, ,payments=b"; do
    write_ini
    ini_add flink "topic.mapping = $m"
    run -3 offsets verify --config "$INI" --plan p.json
    assert_output "$E verify: error: $INI: [flink] topic.mapping has an empty entry; write \"identity\" or SOURCE=TARGET pairs separated by commas (at most 1024)"
  done
}
@test "every problem of the INI file is reported at once, in file order, then the required keys" {
  ini_drop group.id
  ini_add connect "url = http://again:8083" "proxy = none"
  ini_add flink "job.id = nothex"
  ini_add metrics "port = 9404"
  ini_add target 'sasl.password = ${env:MM2_UNSET}'
  run -3 offsets verify --config "$INI" --plan p.json
  assert_output "$E verify: error: $INI: [connect] url is given twice (or continued on an indented line); give it once
$E verify: error: $INI: [connect] has no key \"proxy\"; the keys are url, workers, ca.location, username, password, request.timeout.seconds, retry.budget.seconds, connect.wait.seconds, config.topic, offset.topic, status.topic, internal.replication.factor, internal.min.insync.replicas
$E verify: error: $INI: [flink] job.id is given twice (or continued on an indented line); give it once
$E verify: error: $INI: unknown section [metrics]; the sections are source, target, connect, flink, connector, trail, policy
$E verify: error: $INI: [target] sasl.password: environment variable MM2_UNSET is not set; set it in the Job's environment (from its Secret)
$E verify: error: $INI: [flink] group.id is required (the Flink job's consumer group)"
}
@test "beyond 32 problems the rest are counted on one line" {
  local i keys=()
  for i in $(seq 40); do keys+=("k$i = 1"); done
  ini_add flink "${keys[@]}"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_equal "${#lines[@]}" 33
  assert_line --index 31 "$E verify: error: $INI: [flink] has no key \"k32\"; the keys are group.id, rest.url, job.id, checkpoint.interval.seconds, topic.mapping, isolation.level, retention.margin.seconds, tail.records, tail.window, tail.bytes, tail.partitions, headers.preserved, timestamps.preserved"
  assert_line --index 32 "$E verify: error: ... and 8 more problems"
}
@test "a relative [connector] file is taken from the INI file's directory" {
  mkdir "$WORK/elsewhere"
  make_export "$WORK/export.json" >/dev/null
  # shellcheck disable=SC2034 # read by offsets()
  RUN_DIR=$WORK/elsewhere
  run -0 offsets plan --config ../migration.ini --export ../export.json --out ../plan.json -q
  [ -s "$WORK/plan.json" ]
}

# --- the connector JSON --------------------------------------------------------------------
@test "a missing connector file exits 3 and names it" {
  rm "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: cannot open connector file $WORK/connector.json: No such file or directory"
}
@test "a connector file that is not JSON exits 3 with the byte where it breaks" {
  printf '{"name": "mirror-source", "config": {' >"$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: connector file $WORK/connector.json is not valid JSON (near byte 37)"
}
@test "a connector without a config object exits 3 and says what is missing" {
  printf '{"name": "mirror-source"}' >"$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.config is missing"
  printf '[]' >"$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector is not an object"
}
@test "a connector config value that is not a string exits 3 and names the key" {
  sed -i 's/"tasks.max": "4"/"tasks.max": 4/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.config.\"tasks.max\" is not a string (Connect configs are strings: write \"the value\" in quotes)"
  write_connector "$WORK/connector.json"
  sed -i 's/"sync.topic.acls.enabled": "false"/"sync.topic.acls.enabled": false/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.config.\"sync.topic.acls.enabled\" is not a string (Connect configs are strings: write \"true/false\" in quotes)"
}
@test "initial_state in the connector file exits 3: mm2-offsets sets it" {
  sed -i 's/"name": "mirror-source",/"name": "mirror-source", "initial_state": "RUNNING",/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.initial_state must not be given: mm2-offsets creates the connector STOPPED itself"
}
@test "a config.name that differs from name exits 3 and names both" {
  sed -i 's/"tasks.max": "4"/"tasks.max": "4", "name": "mirror-source-2"/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.config.name \"mirror-source-2\" differs from connector.name \"mirror-source\""
}
@test "a connector without source.cluster.alias exits 3" {
  sed -i '/"source.cluster.alias"/d' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.config.\"source.cluster.alias\" is required (the \"cluster\" key of every offset)"
}
@test "a connector name Connect cannot take in a URL exits 3" {
  sed -i 's/"name": "mirror-source"/"name": "mirror source"/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.name \"mirror source\": character 7 is not one of [A-Za-z0-9._-]"
}
@test "a connector file giving a key twice exits 3 and names it" {
  # Connect (Jackson) would keep the last, the rules would read the first.
  sed -i 's/"tasks.max": "4"/"tasks.max": "4", "sync.topic.acls.enabled": "true"/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector JSON gives \"sync.topic.acls.enabled\" twice; Connect would keep the last, the rules would read the first: give it once"
  write_connector "$WORK/connector.json"
  sed -i 's/"name": "mirror-source",/"name": "mirror-source", "name": "mirror-target",/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector JSON gives \"name\" twice; Connect would keep the last, the rules would read the first: give it once"
}
@test "a source.cluster.alias with spaces around it exits 3: Connect would trim it" {
  sed -i 's/"source.cluster.alias": "src"/"source.cluster.alias": "src "/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.config.\"source.cluster.alias\" \"src \" has spaces around it; remove them"
}
@test "a connector named . or .. exits 3: they are path segments" {
  local n
  for n in . ..; do
    write_connector "$WORK/connector.json"
    sed -i "s/\"name\": \"mirror-source\"/\"name\": \"$n\"/" "$WORK/connector.json"
    run -3 offsets verify --config "$INI" --plan p.json
    assert_summary verify 3 0 0
    assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector.name \"$n\": \".\" and \"..\" are path segments, not names"
  done
}
@test "a connector file with a member other than name and config exits 3" {
  sed -i 's/"name": "mirror-source",/"name": "mirror-source", "tasks": [],/' "$WORK/connector.json"
  run -3 offsets verify --config "$INI" --plan p.json
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connector] file: $WORK/connector.json: connector has an unknown member \"tasks\"; only name and config"
}

# --- the artifacts -------------------------------------------------------------------------
@test "an export edited after it was written exits 3 and no plan is written" {
  make_export "$WORK/export.json" >/dev/null
  local was
  was=$(json_get "$WORK/export.json" 'd["digest"]')
  json_edit "$WORK/export.json" 'd["partitions"][0]["committed"] = [101, 101]'
  run -3 plan_with
  assert_summary plan 3 0 0
  assert_output --regexp "^$E plan: error: $WORK/export.json: the export was changed after it was written: it says $was but its content hashes to sha256:[0-9a-f]{64}; make it again with mm2-offsets instead of editing it\$"
  [ ! -e "$WORK/plan.json" ]
}
@test "a plan given as --export exits 3 and names both kinds" {
  make_plan
  run -3 offsets plan --config "$INI" --export "$WORK/plan.json" --out "$WORK/plan2.json"
  assert_summary plan 3 0 0
  assert_output "$E plan: error: $WORK/plan.json: this is a plan (kind \"mm2kit.plan/v1\"), not an export: give the export that 'mm2-offsets export' wrote"
  [ ! -e "$WORK/plan2.json" ]
}
@test "an export that is not JSON exits 3 with the byte where it breaks" {
  printf '{"kind": "mm2kit.export/v1",\n' >"$WORK/export.json"
  run -3 plan_with
  assert_summary plan 3 0 0
  assert_output "$E plan: error: export file $WORK/export.json is not valid JSON (near byte 29)"
}
@test "a missing export exits 3 and names it" {
  run -3 plan_with
  assert_summary plan 3 0 0
  assert_output "$E plan: error: cannot open export file $WORK/export.json: No such file or directory"
}
@test "an export without a digest exits 3" {
  make_export "$WORK/export.json" >/dev/null
  json_edit "$WORK/export.json" 'del d["digest"]'
  run -3 plan_with
  assert_summary plan 3 0 0
  assert_output "$E plan: error: $WORK/export.json: the export has no valid \"digest\""
}
@test "a sealed export that lacks a member exits 3 naming its JSON path" {
  make_export "$WORK/export.json" 'del x["flink"]["group_members"]' >/dev/null
  run -3 plan_with
  assert_summary plan 3 0 0
  assert_output "$E plan: error: $WORK/export.json: export.flink.group_members is missing"
}
@test "a sealed export with a bad partition exits 3 naming its JSON path" {
  # Also in the ASan build: what was read before the bad member is freed (no leak turns 3 into 1).
  make_export "$WORK/export.json" 'part("orders", 2)["log_start"] = [10, -1]' >/dev/null
  run -3 plan_with
  assert_summary plan 3 0 0
  assert_output "$E plan: error: $WORK/export.json: partitions[2].log_start[1] is not an offset (an integer >= 0) or null"
  make_export "$WORK/export.json" 'x["partitions"].pop()' >/dev/null
  run -3 plan_with
  assert_summary plan 3 0 0
  assert_output "$E plan: error: $WORK/export.json: export lists 3 partitions but its replicated topics have 4"
}
@test "a plan edited after it was written exits 3 in apply, verify, resume, status and check" {
  make_plan
  local was c
  was=$(json_get "$WORK/plan.json" 'd["digest"]')
  json_edit "$WORK/plan.json" 'd["partitions"][0]["m"] = 100'
  for c in apply verify status check; do
    run -3 offsets "$c" --config "$INI" --plan "$WORK/plan.json"
    assert_summary "$c" 3 0 0
    assert_output --regexp "^$E $c: error: $WORK/plan.json: the plan was changed after it was written: it says $was but its content hashes to sha256:[0-9a-f]{64}; make it again with mm2-offsets instead of editing it\$"
  done
  run -3 offsets resume --config "$INI" --plan "$WORK/plan.json" --approve "$was"
  assert_summary resume 3 0 0
  assert_output --regexp "^$E resume: error: $WORK/plan.json: the plan was changed after it was written: it says $was but"
}
@test "an export given as --plan exits 3 in apply, verify, resume, status and check" {
  make_export "$WORK/export.json" >/dev/null
  local c
  for c in apply verify status check; do
    run -3 offsets "$c" --config "$INI" --plan "$WORK/export.json"
    assert_summary "$c" 3 0 0
    assert_output "$E $c: error: $WORK/export.json: this is an export (kind \"mm2kit.export/v1\"), not a plan: give the plan that 'mm2-offsets plan' wrote"
  done
  run -3 offsets resume --config "$INI" --plan "$WORK/export.json" --approve "$BOGUS"
  assert_summary resume 3 0 0
  assert_output "$E resume: error: $WORK/export.json: this is an export (kind \"mm2kit.export/v1\"), not a plan: give the plan that 'mm2-offsets plan' wrote"
}
@test "a plan that is not JSON exits 3 in apply, verify, resume, status and check" {
  printf 'plan: yes\n' >"$WORK/plan.json"
  local c
  for c in apply verify status check; do
    run -3 offsets "$c" --config "$INI" --plan "$WORK/plan.json"
    assert_summary "$c" 3 0 0
    assert_output "$E $c: error: plan file $WORK/plan.json is not valid JSON (near byte 0)"
  done
  run -3 offsets resume --config "$INI" --plan "$WORK/plan.json" --approve "$BOGUS"
  assert_summary resume 3 0 0
  assert_output "$E resume: error: plan file $WORK/plan.json is not valid JSON (near byte 0)"
}
@test "a resealed plan whose entry breaks M = C - 1 exits 3 in apply, verify, resume, status and check" {
  # Also in the ASan build: the entries read before the bad one are freed (no leak turns 3 into 1).
  make_plan
  json_edit "$WORK/plan.json" 'd["partitions"][0]["m"] = 100'
  local digest c
  digest=$(timeout 10 "$SEAL" "$WORK/plan.json")
  for c in status check apply verify; do
    run -3 offsets "$c" --config "$INI" --plan "$WORK/plan.json"
    assert_summary "$c" 3 0 0
    assert_output "$E $c: error: $WORK/plan.json: partitions[0]: an \"offset\" entry needs m = c - 1 with log_start <= c <= log_end and lost 0"
  done
  run -3 offsets resume --config "$INI" --plan "$WORK/plan.json" --approve "$digest"
  assert_summary resume 3 0 0
  assert_output "$E resume: error: $WORK/plan.json: partitions[0]: an \"offset\" entry needs m = c - 1 with log_start <= c <= log_end and lost 0"
}
@test "a plan that cannot be written exits 3 and names the path" {
  make_export "$WORK/export.json" >/dev/null
  run -3 offsets plan --config "$INI" --export "$WORK/export.json" --out "$WORK/no/plan.json"
  assert_summary plan 3 0 0
  assert_output "$E plan: error: cannot write plan file $WORK/no/plan.json: No such file or directory"
}

# --- plan: the good case -------------------------------------------------------------------
@test "plan of a good export exits 0, prints the digest and writes M = C - 1, or null for C = 0" {
  make_export "$WORK/export.json" >/dev/null
  run -0 --separate-stderr plan_with
  # Offline: no Kafka request, no REST request.
  assert_summary --stderr plan 0 0 0
  assert_output --regexp '^sha256:[0-9a-f]{64}$'
  assert_equal "$output" "$(json_get "$WORK/plan.json" 'd["digest"]')"
  assert_equal "$stderr" "$E plan: info: wrote $WORK/plan.json: 4 partitions: 3 offsets C-1, 1 reset to earliest (C=0), 0 accepted losses (0 records); approve with: resume --approve $output"
  run -0 json_get "$WORK/plan.json" '[(e["topic"], e["partition"], e["c"], e["m"], e["action"]) for e in d["partitions"]]'
  assert_output '[["orders", 0, 100, 99, "offset"], ["orders", 1, 0, null, "reset"], ["orders", 2, 50, 49, "offset"], ["payments", 0, 7, 6, "offset"]]'
  run -0 json_get "$WORK/plan.json" '[d["kind"], d["export_digest"] == json.load(open(sys.argv[1].replace("plan", "export")))["digest"], {k: v for k, v in d["connector"].items() if k != "config"}, d["summary"]]'
  assert_output '["mm2kit.plan/v1", true, {"name": "mirror-source", "source_alias": "src", "config_digest": "'"$(config_digest)"'"}, {"partitions": 4, "offsets": 3, "resets": 1, "accepted_losses": 0, "records_lost": 0, "boundary_duplicates": 0, "gap_records": 0}]'
  # The config itself, as Connect stores it ("name" set), for the refusals that name what changed.
  run -0 json_get "$WORK/plan.json" 'd["connector"]["config"] == dict(json.load(open(sys.argv[1].replace("plan.json", "connector.json")))["config"], name="mirror-source")'
  assert_output true
}
@test "the tests' digest of the connector config agrees with mm2-offsets'" {
  # make_export writes config_digest's value; plan refuses [rule connector-config] otherwise.
  make_plan
  assert_equal "$(json_get "$WORK/plan.json" 'd["connector"]["config_digest"]')" "$(config_digest)"
}
@test "the plan's offsets are those Connect is sent: {\"offset\": M} and null" {
  make_plan
  run -0 json_get "$WORK/plan.json" '{"%s-%d" % (e["topic"], e["partition"]): ({"offset": e["m"]} if e["m"] is not None else None) for e in d["partitions"]}'
  assert_output '{"orders-0": {"offset": 99}, "orders-1": null, "orders-2": {"offset": 49}, "payments-0": {"offset": 6}}'
}
@test "plan -q prints only the digest" {
  make_export "$WORK/export.json" >/dev/null
  run -0 --separate-stderr plan_with -q
  assert_output --regexp '^sha256:[0-9a-f]{64}$'
  assert_equal "$stderr" ""
}
@test "plan is offline: it writes the plan with Kafka and Connect unreachable" {
  # [source], [target] and [connect] point at a closed port (setup); no request is made.
  make_export "$WORK/export.json" >/dev/null
  timed -0 plan_with -q
  assert_near_ms "$MS" 0 2000
}
@test "--accept-loss records the expired records lost and writes null for that partition" {
  make_export "$WORK/export.json" 'part("orders", 2)["committed"] = [5, 5]' >/dev/null
  run -0 --separate-stderr plan_with --accept-loss orders:2
  assert_summary --stderr plan 0 0 0
  assert_equal "${#stderr_lines[@]}" 2
  assert_equal "${stderr_lines[0]}" "$E plan: warning: orders-2: accepting the loss of 5 expired records (C=5, log start 10)"
  assert_equal "${stderr_lines[1]}" "$E plan: info: wrote $WORK/plan.json: 4 partitions: 2 offsets C-1, 1 reset to earliest (C=0), 1 accepted losses (5 records); approve with: resume --approve $output"
  run -0 json_get "$WORK/plan.json" '[d["partitions"][2], d["summary"]]'
  assert_output '[{"topic": "orders", "partition": 2, "c": 5, "m": null, "action": "accept-loss", "log_start": 10, "log_end": 60, "lost": 5, "target_topic": "orders", "target_start": 4000, "boundary": "aligned", "group_c": 5, "duplicates": 0, "gap": 0}, {"partitions": 4, "offsets": 2, "resets": 1, "accepted_losses": 1, "records_lost": 5, "boundary_duplicates": 0, "gap_records": 0}]'
}
@test "--accept-loss counts from the higher log start of the two reads" {
  make_export "$WORK/export.json" 'part("orders", 2)["committed"] = [5, 5]; part("orders", 2)["log_start"] = [8, 12]' >/dev/null
  run -0 plan_with -q -a orders:2
  assert_equal "$(json_get "$WORK/plan.json" '[d["partitions"][2]["lost"], d["partitions"][2]["log_start"]]')" "[7, 12]"
}

# --- plan: every rule (docs/ARCHITECTURE.md §6) -------------------------------------------------------
@test "no committed offset is refused [rule no-offset]" {
  make_export "$WORK/export.json" 'part("orders", 0)["committed"] = [None, None]' >/dev/null
  run -1 plan_with
  assert_refused "orders-0: group flink-copy has no committed offset; MM2 would start at auto.offset.reset and copy the whole partition again (or skip it with latest): find where Flink stopped [rule no-offset]"
}
@test "C below the log start is refused without --accept-loss [rule expired]" {
  make_export "$WORK/export.json" 'part("orders", 2)["committed"] = [5, 5]' >/dev/null
  run -1 plan_with
  assert_refused "orders-2: committed offset C=5 is below the log start 10: 5 records expired before MM2 could copy them; restore them from elsewhere, or record the loss with --accept-loss orders:2 [rule expired]"
}
@test "C = 0 with a log start above 0 is expired data, not a reset [rule expired]" {
  make_export "$WORK/export.json" 'part("orders", 1)["log_start"] = [3, 3]; part("orders", 1)["log_end"] = [9, 9]' >/dev/null
  run -1 plan_with
  assert_refused "orders-1: committed offset C=0 is below the log start 3: 3 records expired before MM2 could copy them; restore them from elsewhere, or record the loss with --accept-loss orders:1 [rule expired]"
}
@test "C above the log end is refused [rule beyond-end]" {
  make_export "$WORK/export.json" 'part("orders", 2)["committed"] = [61, 61]' >/dev/null
  run -1 plan_with
  assert_refused "orders-2: committed offset C=61 is beyond the log end 60: not a position in this partition (topic recreated? wrong cluster?); check the group and cluster [rule beyond-end]"
}
@test "C at the log start and at the log end are planned" {
  make_export "$WORK/export.json" 'part("orders", 2)["committed"] = [10, 10]' 'part("payments", 0)["committed"] = [9, 9]' >/dev/null
  run -0 plan_with -q
  assert_equal "$(json_get "$WORK/plan.json" '[e["m"] for e in d["partitions"]]')" "[99, null, 9, 8]"
}
@test "a committed offset that moved between the two reads is refused [rule offset-moved]" {
  make_export "$WORK/export.json" 'part("orders", 2)["committed"] = [50, 51]' >/dev/null
  run -1 plan_with
  assert_refused "orders-2: the committed offset of group flink-copy moved from 50 to 51 between the two reads 30000 ms apart: Flink (or another client of the group) is still committing; stop it, then export again [rule offset-moved]"
}
@test "a source log that went backwards between the reads is refused [rule log-moved]" {
  make_export "$WORK/export.json" 'part("orders", 2)["log_end"] = [60, 59]' >/dev/null
  run -1 plan_with
  assert_refused "orders-2: the source log went backwards between the two reads (start 10 -> 10, end 60 -> 59): was the topic recreated? [rule log-moved]"
}
@test "an open transaction on the target is refused [rule open-transaction]" {
  make_export "$WORK/export.json" 'part("payments", 0)["target_lso"] = [60, 70]' >/dev/null
  run -1 plan_with
  assert_refused "payments-0: on the target, the last stable offset 60 is below the high watermark 70: a transaction is open (a Flink EXACTLY_ONCE sink?); wait for it to commit or abort (transaction.timeout.ms), then export again [rule open-transaction]"
}
@test "a target written to between the reads is refused [rule target-moving]" {
  make_export "$WORK/export.json" 'part("orders", 2)["target_hw"] = [4000, 4001]; part("orders", 2)["target_lso"] = [4000, 4001]' >/dev/null
  run -1 plan_with
  assert_refused "orders-2: the target's high watermark moved from 4000 to 4001 between the two reads 30000 ms apart: another writer is active; only one replicating writer may exist, stop it [rule target-moving]"
}
@test "a missing target topic is refused [rule target-missing]" {
  make_export "$WORK/export.json" 'topic("payments")["target_partitions"] = None' >/dev/null
  run -1 plan_with
  assert_refused "topic payments: target topic \"payments\" does not exist; create it with 1 partitions before the cutover [rule target-missing]"
}
@test "a target topic with another partition count is refused [rule partition-count]" {
  make_export "$WORK/export.json" 'topic("payments")["target_partitions"] = 2' >/dev/null
  run -1 plan_with
  assert_refused "topic payments: the source has 1 partitions but target topic \"payments\" has 2; MM2 keeps partition numbers, so they must match [rule partition-count]"
}
@test "MM2 writing to another topic than Flink did is refused [rule topic-mapping]" {
  # [flink] topic.mapping said payments=payments-copy at export, and says so now.
  make_export "$WORK/export.json" 'topic("payments")["flink_target"] = "payments-copy"' >/dev/null
  ini_add flink "topic.mapping = payments=payments-copy"
  run -1 plan_with
  assert_refused "topic payments: MM2's replication policy writes it to \"payments\" but Flink wrote it to \"payments-copy\"; use a replication.policy.class that maps it to the topic Flink wrote (IdentityReplicationPolicy for the same name) or fix [flink] topic.mapping [rule topic-mapping]"
}
@test "a [flink] topic.mapping changed since the export is refused [rule topics-changed]" {
  make_export "$WORK/export.json" >/dev/null
  ini_add flink "topic.mapping = payments=payments-copy"
  run -1 plan_with
  assert_refused "topic payments: [flink] topic.mapping says Flink wrote it to \"payments-copy\" now but \"payments\" at export; export again [rule topics-changed]"
  make_export "$WORK/export.json" 'topic("orders")["flink_target"] = "orders-copy"' >/dev/null
  write_ini
  run -1 plan_with
  assert_refused "topic orders: [flink] topic.mapping says Flink wrote it to \"orders\" now but \"orders-copy\" at export; export again [rule topics-changed]"
}
@test "a topic the connector replicates without partitions in the export is refused [rule binding]" {
  # MM2 would copy it from the earliest offset: a full duplicate.
  make_export "$WORK/export.json" 'x["topics"][2] = {"name": "payments", "partitions": 1, "replicated": False}' 'x["partitions"].pop()' >/dev/null
  run -1 plan_with
  assert_refused "the export belongs to another migration: its topic set (1 topic) leaves out \"payments\", which the connector in $WORK/connector.json replicates; use the export made with this INI, or export again [rule binding]"
}
@test "a topic the connector no longer replicates is refused [rule binding]" {
  make_export "$WORK/export.json" 'x["topics"][0] = {"name": "audit", "partitions": 1, "replicated": True, "target": "audit", "target_partitions": 1, "flink_target": "audit"}' 'x["partitions"].insert(0, dict(part("orders", 0), topic="audit"))' >/dev/null
  run -1 plan_with
  assert_refused "the export belongs to another migration: its topic set (3 topics) holds \"audit\", which the connector in $WORK/connector.json does not replicate; use the export made with this INI, or export again [rule binding]"
}
@test "a source.cluster.alias changed since the export is refused [rule binding]" {
  make_export "$WORK/export.json" >/dev/null
  sed -i 's/"source.cluster.alias": "src"/"source.cluster.alias": "source"/' "$WORK/connector.json"
  run -1 plan_with
  assert_refused "the export belongs to another migration: its offsets are keyed by source.cluster.alias \"src\", but $WORK/connector.json sets \"source\" (MM2 ignores offsets under another alias); use the export made with this INI, or export again [rule binding]"
}
@test "a connector JSON changed since the export is refused [rule binding]" {
  make_export "$WORK/export.json" >/dev/null
  local was
  was=$(config_digest)
  sed -i 's/"tasks.max": "4"/"tasks.max": "8"/' "$WORK/connector.json"
  run -1 plan_with
  # The fixtures' export records no config view, as one of an older mm2-offsets: the digests.
  assert_refused "the export belongs to another migration: its connector config differs from the one in $WORK/connector.json ($was in the export, $(config_digest) in connector.json, the export recorded only its digest); use the export made with this INI, or export again [rule binding]"
  # An export that recorded its view: the key that changed, by name.
  rm -f "$WORK/plan.json"
  make_export "$WORK/export.json" "x[\"connector\"][\"config_digest\"] = \"$was\"" \
    'x["connector"]["config"] = dict(json.load(open(file.replace("export.json", "connector.json")))["config"], name="mirror-source", **{"tasks.max": "4"})' >/dev/null
  run -1 plan_with
  assert_refused "the export belongs to another migration: its connector config differs from the one in $WORK/connector.json (in 1 key: tasks.max (\"4\" in the export, \"8\" in connector.json)); use the export made with this INI, or export again [rule binding]"
}
@test "a connector JSON against the connector rules is refused, every key [rule connector-config]" {
  sed -i 's/connect.mirror.MirrorSourceConnector/connect.mirror.MirrorCheckpointConnector/; s/"emit.offset-syncs.enabled": "false"/"emit.offset-syncs.enabled": "true"/; s/"earliest"/"latest"/' "$WORK/connector.json"
  make_export "$WORK/export.json" >/dev/null
  run -1 plan_with
  assert_refused "connector mirror-source: connector.class is \"org.apache.kafka.connect.mirror.MirrorCheckpointConnector\", not org.apache.kafka.connect.mirror.MirrorSourceConnector; only MirrorSourceConnector is migrated [rule connector-config]" \
    "connector mirror-source: emit.offset-syncs.enabled is \"true\"; set it to \"false\": no offset-syncs topic on either cluster [rule connector-config]" \
    "connector mirror-source: source.consumer.auto.offset.reset is \"latest\" but the plan clears some partitions (null) so MM2 starts them at auto.offset.reset; set it to \"earliest\" [rule connector-config]"
}
@test "a key the connector rules want false, left unset, is refused with its default in full [rule connector-config]" {
  sed -i '/"sync.topic.configs.enabled"/d' "$WORK/connector.json"
  make_export "$WORK/export.json" >/dev/null
  run -1 plan_with
  assert_refused "connector mirror-source: sync.topic.configs.enabled is unset (its default is true); set it to \"false\": the target's topic configs stay the platform's [rule connector-config]"
}
@test "the keys the connector rules want false may say false in any case, with spaces around [rule connector-config]" {
  sed -i 's/"sync.topic.configs.enabled": "false"/"sync.topic.configs.enabled": "FALSE"/; s/"emit.offset-syncs.enabled": "false"/"emit.offset-syncs.enabled": " False "/; s/"sync.topic.acls.enabled": "false"/"sync.topic.acls.enabled": "false\\t"/' "$WORK/connector.json"
  make_export "$WORK/export.json" >/dev/null
  run -0 plan_with -q
  rm "$WORK/plan.json"
  sed -i 's/"FALSE"/"no"/' "$WORK/connector.json"
  make_export "$WORK/export.json" >/dev/null
  run -1 plan_with
  assert_refused "connector mirror-source: sync.topic.configs.enabled is \"no\"; set it to \"false\": the target's topic configs stay the platform's [rule connector-config]"
}
@test "exactly.once.support required is refused: the workers run plain source mode [rule connector-config]" {
  sed -i 's/"tasks.max": "4"/"tasks.max": "4", "exactly.once.support": "required"/' "$WORK/connector.json"
  make_export "$WORK/export.json" >/dev/null
  run -1 plan_with
  assert_refused "connector mirror-source: exactly.once.support is \"required\", but the workers run plain source mode (exactly.once.source.support=disabled); remove it [rule connector-config]"
  # Connect trims it and ignores its case.
  sed -i 's/"required"/" Required "/' "$WORK/connector.json"
  make_export "$WORK/export.json" >/dev/null
  run -1 plan_with
  assert_refused "connector mirror-source: exactly.once.support is \"required\", but the workers run plain source mode (exactly.once.source.support=disabled); remove it [rule connector-config]"
  sed -i 's/" Required "/"requested"/' "$WORK/connector.json"
  make_export "$WORK/export.json" >/dev/null
  run -0 plan_with -q
}
@test "a connector with enabled false is refused: it would copy nothing [rule connector-config]" {
  sed -i 's/"tasks.max": "4"/"tasks.max": "4", "enabled": "false"/' "$WORK/connector.json"
  make_export "$WORK/export.json" 'x["topics"] = [{"name": t, "partitions": n, "replicated": False} for t, n in (("audit", 2), ("orders", 3), ("payments", 1))]' \
    'x["partitions"] = []' >/dev/null
  run -1 plan_with
  assert_refused "connector mirror-source: \"enabled\" is \"false\", so MirrorSourceConnector creates no task and copies nothing; remove it [rule connector-config]"
}
@test "auto.offset.reset latest is fine when no partition is written as null" {
  sed -i 's/"earliest"/"latest"/' "$WORK/connector.json"
  make_export "$WORK/export.json" 'part("orders", 1)["committed"] = [0, 0]; part("orders", 1)["log_end"] = [5, 5]' \
    'part("orders", 1)["committed"] = [1, 1]' >/dev/null
  run -0 plan_with -q
}
@test "Connect on another Kafka cluster than [target] is refused [rule wrong-target]" {
  make_export "$WORK/export.json" 'x["connect"]["kafka_cluster_id"] = "other-cluster"' >/dev/null
  run -1 plan_with
  assert_refused "Connect's workers store their offsets in Kafka cluster other-cluster, but the [target] cluster is $TGT_ID; point [connect] url or [target] at the same cluster [rule wrong-target]"
}
@test "a Flink job not FINISHED or CANCELED at export is refused [rule flink-running]" {
  make_export "$WORK/export.json" 'x["flink"]["job_state"] = "RUNNING"' >/dev/null
  run -1 plan_with
  assert_refused "the Flink job was RUNNING at export, not FINISHED or CANCELED; stop it with a savepoint, disable its restarts, then export again [rule flink-running]"
  make_export "$WORK/export.json" 'x["flink"]["job_state"] = "CANCELED"' >/dev/null
  run -0 plan_with -q
}
@test "reads not more than a checkpoint interval apart do not prove Flink stopped [rule flink-unproven]" {
  make_export "$WORK/export.json" 'x["flink"].update(stopped_by="stable-offsets", job_state="", checkpoint_interval_ms=30000)' >/dev/null
  run -1 plan_with
  assert_refused "the two reads were 30000 ms apart, not more than one Flink checkpoint interval (30000 ms): that does not prove Flink stopped committing; export with a longer --stable-wait or give [flink] rest.url and job.id [rule flink-unproven]"
  make_export "$WORK/export.json" 'x["flink"].update(stopped_by="stable-offsets", job_state="", checkpoint_interval_ms=29999)' >/dev/null
  run -0 plan_with -q
}
@test "a group with active members is refused [rule group-active]" {
  make_export "$WORK/export.json" 'x["flink"].update(group_members=2, group_state="Stable")' >/dev/null
  run -1 plan_with
  assert_refused "group flink-copy has 2 active members (state Stable); Flink's source uses assign() and has none: something else is consuming with this group; stop it [rule group-active]"
}
@test "--accept-loss for a partition that lost nothing is refused [rule accept-loss]" {
  make_export "$WORK/export.json" >/dev/null
  run -1 plan_with --accept-loss payments:0 -a audit:1
  assert_refused "--accept-loss payments:0: that partition's committed offset is not below its log start (or it is not replicated); --accept-loss is only for expired data [rule accept-loss]" \
    "--accept-loss audit:1: that partition's committed offset is not below its log start (or it is not replicated); --accept-loss is only for expired data [rule accept-loss]"
}
@test "every refusal is listed, global rules first, then one per partition" {
  make_export "$WORK/export.json" 'x["flink"]["job_state"] = "RUNNING"' 'part("orders", 0)["committed"] = [None, None]' \
    'part("orders", 2)["committed"] = [61, 61]' 'part("payments", 0)["target_lso"] = [60, 70]' >/dev/null
  run -1 plan_with
  assert_refused "the Flink job was RUNNING at export, not FINISHED or CANCELED; stop it with a savepoint, disable its restarts, then export again [rule flink-running]" \
    "orders-0: group flink-copy has no committed offset; MM2 would start at auto.offset.reset and copy the whole partition again (or skip it with latest): find where Flink stopped [rule no-offset]" \
    "orders-2: committed offset C=61 is beyond the log end 60: not a position in this partition (topic recreated? wrong cluster?); check the group and cluster [rule beyond-end]" \
    "payments-0: on the target, the last stable offset 60 is below the high watermark 70: a transaction is open (a Flink EXACTLY_ONCE sink?); wait for it to commit or abort (transaction.timeout.ms), then export again [rule open-transaction]"
}
@test "a refused plan leaves an existing --out file as it was" {
  printf 'the reviewed plan\n' >"$WORK/old-plan.json"
  make_export "$WORK/export.json" 'part("orders", 0)["committed"] = [None, None]' >/dev/null
  run -1 offsets plan --config "$INI" --export "$WORK/export.json" --out "$WORK/old-plan.json"
  assert_equal "$(cat "$WORK/old-plan.json")" "the reviewed plan"
}

# --- export: what it checks before any request ---------------------------------------------
@test "export without a proof that Flink stopped exits 3" {
  ini_drop rest.url
  ini_drop job.id
  run -3 offsets export --config "$INI" --out "$WORK/export.json"
  assert_summary export 3 0 0
  assert_output "$E export: error: $INI: nothing proves Flink stopped: give [flink] rest.url and job.id, or [flink] checkpoint.interval.seconds with a --stable-wait above it"
}
@test "export with --stable-wait not above the checkpoint interval exits 2" {
  ini_drop rest.url
  ini_drop job.id
  ini_add flink "checkpoint.interval.seconds = 60"
  run -2 offsets export --config "$INI" --out "$WORK/export.json" --stable-wait 60
  # A usage error found once the INI file is loaded: the closing line comes after the hint.
  assert_summary export 2 0 0
  assert_output "$E export: error: --stable-wait must be longer than [flink] checkpoint.interval.seconds (60000 ms), got 60000 ms
$(try export)"
}
@test "export without --stable-wait waits 1.5 checkpoint intervals when the interval is the proof, else 30 s" {
  ini_drop rest.url
  ini_drop job.id
  ini_add flink "checkpoint.interval.seconds = 60"
  run -4 offsets export --config "$INI" --out "$WORK/export.json"
  refute_output --partial "--stable-wait must be longer"
  run -0 bash -c "'$OFF' export --help | grep -A2 -- '--stable-wait SECONDS  time'"
  assert_output --partial "(30; 1.5 checkpoint"
}
@test "export against a closed Connect port exits 4 and writes nothing" {
  run -4 offsets export --config "$INI" --out "$WORK/export.json"
  # The request that found the port closed counts.
  assert_summary export 4 0 1
  assert_output "$E export: error: GET /: cannot connect to http://127.0.0.1:$PORT: Connection refused"
  [ ! -e "$WORK/export.json" ]
}
@test "export against a Connect answering garbage exits 5" {
  start_fake garbage
  run -5 offsets export --config "$INI" --out "$WORK/export.json"
  assert_summary export 5 0 1
  assert_output "$E export: error: GET / is not an object"
}

# --- resume: the approval gate -------------------------------------------------------------
@test "resume with another plan's digest exits 1 and asks Connect nothing" {
  # [connect] url is a closed port: a request would exit 4.
  make_plan
  local digest
  digest=$(json_get "$WORK/plan.json" 'd["digest"]')
  run -1 offsets resume --config "$INI" --plan "$WORK/plan.json" --approve "$BOGUS"
  assert_summary resume 1 0 0
  assert_output "$E resume: error: refused: --approve $BOGUS is not this plan's digest $digest: approve the plan you reviewed [rule approval]
$E resume: error: 1 refusal; the connector was not resumed"
}
@test "resume with an --approve that is no digest at all exits 1 the same way" {
  make_plan
  run -1 offsets resume --config "$INI" --plan "$WORK/plan.json" --approve yes
  assert_summary resume 1 0 0
  assert_equal "${#lines[@]}" 2
  assert_line --index 0 --regexp "^$E resume: error: refused: --approve yes is not this plan's digest sha256:[0-9a-f]{64}: approve the plan you reviewed \\[rule approval\\]\$"
  assert_line --index 1 "$E resume: error: 1 refusal; the connector was not resumed"
}
@test "resume with the plan's digest passes the gate and goes on to re-check the clusters" {
  ini_set request.timeout.seconds 1
  make_plan
  run -4 offsets resume --config "$INI" --plan "$WORK/plan.json" --approve "$(json_get "$WORK/plan.json" 'd["digest"]')"
  # No broker answered: no Kafka request was sent, and Connect was not asked yet.
  assert_summary resume 4 0 0
  assert_equal "${#lines[@]}" 2
  assert_line --index 0 "$E resume: info: re-checking the plan's facts: clusters, topics, partitions, log start"
  assert_line --index 1 --regexp "^$E resume: error: \\[source\\] cluster id: no broker answered within [0-9]+ ms "
}

# --- verify and Connect's faults (fake_connect.py) -----------------------------------------
@test "verify of a STOPPED connector holding the plan's offsets exits 0 with an ok report" {
  make_plan
  planned_offsets
  start_fake offsets-stopped
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # GET status, GET config, and GET offsets once: the first read equals the plan.
  assert_summary --stderr verify 0 0 4
  local digest
  digest=$(json_get "$WORK/plan.json" 'd["digest"]')
  assert_equal "$stderr" "$E verify: info: all 4 partitions match the plan $digest"
  printf '%s\n' "$output" >"$WORK/report.json"
  run -0 json_get "$WORK/report.json" '[d["kind"], d["ok"], d["plan_digest"], d["state"], d["tasks"], d["checked"], d["offsets_read"], d["mismatches"]]'
  assert_output '["mm2kit.verify/v2", true, "'"$digest"'", "STOPPED", 0, 4, 3, []]'
}
@test "verify --report writes the same report, sealed" {
  make_plan
  planned_offsets
  start_fake offsets-stopped
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json" --report "$WORK/report.json"
  assert_equal "$(cat "$WORK/report.json")" "$output"
  cp "$WORK/report.json" "$WORK/resealed.json"
  timeout 10 "$SEAL" "$WORK/resealed.json" >/dev/null
  assert_equal "$(cat "$WORK/resealed.json")" "$output"
}
@test "verify with other offsets exits 1 with one mismatch line per partition and a report not ok" {
  # orders-3's offset, which the plan does not have, is a mismatch but no planned partition.
  make_plan
  offsets_answer '{"offsets": [
  {"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 98}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 1}, "offset": {"offset": 3}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 2}, "offset": {"offset": 49}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 3}, "offset": {"offset": 1}},
  {"partition": {"cluster": "old", "topic": "payments", "partition": 0}, "offset": {"offset": 6}}]}'
  start_fake offsets-stopped
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 1 0 5
  assert_equal "$stderr" "$E verify: error: mismatch: orders-0: expected offset 99, found 98
$E verify: error: mismatch: orders-1: expected no offset (null: start at earliest), found 3
$E verify: error: mismatch: payments-0: expected offset 6, found none
$E verify: warning: payments-0 has an offset under cluster alias \"old\", not \"src\"; MM2 ignores it
$E verify: error: mismatch: orders-3: an offset 1 that the plan does not have
$E verify: error: 4 mismatches: 3 of 4 planned partitions differ from the plan"
  printf '%s\n' "$output" >"$WORK/report.json"
  run -0 json_get "$WORK/report.json" '[d["ok"], d["checked"], d["offsets_read"], d["mismatches"]]'
  assert_output '[false, 4, 5, ["orders-0: expected offset 99, found 98", "orders-1: expected no offset (null: start at earliest), found 3", "payments-0: expected offset 6, found none", "orders-3: an offset 1 that the plan does not have"]]'
}
@test "verify of a connector without offsets yet exits 1 naming every planned offset" {
  make_plan
  offsets_answer '{"offsets": []}'
  start_fake offsets-stopped
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 1 0 5
  assert_equal "$stderr" "$E verify: error: mismatch: orders-0: expected offset 99, found none
$E verify: error: mismatch: orders-2: expected offset 49, found none
$E verify: error: mismatch: payments-0: expected offset 6, found none
$E verify: error: 3 mismatches: 3 of 4 planned partitions differ from the plan"
}
@test "verify of a RUNNING connector exits 1 even with the plan's offsets" {
  make_plan
  planned_offsets
  start_fake offsets-running
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 1 0 4
  assert_equal "${stderr_lines[0]}" "$E verify: error: mismatch: connector mirror-source is RUNNING with 2 tasks, not STOPPED; the offsets move until the connector is stopped: PUT /connectors/mirror-source/stop, then verify again [rule connector-state]"
  printf '%s\n' "$output" >"$WORK/report.json"
  assert_equal "$(json_get "$WORK/report.json" '[d["ok"], d["state"], d["tasks"]]')" '[false, "RUNNING", 2]'
  # The connector's own mismatch is no partition's: all 4 match.
  assert_equal "${#stderr_lines[@]}" 2
  assert_equal "${stderr_lines[1]}" "$E verify: error: 1 mismatch, none in the offsets of the 4 planned partitions (they match the plan)"
}
@test "verify of a connector UNASSIGNED with zero tasks exits 1 and names POST .../restart, not PUT .../stop, as the remedy" {
  # A stale status record of a STOPPED connector (KafkaStatusBackingStore has no stale filter
  # for connectors): a second PUT .../stop writes no status (WorkerConnector.suspend returns
  # early when already STOPPED); a restart of the connector alone writes a fresh one.
  make_plan
  planned_offsets
  start_fake offsets-unassigned
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # GET status, GET config, GET offsets once (it equals the plan).
  assert_summary --stderr verify 1 0 4
  assert_equal "$stderr" "$E verify: error: mismatch: connector mirror-source is UNASSIGNED with no task config, not STOPPED: likely a stale status record (one can outlive a restart of Connect's Kafka cluster while the connector stays stopped, and PUT .../stop writes none for a connector already stopped): POST /connectors/mirror-source/restart (the connector alone) makes its worker write its status afresh, then verify again [rule connector-state]
$E verify: error: 1 mismatch, none in the offsets of the 4 planned partitions (they match the plan)"
  printf '%s\n' "$output" >"$WORK/report.json"
  assert_equal "$(json_get "$WORK/report.json" '[d["ok"], d["state"], d["tasks"], d["checked"]]')" '[false, "UNASSIGNED", 0, 4]'
}
@test "verify of a STOPPED connector whose status still lists an earlier connector's task exits 0: the stale status is said, never waited for" {
  # GET .../status lists task 0 UNASSIGNED while GET .../tasks is empty: a status record a
  # deleted connector of the same name left (KafkaStatusBackingStore), not a task of this one.
  make_plan
  planned_offsets
  start_fake offsets-stale
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 0 0 4
  assert_equal "${stderr_lines[0]}" "$E verify: info: connector mirror-source is STOPPED with no task config (1 stale task status: task 0 UNASSIGNED on 10.0.0.2:8088): stale, Connect keeps no task config behind them"
  assert_equal "${stderr_lines[1]}" "$E verify: info: all 4 partitions match the plan $(json_get "$WORK/plan.json" 'd["digest"]')"
  assert_equal "$(jq -c '[.ok, .state, .tasks, .stale_task_statuses, .checked]' <<<"$output")" '[true,"STOPPED",0,1,4]'
}
@test "verify of a STOPPED connector that still has a task config exits 1: Connect would refuse its offsets too" {
  make_plan
  planned_offsets
  start_fake offsets-stopping
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 1 0 4
  assert_equal "${stderr_lines[0]}" "$E verify: error: mismatch: connector mirror-source is STOPPED with 1 task config: Connect counts a connector as stopped only once it has none; wait for the stop's rebalance to end (PUT /connectors/mirror-source/stop if it was not stopped), then verify again [rule connector-state]"
  assert_equal "$(jq -c '[.ok, .state, .tasks, .stale_task_statuses]' <<<"$output")" '[false,"STOPPED",1,0]'
}
@test "verify with the plan's offsets but one the plan does not have: the count says the planned partitions match" {
  make_plan
  offsets_answer '{"offsets": [
  {"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 99}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 2}, "offset": {"offset": 49}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 3}, "offset": {"offset": 1}},
  {"partition": {"cluster": "src", "topic": "payments", "partition": 0}, "offset": {"offset": 6}}]}'
  start_fake offsets-stopped
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 1 0 5
  assert_equal "$stderr" "$E verify: error: mismatch: orders-3: an offset 1 that the plan does not have
$E verify: error: 1 mismatch, none in the offsets of the 4 planned partitions (they match the plan)"
}
@test "stop of a connector already STOPPED touches nothing and reports the offsets it holds, sealed" {
  planned_offsets
  start_fake offsets-stopped
  run -0 --separate-stderr offsets stop --config "$INI" --report "$WORK/stop.json"
  assert_equal "${stderr_lines[0]}" "$E stop: info: connector mirror-source is already STOPPED: not touched"
  assert_equal "${stderr_lines[1]}" "$E stop: info: connector mirror-source STOPPED with no task; it holds 3 source offsets"
  printf '%s\n' "$output" >"$WORK/printed.json"
  run -0 json_get "$WORK/printed.json" '[d["kind"], d["connector"], d["state_before"], d["tasks_before"], d["state"], [[o["cluster"], o["topic"], o["partition"], o["offset"]] for o in d["offsets"]], d["digest"].startswith("sha256:")]'
  assert_output '["mm2kit.stop/v1", "mirror-source", "STOPPED", 0, "STOPPED", [["src", "orders", 0, 99], ["src", "orders", 2, 49], ["src", "payments", 0, 6]], true]'
  run -0 cmp "$WORK/printed.json" "$WORK/stop.json"
  # No PUT: the fake's log has the GETs only.
  run -0 grep -c '"GET /connectors/mirror-source/status' "$WORK/fake.log"
  run -1 grep -q '"PUT ' "$WORK/fake.log"
}
@test "stop of a connector that does not exist exits 1 and names it" {
  start_fake offsets-absent
  run -1 --separate-stderr offsets stop --config "$INI"
  assert_output ""
  assert_equal "${stderr_lines[0]}" "$E stop: error: refused: connector mirror-source does not exist on $URL: nothing to stop (is [connector] file the connector you mean?)"
}
@test "accept of a connector that does not exist exits 1 and names it, before it observes anything" {
  make_plan
  start_fake offsets-absent
  run -1 --separate-stderr offsets accept --config "$INI" --plan "$WORK/plan.json" --markdown "$WORK/a.md"
  assert_output ""
  assert_equal "${stderr_lines[0]}" "$E accept: error: refused: connector mirror-source does not exist on $URL: nothing to accept (run resume first, or is [connector] file the connector you mean?)"
  [ ! -e "$WORK/a.md" ]
}
@test "accept's --window and --window-total take whole numbers of records from 1" {
  local o
  for o in --window --window-total; do
    run -2 offsets accept --config "$INI" --plan "$WORK/plan.json" "$o" 0
    assert_output "$E accept: error: $o must be a whole number of records from 1, got \"0\"
$(try accept)"
  done
}
@test "stop against a closed port exits 4" {
  run -4 offsets stop --config "$INI"
  assert_summary stop 4 0 1
  assert_output "$E stop: error: GET /connectors/mirror-source/tasks: cannot connect to http://127.0.0.1:$PORT: Connection refused"
}
@test "remove with no connector there removes nothing and passes: Flink resumes from its own offsets" {
  make_plan
  start_fake offsets-absent
  run -0 --separate-stderr offsets remove --config "$INI" --plan "$WORK/plan.json"
  assert_output ""
  assert_equal "${stderr_lines[0]}" "$E remove: info: connector mirror-source does not exist: nothing to remove; Flink resumes from its own group offsets"
  run -1 grep -q '"DELETE ' "$WORK/fake.log"
}
@test "remove of a connector that is not as the plan left it (RUNNING) refuses and deletes nothing" {
  make_plan
  planned_offsets
  start_fake offsets-running
  run -1 --separate-stderr offsets remove --config "$INI" --plan "$WORK/plan.json"
  assert_output ""
  [[ "${stderr_lines[-2]}" == "$E remove: error: "*"; nothing was removed: if MM2 ran, run stop, then rollback-plan" ]] ||
    fail "no refusal line: $stderr"
  run -0 grep -c '"GET /connectors/mirror-source/status' "$WORK/fake.log"
  run -1 grep -q '"DELETE ' "$WORK/fake.log"
}
@test "remove against a closed port exits 4" {
  make_plan
  run -4 offsets remove --config "$INI" --plan "$WORK/plan.json"
  assert_summary remove 4 0 1
  assert_output --partial "$E remove: error: GET /connectors/mirror-source/"
}
@test "verify of a connector that does not exist exits 1: run apply" {
  make_plan
  start_fake offsets-absent
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # Only GET status: a connector that does not exist has no config or offsets to read.
  assert_summary --stderr verify 1 0 1
  assert_equal "${stderr_lines[0]}" "$E verify: error: mismatch: connector mirror-source does not exist; run apply"
  # Nothing was checked.
  assert_equal "${#stderr_lines[@]}" 2
  assert_equal "${stderr_lines[1]}" "$E verify: error: 1 mismatch; no planned partition was checked"
}
@test "verify against a closed port exits 4" {
  make_plan
  run -4 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 4 0 1
  assert_output "$E verify: error: GET /connectors/mirror-source/tasks: cannot connect to http://127.0.0.1:$PORT: Connection refused"
}
@test "with connect.wait.seconds a refused connection is retried every 500 ms, each retry on one line, then exits 4" {
  make_plan
  ini_set connect.wait.seconds 1.2
  run -4 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # Refused at 0, 0.5 and 1.0 s: the third leaves less than a pause of the 1.2 s.
  assert_summary --stderr verify 4 0 3
  local what="GET /connectors/mirror-source/tasks" refused="cannot connect to http://127.0.0.1:$PORT: Connection refused"
  local wait="a pod just started may not be allowed through yet (a NetworkPolicy engine catching up): retrying in 500 ms, for up to [connect] connect.wait.seconds"
  assert_equal "${stderr_lines[0]}" "$E verify: info: $what: $refused; $wait"
  assert_equal "${stderr_lines[1]}" "$E verify: info: $what: $refused; $wait"
  assert_equal "${stderr_lines[2]}" "$E verify: error: $what: $refused"
  assert_equal "${#stderr_lines[@]}" 3
}
@test "with connect.wait.seconds a worker that starts answering while verify waits is reached, and verify passes" {
  make_plan
  planned_offsets
  local p
  p=$(closed_port)
  ini_set url "http://127.0.0.1:$p"
  ini_set connect.wait.seconds 20
  rm -f "$WORK/port"
  ( sleep 1.2 && FAKE_CONNECT_PORT=$p exec timeout 60 python3 "$FAKE_CONNECT" offsets-stopped "$WORK/port" "$WORK" ) \
    >"$WORK/fake.log" 2>&1 3>&- &
  # shellcheck disable=SC2034 # stop_fake, in teardown, stops it
  FAKE_PID=$!
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # Two or three refused tries (the fake starts after 1.2 s), then the 4 requests of a pass.
  local n=$(( ${#stderr_lines[@]} - 2 ))
  [ "$n" -ge 2 ] || fail "fewer than 2 retries: $stderr"
  assert_equal "$(grep -c "^$E verify: info: GET /connectors/mirror-source/tasks: cannot connect to http://127.0.0.1:$p: Connection refused; a pod just started" <<<"$stderr")" "$n"
  assert_equal "${stderr_lines[$n]}" "$E verify: info: all 4 partitions match the plan $(json_get "$WORK/plan.json" 'd["digest"]')"
  assert_summary --stderr verify 0 0 $((n + 4))
  printf '%s\n' "$output" >"$WORK/report.json"
  run -0 json_get "$WORK/report.json" 'd["ok"]'
  assert_output true
}
@test "a [connect] ca.location that cannot be read exits 3 and names it" {
  ini_add connect "ca.location = tls/rest-ca.crt"
  make_plan
  run -3 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 3 0 0
  assert_output "$E verify: error: [connect] ca.location: cannot read the CA file $WORK/tls/rest-ca.crt: No such file or directory"
}
@test "an https [connect] url whose certificate does not name its host exits 4 and says so" {
  ini_set url "https://127.0.0.1:$PORT"
  ini_add connect "ca.location = ca.crt"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/ca.key" \
    -subj /CN=cli-ca -days 1 -out "$WORK/ca.crt" 2>/dev/null
  timeout 30 openssl s_server -quiet -www -accept "127.0.0.1:$PORT" -cert "$WORK/ca.crt" -key "$WORK/ca.key" \
    >/dev/null 2>&1 3>&- </dev/null &
  local server=$! _
  for _ in $(seq 100); do (exec 9<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.05; done
  make_plan
  run -4 offsets verify --config "$INI" --plan "$WORK/plan.json"
  kill "$server" 2>/dev/null || true
  assert_output --partial "is not trusted"
}
@test "a secret inside the [connect] url is redacted in Connect's errors" {
  ini_set url "http://127.0.0.1:$PORT/"'${env:MM2_SOURCE_PASSWORD}'
  make_plan
  run -4 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 4 0 1
  assert_output "$E verify: error: GET /connectors/mirror-source/tasks: cannot connect to http://127.0.0.1:$PORT/<redacted>: Connection refused"
}
@test "verify against a server that never answers exits 4 within the request timeout" {
  ini_set request.timeout.seconds 1
  make_plan
  start_fake hang
  timed -4 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 4 0 1
  assert_output "$E verify: error: GET /connectors/mirror-source/tasks: timed out after 1000 ms"
  assert_near_ms "$MS" 1000 1600
}
@test "verify against offsets that are not JSON exits 5 and says so" {
  make_plan
  offsets_answer '<html>Bad Gateway</html>'
  start_fake offsets-stopped
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: the offsets answer is not JSON"
}
@test "an offsets answer without its array exits 5 naming the JSON path" {
  make_plan
  offsets_answer '{"offsets": {}}'
  start_fake offsets-stopped
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: answer.offsets is not an array"
}
@test "an offset that is a string exits 5 naming the JSON path" {
  make_plan
  offsets_answer '{"offsets": [{"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": "99"}}]}'
  start_fake offsets-stopped
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: offsets[0].offset.offset is not an integer"
}
@test "an offset that is not a whole number exits 5" {
  make_plan
  offsets_answer '{"offsets": [{"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 99.5}}]}'
  start_fake offsets-stopped
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: offsets[0].offset.offset is not an integer"
}
@test "an offset entry without its cluster exits 5 naming the JSON path" {
  make_plan
  offsets_answer '{"offsets": [{"partition": {"topic": "orders", "partition": 0}, "offset": {"offset": 99}}]}'
  start_fake offsets-stopped
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: offsets[0].partition.cluster is missing"
}
@test "a negative offset exits 5 and names the entry" {
  make_plan
  offsets_answer '{"offsets": [{"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": -1}}]}'
  start_fake offsets-stopped
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: offsets[0]: partition 0 or offset -1 is out of range"
}
@test "a partition listed twice exits 5 and names it" {
  make_plan
  offsets_answer '{"offsets": [
  {"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 99}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 98}}]}'
  start_fake offsets-stopped
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: the offsets answer lists src/orders-0 twice"
}
@test "an offsets body above the 16 MiB cap exits 5 and names the cap" {
  make_plan
  start_fake offsets-huge
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: response body larger than 16777216 bytes"
}
@test "HTTP 500 with Connect's message exits 5 and shows the message" {
  # Only "a rebalance is expected", and a GET's "Failed to retrieve offsets for source
  # connector", are retried; any other 500 is Connect's answer.
  make_plan
  start_fake offsets-500
  run -5 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 5 0 4
  assert_output "$E verify: error: GET /connectors/mirror-source/offsets: HTTP 500: Failed to retrieve source connector offsets: org.apache.kafka.common.errors.TimeoutException: boom"
}
@test "HTTP 409 past the retry budget exits 4 after a retrying line per wait" {
  ini_set retry.budget.seconds 1
  make_plan
  start_fake offsets-409
  timed -4 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 4 0 3
  assert_output "$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 409 (a rebalance or a concurrent config change); retrying in 250 ms
$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 409 (a rebalance or a concurrent config change); retrying in 500 ms
$E verify: error: GET /connectors/mirror-source/tasks: HTTP 409 for longer than the retry budget of 1000 ms: Cannot complete request momentarily due to stale configuration (typically caused by a concurrent config change)"
  assert_near_ms "$MS" 750 1600
}
@test "HTTP 409: waits from 2 s on are half random, so two clients do not retry in step" {
  # Budget 4 s: exact waits of 250, 500 and 1000 ms, then 2000 ms drawn from [1000, 2000];
  # the next wait (4000 ms) no longer fits. Two runs at once must draw different waits
  # (equal by chance once in 1001).
  ini_set retry.budget.seconds 4
  make_plan
  start_fake offsets-409
  local i t0 t1 w
  local -a ms pause pids
  t0=$(date +%s%N)
  for i in 1 2; do
    offsets_bg "jitter$i" verify --config "$INI" --plan "$WORK/plan.json"
    pids[i]=$!
  done
  wait "${pids[1]}" "${pids[2]}"
  for i in 1 2; do
    assert_equal "$(cat "$WORK/jitter$i.rc")" 4
    run grep -c "retrying in" "$WORK/jitter$i.err"
    assert_output 4
    run sed -n 1,3p "$WORK/jitter$i.err"
    assert_output "$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 409 (a rebalance or a concurrent config change); retrying in 250 ms
$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 409 (a rebalance or a concurrent config change); retrying in 500 ms
$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 409 (a rebalance or a concurrent config change); retrying in 1000 ms"
    w=$(sed -n '4s/.*; retrying in \([0-9]*\) ms$/\1/p' "$WORK/jitter$i.err")
    [[ $w =~ ^[0-9]+$ ]] || fail "no 4th wait in $(cat "$WORK/jitter$i.err")"
    assert_near_ms "$w" 1000 2000
    pause[i]=$w
    t1=$(cat "$WORK/jitter$i.end")
    ms[i]=$(((t1 - t0) / 1000000))
    # The run really slept that long: 1750 ms of exact waits plus the drawn one.
    assert_near_ms "${ms[i]}" $((1750 + w)) $((1750 + w + 700))
    run sed -n 5p "$WORK/jitter$i.err"
    assert_output --partial "HTTP 409 for longer than the retry budget of 4000 ms"
  done
  [ "${pause[1]}" != "${pause[2]}" ] || fail "both runs waited ${pause[1]} ms: no jitter"
}
@test "HTTP 409 twice, then answers: verify retries and exits 0" {
  make_plan
  planned_offsets
  start_fake offsets-409-twice
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # Retries count: GET status three times, then config and one read of the offsets (the plan).
  assert_summary --stderr verify 0 0 6
  assert_equal "$stderr" "$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 409 (a rebalance or a concurrent config change); retrying in 250 ms
$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 409 (a rebalance or a concurrent config change); retrying in 500 ms
$E verify: info: all 4 partitions match the plan $(json_get "$WORK/plan.json" 'd["digest"]')"
}
@test "HTTP 500 \"a rebalance is expected\" is retried like 409: verify exits 0" {
  make_plan
  planned_offsets
  start_fake offsets-500-rebalance-twice
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 0 0 6
  assert_equal "$stderr" "$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 250 ms
$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 500 ms
$E verify: info: all 4 partitions match the plan $(json_get "$WORK/plan.json" 'd["digest"]')"
}
@test "HTTP 500 \"a rebalance is expected\" past the retry budget exits 4 with Connect's message" {
  ini_set retry.budget.seconds 1
  make_plan
  start_fake offsets-500-rebalance
  timed -4 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 4 0 3
  assert_output "$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 250 ms
$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 500 ms
$E verify: error: GET /connectors/mirror-source/tasks: HTTP 500 for longer than the retry budget of 1000 ms: Request cannot be completed because a rebalance is expected"
  assert_near_ms "$MS" 750 1600
}
@test "HTTP 500 \"IO Error trying to forward REST request\" (the leader gone) is retried: verify exits 0" {
  # RestClient's answer when the worker cannot reach the leader it forwards to; the group elects
  # another once the dead leader's session times out.
  make_plan
  planned_offsets
  start_fake offsets-500-forward-twice
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # GET status three times, then config and one read of the offsets (the plan).
  assert_summary --stderr verify 0 0 6
  assert_equal "$stderr" "$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 500 (the worker cannot reach the Connect leader); retrying in 250 ms
$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 500 (the worker cannot reach the Connect leader); retrying in 500 ms
$E verify: info: all 4 partitions match the plan $(json_get "$WORK/plan.json" 'd["digest"]')"
}
@test "HTTP 500 \"IO Error trying to forward REST request\" past the retry budget exits 4: the leader unreachable, run again once there is one" {
  ini_set retry.budget.seconds 1
  make_plan
  start_fake offsets-500-forward
  timed -4 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary verify 4 0 3
  assert_output "$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 500 (the worker cannot reach the Connect leader); retrying in 250 ms
$E verify: info: GET /connectors/mirror-source/tasks answered HTTP 500 (the worker cannot reach the Connect leader); retrying in 500 ms
$E verify: error: GET /connectors/mirror-source/tasks: the Connect leader is unreachable: the worker answered HTTP 500 for longer than the retry budget of 1000 ms: IO Error trying to forward REST request: java.net.ConnectException: Connection refused; run this again once the workers have a leader"
  assert_near_ms "$MS" 750 1600
}
@test "HTTP 500 \"Failed to retrieve offsets\" on GET offsets is retried like 409: verify exits 0" {
  # Worker's race between listing and its offsets reader (lib/mm2_connect.c call_ex).
  make_plan
  planned_offsets
  start_fake offsets-500-retrieve-twice
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # GET status, GET config, GET offsets three times for the one read (it equals the plan).
  # The race lasts as long as the worker's reader takes: the first wait is 50 ms.
  assert_summary --stderr verify 0 0 6
  assert_equal "$stderr" "$E verify: info: GET /connectors/mirror-source/offsets answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 50 ms
$E verify: info: GET /connectors/mirror-source/offsets answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 100 ms
$E verify: info: all 4 partitions match the plan $(json_get "$WORK/plan.json" 'd["digest"]')"
}
@test "HTTP 500 \"Failed to retrieve offsets\" past the retry budget exits 4 with Connect's message" {
  ini_set retry.budget.seconds 1
  make_plan
  start_fake offsets-500-retrieve
  timed -4 offsets verify --config "$INI" --plan "$WORK/plan.json"
  # GET status, GET config, GET offsets five times: waits of 50, 100, 200 and 400 ms, then 800
  # would pass the budget.
  assert_summary verify 4 0 8
  assert_output "$E verify: info: GET /connectors/mirror-source/offsets answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 50 ms
$E verify: info: GET /connectors/mirror-source/offsets answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 100 ms
$E verify: info: GET /connectors/mirror-source/offsets answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 200 ms
$E verify: info: GET /connectors/mirror-source/offsets answered HTTP 500 (a rebalance expected, or a race inside the worker); retrying in 400 ms
$E verify: error: GET /connectors/mirror-source/offsets: HTTP 500 for longer than the retry budget of 1000 ms: Failed to retrieve offsets for source connector mirror-source"
  assert_near_ms "$MS" 750 1600
}
@test "verify reads the offsets again until two reads agree, and says so while they differ" {
  # A worker still reading its offsets topic lists fewer partitions at first.
  make_plan
  printf '%s\n' '{"offsets": [{"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 99}}]}' >"$WORK/offsets.1.json"
  printf '%s\n' '{"offsets": [{"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 99}},
    {"partition": {"cluster": "src", "topic": "orders", "partition": 2}, "offset": {"offset": 49}}]}' >"$WORK/offsets.2.json"
  planned_offsets
  start_fake offsets-stopped
  timed -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  # GET status, GET config, GET offsets three times: 1 offset, then 2, then the plan's 3, which
  # ends the reads (a read equal to the plan needs no second).
  assert_summary --stderr verify 0 0 6
  assert_equal "$stderr" "$E verify: info: connector mirror-source: 2 offsets listed, 1 the read before: the worker is still reading its offsets topic; reading again
$E verify: info: all 4 partitions match the plan $(json_get "$WORK/plan.json" 'd["digest"]')"
  # Two waits between the three reads: 20 ms after the first (a read that has returned leaves
  # the worker's view complete up to it), 250 ms after the second.
  assert_near_ms "$MS" 270 1000
  printf '%s\n' "$output" >"$WORK/report.json"
  assert_equal "$(json_get "$WORK/report.json" '[d["ok"], d["offsets_read"]]')" '[true, 3]'
}
@test "offsets that still change when the retry budget is spent: a warning, then the last read" {
  ini_set retry.budget.seconds 1
  make_plan
  planned_offsets
  # Every read adds src/churn-0 at another offset: a topic the plan does not have.
  start_fake offsets-churn
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  local n i
  n=$(printf '%s\n' "${stderr_lines[@]}" | sed -n 's/^.* still changed after \([0-9]*\) reads in .*$/\1/p')
  [ -n "$n" ] || fail "no warning that the offsets still changed"
  # The second read 20 ms after the first, then one every 250 ms or so for the 1000 ms budget.
  [ "$n" -ge 3 ] && [ "$n" -le 6 ] || fail "$n reads of the offsets in 1000 ms"
  assert_summary --stderr verify 0 0 $((n + 3))
  assert_equal "${#stderr_lines[@]}" "$n"
  for ((i = 0; i < n - 2; i++)); do
    assert_equal "${stderr_lines[i]}" "$E verify: info: connector mirror-source: 4 offsets listed, 4 the read before: the worker is still reading its offsets topic; reading again"
  done
  assert_equal "${stderr_lines[n - 2]}" "$E verify: warning: the offsets Connect lists for mirror-source still changed after $n reads in 1000 ms; using the last one"
  assert_equal "${stderr_lines[n - 1]}" "$E verify: info: all 4 partitions match the plan $(json_get "$WORK/plan.json" 'd["digest"]')"
}
@test "an offset entry whose offset is null counts as absent: it matches a reset partition" {
  # PATCH with a null offset resets a partition; Connect may still list it with null.
  make_plan
  offsets_answer '{"offsets": [
  {"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 99}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 1}, "offset": null},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 2}, "offset": {"offset": 49}},
  {"partition": {"cluster": "src", "topic": "payments", "partition": 0}, "offset": null}]}'
  start_fake offsets-stopped
  run -1 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_summary --stderr verify 1 0 5
  # orders-1 (planned null) matches; payments-0 (planned 6) has none.
  assert_equal "$stderr" "$E verify: error: mismatch: payments-0: expected offset 6, found none
$E verify: error: 1 mismatch: 1 of 4 planned partitions differ from the plan"
  printf '%s\n' "$output" >"$WORK/report.json"
  assert_equal "$(json_get "$WORK/report.json" '[d["ok"], d["offsets_read"]]')" '[false, 2]'
}
@test "rollback-plan takes the plan's C for a partition whose offset Connect lists as null" {
  make_plan
  offsets_answer '{"offsets": [
  {"partition": {"cluster": "src", "topic": "orders", "partition": 0}, "offset": {"offset": 99}},
  {"partition": {"cluster": "src", "topic": "orders", "partition": 2}, "offset": null},
  {"partition": {"cluster": "src", "topic": "payments", "partition": 0}, "offset": {"offset": 6}}]}'
  start_fake offsets-stopped
  run -0 --separate-stderr offsets rollback-plan --config "$INI" --plan "$WORK/plan.json" --out "$WORK/rollback.csv"
  # GET status and two agreeing reads of the offsets.
  assert_summary --stderr rollback-plan 0 0 4
  assert_equal "$stderr" "$E rollback-plan: info: wrote $WORK/rollback.csv: 4 partitions (2 from MM2's offsets, 2 from the plan's C)"
  assert_equal "$(cat "$WORK/rollback.csv")" "orders,0,100
orders,1,0
orders,2,50
payments,0,7"
}
@test "-q hides the closing line; --help has none" {
  make_plan
  planned_offsets
  start_fake offsets-stopped
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json" -q
  assert_equal "$stderr" ""
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json" --help
  assert_equal "$stderr" ""
  refute_output --partial "finished with exit code"
}

# --- REST authentication: HTTP Basic to a worker behind Kafka's basic-auth extension --------
# with_auth: [connect] username and password, the password ${env:MM2_SOURCE_PASSWORD} ($SECRET, which
# offsets() passes) as a Job's Secret would give it.
with_auth() {
  printf 'username = mm2-offsets\npassword = ${env:MM2_SOURCE_PASSWORD}\n' >"$WORK/auth.ini"
  sed -i "/^retry.budget.seconds/r $WORK/auth.ini" "$INI"
}
@test "[connect] username and password from \${env:} authenticate every request; the password is printed nowhere" {
  make_plan
  planned_offsets
  FAKE_CONNECT_BASIC="mm2-offsets:$SECRET" start_fake offsets-stopped
  with_auth
  run -0 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json" -v
  [[ "$stderr$output" != *"$SECRET"* ]] || fail "the password was printed: $stderr"
  run -1 grep '401 for' "$WORK/fake.log"
}
@test "without credentials a worker's 401 exits 5 and says what it wants" {
  make_plan
  planned_offsets
  FAKE_CONNECT_BASIC="mm2-offsets:$SECRET" start_fake offsets-stopped
  run -5 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_equal "${stderr_lines[0]}" "$E verify: error: GET /connectors/mirror-source/tasks: HTTP 401: the worker wants REST credentials, or refused them (Kafka's basic-auth extension): give this client the REST user and password"
  run -0 grep -c '401 for GET /connectors/mirror-source/tasks (Authorization absent)' "$WORK/fake.log"
}
@test "a wrong password is a 401 too, and is printed nowhere" {
  make_plan
  planned_offsets
  FAKE_CONNECT_BASIC="mm2-offsets:another-password" start_fake offsets-stopped
  with_auth
  run -5 --separate-stderr offsets verify --config "$INI" --plan "$WORK/plan.json" -v
  assert_equal "${stderr_lines[0]}" "$E verify: error: GET /connectors/mirror-source/tasks: HTTP 401: the worker wants REST credentials, or refused them (Kafka's basic-auth extension): give this client the REST user and password"
  [[ "$stderr$output" != *"$SECRET"* ]] || fail "the password was printed: $stderr"
  run -0 grep -c '(Authorization wrong)' "$WORK/fake.log"
}
@test "[connect] username without password exits 3 before anything is asked" {
  make_plan
  sed -i '/^retry.budget.seconds/a username = mm2-offsets' "$INI"
  run -3 offsets verify --config "$INI" --plan "$WORK/plan.json"
  assert_line --partial "[connect] username and password go together; give both or neither"
}
