#!/usr/bin/env bash
# bench/probe: `mm2-probe ready` beside `curl -fsS` on the same /health URL of a
# live worker on the bed, N runs each (default 1000), both with the probes' REST
# credentials (Kafka's basic-auth extension) read from a file: mm2-probe's
# --password-file, curl's --netrc-file.  Needs the bed up (tests/bed/bed.sh up 1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
n=${1:-1000}
# shellcheck source=tests/bed/bed.env
. "$root/tests/bed/bed.env"
make -C "$root" --no-print-directory -s all
url="http://$(bed_worker_ip 1):8088"
curl -fsS -o /dev/null -m 5 "$url/health" || { echo "bench/probe: no healthy worker at $url; run tests/bed/bed.sh up 1" >&2; exit 4; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pwfile=$BED_DIR/rest-auth/secret/probe-password
# REST authentication is on: without credentials the probe is refused (exit 5, HTTP 401).
rc=0
"$root/build/mm2-probe" ready --url "$url" --timeout 5 2>/dev/null || rc=$?
[ "$rc" = 5 ] || { echo "bench/probe: mm2-probe without credentials exited $rc, not 5: is REST authentication off?" >&2; exit 4; }
umask 077
printf 'machine %s login %s password %s\n' "$(bed_worker_ip 1)" "$BED_REST_PROBE_USER" "$(cat "$pwfile")" >"$work/netrc"
cc -O2 -o "$work/spawn" "$here/spawn.c"
python3 "$here/harness.py" "$work/spawn" "$n" \
  -- mm2-probe "$root/build/mm2-probe" ready --url "$url" --timeout 5 --user "$BED_REST_PROBE_USER" --password-file "$pwfile" \
  -- "curl -fsS" "$(command -v curl)" -q -fsS -o /dev/null -m 5 --netrc-file "$work/netrc" "$url/health"
