#!/usr/bin/env bash
# make image: builds docker/mm2/Dockerfile with buildah, on this machine,
# without a registry:
#   1. the base image comes from debootstrap (base-image.sh), once;
#   2. the Kafka tarball and the JMX agent come from Maven (kafka-dist.sh), once, and
#      librdkafka's source tarball from scripts/librdkafka.sh --fetch (sha256-checked), once;
#   3. all three are served from 127.0.0.1 for the build's KAFKA_URL/JMX_EXPORTER_URL/
#      LIBRDKAFKA_URL (the build checks each against its pinned checksum);
#   4. buildah bud --layers, so an unchanged step is not rebuilt.
# Set BASE_IMAGE, KAFKA_URL + KAFKA_SHA512 (and JMX_EXPORTER_URL +
# JMX_EXPORTER_SHA512) to build against a real registry and a real download (librdkafka's
# tarball then comes from LIBRDKAFKA_URL, by default Debian's archive).
# Env: IMAGE (default localhost/mm2kit/mm2:dev), KAFKA_VERSION.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
image=${IMAGE:-localhost/mm2kit/mm2:dev}
log() { printf 'image: %s\n' "$*" >&2; }

if [ -z "${BASE_IMAGE:-}" ]; then
  "$here/base-image.sh"
  BASE_IMAGE=localhost/mm2kit-base:bookworm
fi

server_pid='' serve=''
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  wait 2>/dev/null || true
  [ -z "$serve" ] || rm -rf "$serve"
}
trap cleanup EXIT

if [ -z "${KAFKA_URL:-}" ]; then
  # One build at a time on this machine: each serves its files on the one fixed port below
  # (two suites, or two checkouts, building at once would collide on it).
  exec 9>"${TMPDIR:-/tmp}/mm2kit-image-build.lock"
  if ! flock -n 9; then
    log "waiting for another image build on this machine to finish"
    flock -w 900 9 || { log "error: another image build held the lock for 15 minutes"; exit 4; }
  fi
  eval "$("$here/kafka-dist.sh")"
  rdk_tgz=$("$root/scripts/librdkafka.sh" --fetch)
  # Only these three files are served (links in a directory of their own).
  serve=$(mktemp -d)
  ln -s "$KAFKA_TGZ" "$JMX_JAR" "$rdk_tgz" "$serve/"
  port_file=$(mktemp)
  # A throwaway static server on loopback; the build reaches it with --network host.
  # A fixed port: buildah keys a cached RUN step on its ARG values, so a URL
  # that changed with a random port would rebuild the Kafka layer every time.
  python3 - "$serve" "$port_file" "${MM2KIT_DIST_PORT:-38089}" <<'PY' &
import functools, http.server, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
handler.log_message = lambda *a: None
srv = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[3])), handler)
open(sys.argv[2], "w").write(str(srv.server_address[1]))
srv.serve_forever()
PY
  server_pid=$!
  for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
  port=$(cat "$port_file"); rm -f "$port_file"
  [ -n "$port" ] || { log "error: the local file server did not start on 127.0.0.1:${MM2KIT_DIST_PORT:-38089}; set MM2KIT_DIST_PORT to a free port"; exit 4; }
  KAFKA_URL="http://127.0.0.1:$port/$(basename "$KAFKA_TGZ")"
  JMX_EXPORTER_URL="http://127.0.0.1:$port/$(basename "$JMX_JAR")"
  JMX_EXPORTER_SHA512=$JMX_SHA512
  LIBRDKAFKA_URL=${LIBRDKAFKA_URL:-http://127.0.0.1:$port/$(basename "$rdk_tgz")}
fi
: "${KAFKA_SHA512:?KAFKA_SHA512 must be set with KAFKA_URL}"

log "building $image from $BASE_IMAGE (Kafka: ${KAFKA_URL##*/})"
start=$(date +%s)
buildah bud --layers --network host -q -f "$root/docker/mm2/Dockerfile" \
  --build-arg BASE_IMAGE="$BASE_IMAGE" \
  --build-arg KAFKA_URL="$KAFKA_URL" --build-arg KAFKA_SHA512="$KAFKA_SHA512" \
  --build-arg JMX_EXPORTER_URL="${JMX_EXPORTER_URL:-}" --build-arg JMX_EXPORTER_SHA512="${JMX_EXPORTER_SHA512:-}" \
  --build-arg LIBRDKAFKA_URL="${LIBRDKAFKA_URL:-}" \
  -t "$image" "$root" >/dev/null
log "built $image in $(( $(date +%s) - start )) s"
