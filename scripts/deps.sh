#!/usr/bin/env bash
# Brings a fresh Debian bookworm machine (run as root) to the state the build,
# the tests and the bed need.  Installs only what is missing; a second run is
# a few dpkg queries and nothing else.
#
# Exit codes: 0 ready, 3 not Debian or not root, 4 a package could not be had.
set -euo pipefail

prog=deps
die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit "${2:-4}"; }

[ "$(id -u)" -eq 0 ] || { printf '%s: error: must run as root to install packages; run "sudo make deps"\n' "$prog" >&2; exit 3; }
command -v dpkg-query >/dev/null || { printf '%s: error: needs a Debian machine (dpkg-query not found)\n' "$prog" >&2; exit 3; }

packages=(
  build-essential pkg-config git ca-certificates curl
  libcurl4-openssl-dev libcjson-dev libinih-dev libcap-dev libssl-dev libcmocka-dev
  liblz4-dev libzstd-dev zlib1g-dev   # librdkafka, built by scripts/librdkafka.sh (make does)
  bats bats-support bats-assert shellcheck cppcheck clang-format valgrind clang-14 libclang-rt-14-dev llvm-14
  openjdk-17-jdk-headless maven
  buildah podman runc debootstrap uidmap
  kcat jq python3 python3-venv iproute2 procps
  prometheus prometheus-alertmanager
  etcd-server containerd nftables iptables ipset   # the test Kubernetes cluster (tests/kube; ipset for kube-router)
)

missing=()
for p in "${packages[@]}"; do
  st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  case "$st" in ii*) ;; *) missing+=("$p") ;; esac
done

if [ ${#missing[@]} -gt 0 ]; then
  printf '%s: installing %s\n' "$prog" "${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || die "apt-get update failed; check the machine's apt sources"
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
fi

# Container settings a machine like CI's needs: runc (crun refuses a hybrid
# cgroup v1/v2 layout), cgroupfs, and ulimits inside the hard limits.
conf=/etc/containers/containers.conf
if [ ! -f "$conf" ]; then
  hn=$(ulimit -Hn); hu=$(ulimit -Hu)
  [ "$hn" = unlimited ] && hn=1048576
  [ "$hu" = unlimited ] && hu=65536
  nofile=$(( hn < 65536 ? hn : 65536 ))
  nproc=$(( hu < 16384 ? hu : 16384 ))
  mkdir -p /etc/containers
  cat >"$conf" <<CONF
# Written by mm2kit's make deps (only because none existed).
[containers]
default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
  printf '%s: wrote %s\n' "$prog" "$conf" >&2
fi
# Python tools in venvs of their own (never the system Python), made again
# when their requirements file or the Python that made them changes.
cache=${MM2KIT_CACHE:-/var/cache/mm2kit}
root=$(cd "$(dirname "$0")/.." && pwd)
venv_sync() { # venv-dir requirements-file
  local venv=$1 req=$2 want
  want=$({ python3 -c 'import sys; print(sys.version)'; cat "$req"; } | sha256sum | cut -d' ' -f1)
  if [ -x "$venv/bin/python3" ] && [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  printf '%s: installing %s into %s\n' "$prog" "${req#"$root"/}" "$venv" >&2
  mkdir -p "$cache"
  python3 -m venv --clear "$venv" || die "python3 -m venv $venv failed"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" || die "pip install -r $req failed"
  printf '%s\n' "$want" >"$venv/.requirements.sha256"
}
venv_sync "$cache/venv" "$root/tests/bed/requirements.txt"
venv_sync "$cache/lint-venv" "$root/tests/lint-requirements.txt"
printf '%s: ready\n' "$prog" >&2
