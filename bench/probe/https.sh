#!/usr/bin/env bash
# bench/probe/https.sh [N]: `mm2-probe live --cacert` beside `curl -fsS --cacert`
# over HTTPS, N runs each (default 1000), against one local TLS server
# (openssl s_server -www, an ECDSA P-256 certificate from a CA made here, TLS
# 1.3), so the figure is what the TLS handshake and verification add to each
# client, not a worker's answer time.  Needs no bed and no container.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
n=${1:-1000}
make -C "$root" --no-print-directory -s all
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/ca.key" \
  -subj /CN=bench-ca -days 1 -out "$work/ca.crt" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/srv.key" \
  -subj /CN=localhost -out "$work/srv.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost\n' >"$work/srv.ext"
openssl x509 -req -in "$work/srv.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial \
  -days 1 -extfile "$work/srv.ext" -out "$work/srv.crt" 2>/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
openssl s_server -quiet -www -accept "127.0.0.1:$port" -cert "$work/srv.crt" -key "$work/srv.key" \
  >/dev/null 2>&1 </dev/null &
server=$!
url="https://localhost:$port"
for _ in $(seq 100); do curl -fsS -o /dev/null --cacert "$work/ca.crt" "$url/" 2>/dev/null && break; sleep 0.05; done
cc -O2 -o "$work/spawn" "$here/spawn.c"
python3 "$here/harness.py" "$work/spawn" "$n" \
  -- "mm2-probe https" "$root/build/mm2-probe" live --url "$url" --cacert "$work/ca.crt" --timeout 5 \
  -- "curl -fsS https" "$(command -v curl)" -fsS -o /dev/null -m 5 --cacert "$work/ca.crt" "$url/"
