#!/usr/bin/env bash
# The librdkafka mm2kit links (statically, so nothing at run time depends on a path): a
# pinned upstream release from Debian's own source tarball, verified by its sha256, built once
# into $MM2KIT_CACHE/librdkafka/VERSION and reused by every later build.
#
# Why not Debian 12's package (2.0.2): before 2.6.1, librdkafka repeats its own nonce in the
# SCRAM client-final message (librdkafka#4895), and Kafka 4.x brokers refuse every such login.
# 2.8.0 is the version Debian 13 (trixie) ships; its .orig tarball is the upstream release.
#
#   scripts/librdkafka.sh             build it unless already built; prints nothing on stdout
#   scripts/librdkafka.sh --prefix    print the install prefix (include/, lib/, lib/pkgconfig/)
#   scripts/librdkafka.sh --version   print the pinned version
#   scripts/librdkafka.sh --fetch     only fetch and check the tarball; print its path
# Env: MM2KIT_CACHE (default /var/cache/mm2kit); LIBRDKAFKA_URL, another place to fetch the
# same tarball from (it is checked against the same sha256); LIBRDKAFKA_JOBS (default 2);
# LIBRDKAFKA_VERSION, for benchmarks only (bench/listoffsets), another release Debian's archive
# serves, each pinned below by the sha256 of Debian's Sources index: 2.14.2 (Debian's newest,
# 2026-12-06). mm2-offsets itself always links the default.
#
# Only what mm2-offsets needs is built: the C library (no C++ library, examples or tests), with
# SSL (OpenSSL), SASL PLAIN and SCRAM (builtin with SSL), and gzip, snappy, lz4 (the system's
# liblz4, as Debian builds it) and zstd compression; no GSSAPI (Cyrus SASL) and no libcurl
# (OIDC), which mm2-offsets does not use.
#
# Exit codes: 0 built (or already built), 4 the tarball could not be had or did not build.
set -euo pipefail

version=${LIBRDKAFKA_VERSION:-2.8.0}
case "$version" in
  2.8.0) sha256=5bd1c46f63265f31c6bfcedcde78703f77d28238eadf23821c2b43fc30be3e25 ;;
  2.14.2) sha256=4d53568c13717b167d12c7b2a0fe12aeb5d6bfe02de53df5b68f86d870a81b33 ;;
  *) printf 'librdkafka: error: LIBRDKAFKA_VERSION %s is not pinned here (2.8.0 or 2.14.2)\n' "$version" >&2; exit 2 ;;
esac
tarball=librdkafka_$version.orig.tar.gz
url=${LIBRDKAFKA_URL:-http://deb.debian.org/debian/pool/main/libr/librdkafka/$tarball}
configure_flags=(--enable-ssl --enable-zstd --enable-zlib --enable-lz4-ext --disable-gssapi
                 --disable-curl)

cache=${MM2KIT_CACHE:-/var/cache/mm2kit}
top=$cache/librdkafka
prefix=$top/$version
prog=librdkafka

case "${1:-}" in
  --prefix) printf '%s\n' "$prefix"; exit 0 ;;
  --version) printf '%s\n' "$version"; exit 0 ;;
  --fetch | '') ;;
  *) printf '%s: error: unknown argument %s (use --prefix, --version, --fetch or none)\n' "$prog" "$1" >&2; exit 2 ;;
esac

die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 4; }

# The tarball in $top, fetched unless there with the right sha256 (run under the lock).
src=$top/$tarball
fetch() {
  if [ -f "$src" ] && ! printf '%s  %s\n' "$sha256" "$src" | sha256sum -c --status -; then
    rm -f "$src"
  fi
  [ ! -f "$src" ] || return 0
  printf '%s: fetching %s\n' "$prog" "$url" >&2
  curl -fsSL --retry 3 -o "$src.part" "$url" || die "could not fetch $url; set LIBRDKAFKA_URL to a copy of $tarball"
  printf '%s  %s\n' "$sha256" "$src.part" | sha256sum -c --status - ||
    { rm -f "$src.part"; die "$url is not librdkafka $version's tarball (sha256 differs from $sha256)"; }
  mv "$src.part" "$src"
}
if [ "${1:-}" = --fetch ]; then
  mkdir -p "$top"
  exec 9>"$top/.lock"
  flock 9
  fetch
  printf '%s\n' "$src"
  exit 0
fi

# What the build in $prefix was made from: a different tarball, flag or compiler rebuilds it.
key="$version $sha256 ${configure_flags[*]} $(cc --version 2>/dev/null | head -n 1)"
built() { [ -f "$prefix/lib/librdkafka.a" ] && [ "$(cat "$prefix/.mm2kit-build" 2>/dev/null)" = "$key" ]; }
built && exit 0

mkdir -p "$top"
# One build at a time on this machine (worktrees and CI share the cache).
exec 9>"$top/.lock"
flock 9
built && exit 0

for h in lz4.h zstd.h zlib.h openssl/ssl.h; do
  [ -f "/usr/include/$h" ] || die "/usr/include/$h is missing: install liblz4-dev libzstd-dev zlib1g-dev libssl-dev (make deps does)"
done

fetch

work=$(mktemp -d "$top/build-$version.XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$top/build-$version.log
printf '%s: building %s into %s (about 2 minutes on 2 cores; log: %s)\n' "$prog" "$version" "$prefix" "$log" >&2
start=$(date +%s)
{
  tar -xzf "$src" -C "$work" --no-same-owner &&
    cd "$work"/*/ &&
    ./configure --prefix="$prefix" "${configure_flags[@]}" &&
    make -C src -j"${LIBRDKAFKA_JOBS:-2}" &&
    make -C src install DESTDIR="$work/root"
} >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "building librdkafka $version failed (log: $log)"; }

# Only the static library, its headers and rdkafka-static.pc: no shared object a link could
# pick up instead.
staged=$work/root$prefix
rm -f "$staged"/lib/librdkafka.so* "$staged"/lib/librdkafka-static.a "$staged"/lib/pkgconfig/rdkafka.pc
if [ ! -f "$staged/lib/librdkafka.a" ] || [ ! -f "$staged/lib/pkgconfig/rdkafka-static.pc" ]; then
  die "librdkafka $version installed no librdkafka.a or rdkafka-static.pc (log: $log)"
fi
printf '%s\n' "$key" >"$staged/.mm2kit-build"
rm -rf "$prefix.old"
[ ! -e "$prefix" ] || mv "$prefix" "$prefix.old"
mv "$staged" "$prefix"
rm -rf "$prefix.old"
printf '%s: built %s in %d s\n' "$prog" "$version" $(($(date +%s) - start)) >&2
