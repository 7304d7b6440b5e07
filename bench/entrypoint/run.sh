#!/usr/bin/env bash
# bench/entrypoint: mm2-entrypoint beside a shell entrypoint doing the same
# checks, exec to exec (median of N runs), and, with --bed, a worker's time
# from container start to /health 200 on the bed.
#   bench/entrypoint/run.sh [N] [--bed]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
n=${1:-500}
make -C "$root" --no-print-directory -s all
work=$(mktemp -d /tmp/mm2-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
mkdir -p "$work/libs" "$work/bin"
: >"$work/libs/kafka-clients-4.3.1.jar"
echo "x=1" >"$work/connect.properties"
echo "Configuration: {}" >"$work/log4j2.yaml"
cc -O2 -o "$work/bin/connect-distributed.sh" "$here/exec_stamp.c"
chmod -R a+rX "$work"
python3 "$here/harness.py" "$n" "$root/build/mm2-entrypoint" "$here/baseline-entrypoint.sh" "$work"
# A pod IP is not on loopback: the baseline then forks ip(8) as such scripts do.
pod_ip=$(ip -o -4 addr show scope global | awk '{print $4}' | cut -d/ -f1 | head -n 1)
if [ -n "$pod_ip" ]; then
  BENCH_POD_IP=$pod_ip python3 "$here/harness.py" "$n" "$root/build/mm2-entrypoint" "$here/baseline-entrypoint.sh" "$work"
fi

if [ "${2:-}" = --bed ]; then
  # shellcheck source=tests/bed/bed.env
  . "$root/tests/bed/bed.env"
  # The image's worker config, and the same with a reflective plugin scan instead of the
  # ServiceLoader manifests (plugin.discovery=only_scan, Connect's behaviour before KIP-898).
  props=/etc/mm2/connect-mm2.properties
  timeout 60 podman run --rm --entrypoint cat "$IMAGE" "$props" >"$work/service_load.properties"
  grep -qx 'plugin.discovery=service_load' "$work/service_load.properties" ||
    { echo "the image's $props does not say plugin.discovery=service_load" >&2; exit 4; }
  sed 's/^plugin.discovery=.*/plugin.discovery=only_scan/' "$work/service_load.properties" >"$work/only_scan.properties"
  chmod 0644 "$work"/*.properties
  echo "worker container start -> /health 200 (bed already up with workers 1-3), the two interleaved:"
  for run in 1 2 3; do
    for mode in service_load only_scan; do
      t0=$(date +%s%N)
      "$root/tests/bed/bed.sh" worker-start 4 -v "$work/$mode.properties:$props:ro" >/dev/null
      until [ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://$(bed_worker_ip 4):8088/health")" = 200 ]; do
        [ $(( ($(date +%s%N) - t0) / 1000000000 )) -lt 180 ] || { echo "no /health 200 in 180 s" >&2; exit 4; }
        sleep 0.1
      done
      scan=$(timeout 30 podman logs "$(bed_worker_name 4)" 2>&1 | sed -n 's/.*Scanning plugins with \([A-Za-z]*\) took \([0-9]*\) ms.*/\1 \2 ms/p' | tr '\n' ' ')
      echo "  run $run, plugin.discovery=$mode: $(( ($(date +%s%N) - t0) / 1000000 )) ms (${scan:-no scan logged})"
      podman rm -f -t 10 "$(bed_worker_name 4)" >/dev/null
    done
  done
fi
