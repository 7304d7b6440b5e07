#!/usr/bin/env bash
# Makes localhost/mm2kit-base:bookworm, a stand-in for the public
# debian:bookworm-slim, with debootstrap: no container registry is reachable
# here.  Built once; later runs find the image and return at once.
# The mirror is the one this machine's apt sources use.
set -euo pipefail
image=${BASE_IMAGE_LOCAL:-localhost/mm2kit-base:bookworm}
# Made again when this script changes: the image carries what it was built from (label
# mm2kit.source). A new base rebuilds every layer of the worker image on top of it.
here=$(cd "$(dirname "$0")" && pwd)
src=$(sha256sum "$here/base-image.sh" | cut -c1-16)
have=$(podman image inspect -f '{{index .Labels "mm2kit.source"}}' "$image" 2>/dev/null || true)
[ "$have" != "$src" ] || exit 0

# The Debian mirrors of this machine's apt sources (deb822 "URIs:" or one-line
# "deb URL"), ignoring comments: the first plain one and the first security one.
mirrors=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
  sed -n -e 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' \
    -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}\([^[:space:]]*\).*/\2/p' || true)
mirror=$(printf '%s\n' "$mirrors" | grep -v security | head -n 1 || true)
security=$(printf '%s\n' "$mirrors" | grep security | head -n 1 || true)
[ -n "$mirror" ] || { printf 'base-image: error: no Debian mirror in /etc/apt/sources.list*; add one\n' >&2; exit 3; }
dir=$(mktemp -d /var/tmp/mm2kit-base.XXXXXX)
trap 'rm -rf "$dir"' EXIT
printf 'base-image: debootstrap bookworm from %s (about a minute)\n' "$mirror" >&2
timeout 900 debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$dir.log" 2>&1 ||
  { tail -n 20 "$dir.log" >&2; printf 'base-image: error: debootstrap failed; see %s.log\n' "$dir" >&2; exit 4; }
rm -f "$dir.log"
# The updates and security suites as well, like the official image.
{
  printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' "$mirror" "$mirror"
  [ -z "$security" ] || printf 'deb %s bookworm-security main\n' "$security"
} >"$dir/etc/apt/sources.list"
rm -rf "$dir/var/cache/apt/archives/"*.deb "$dir/var/lib/apt/lists/"*
tar -C "$dir" -c . | podman import --change "LABEL mm2kit.source=$src" - "$image" >/dev/null
printf 'base-image: made %s\n' "$image" >&2
