#!/usr/bin/env bash
# bench/probe: `mm2-probe ready` beside `curl -fsS` on the same /health URL of a
# live worker on the bed, N runs each (default 1000).  Needs the bed up
# (tests/bed/bed.sh up 1).
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
cc -O2 -o "$work/spawn" "$here/spawn.c"
python3 "$here/harness.py" "$work/spawn" "$n" \
  -- mm2-probe "$root/build/mm2-probe" ready --url "$url" --timeout 5 \
  -- "curl -fsS" "$(command -v curl)" -fsS -o /dev/null -m 5 "$url/health"
