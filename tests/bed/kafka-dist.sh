#!/usr/bin/env bash
# Assembles an Apache-Kafka-shaped tarball (libs/, bin/, config/) from the jars
# Maven resolves for KAFKA_VERSION, and fetches the JMX exporter agent, into
# $MM2KIT_CACHE/dist.  Prints shell assignments for image.sh to eval:
#   KAFKA_TGZ=... KAFKA_SHA512=... JMX_JAR=... JMX_SHA512=...
# Downloads happen once; the tarball is reproducible (sorted, fixed mtime), so
# its sha512, and the image layer that unpacks it, stay the same run to run.
# A cached tarball is reused only while what it is assembled from is unchanged (its .key
# beside it: the version, the pom and profile Maven resolves with, bin/, config/ and this
# script): a new jar in pom.xml reassembles it, and SHA512SUMS then checks the new one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${MM2KIT_CACHE:-/var/cache/mm2kit}
version=${KAFKA_VERSION:-4.3.1}
jmx_version=${JMX_EXPORTER_VERSION:-1.0.1}
# Kafka 3.x logs through log4j 1 (reload4j); 4.x through log4j2. A 2.x version is a broker
# for an older SOURCE cluster (ZooKeeper mode): the broker's jars alone (kafka/broker-pom.xml).
pom=$here/kafka/pom.xml
case "$version" in
  2.*) profiles=() profile=log4j1 pom=$here/kafka/broker-pom.xml ;;
  3.*) profiles=(-P log4j1 -P '!log4j2') profile=log4j1 ;;
  *) profiles=(-P log4j2) profile=log4j2 ;;
esac

dist=$cache/dist
mkdir -p "$dist"
tgz=$dist/kafka_2.13-$version.tgz
jmx=$dist/jmx_prometheus_javaagent-$jmx_version.jar
mvn_opts=(-B -q -f "$pom" -Dkafka.version="$version")
key=$( { printf '%s %s %s\n' "$version" "$profile" "${profiles[*]+${profiles[*]}}"
         cat "$pom" "$here/kafka-dist.sh" "$here"/bin/*.sh "$here"/config/*; } | sha256sum | cut -d' ' -f1)

if [ ! -s "$tgz" ] || [ "$(cat "$tgz.key" 2>/dev/null)" != "$key" ]; then
  [ ! -e "$tgz" ] || printf 'kafka-dist: %s was assembled from other inputs; assembling it again\n' "${tgz##*/}" >&2
  rm -f "$tgz" "$tgz.key"
  stage=$(mktemp -d "$cache/kafka-$version.XXXXXX")
  trap 'rm -rf "$stage"' EXIT
  printf 'kafka-dist: resolving Apache Kafka %s jars with Maven\n' "$version" >&2
  timeout 900 mvn "${mvn_opts[@]}" ${profiles[@]+"${profiles[@]}"} dependency:copy-dependencies \
    -DoutputDirectory="$stage/kafka_2.13-$version/libs" >&2 ||
    { printf 'kafka-dist: error: Maven could not resolve Kafka %s; try KAFKA_VERSION=<a served 4.x>\n' "$version" >&2; exit 4; }
  top=$stage/kafka_2.13-$version
  mkdir -p "$top/bin" "$top/config"
  cp "$here"/bin/*.sh "$top/bin/"
  if [ "$profile" = log4j2 ]; then
    cp "$here"/config/*.yaml "$top/config/"
  else
    cp "$here"/config/*.properties "$top/config/"
  fi
  printf '%s\n' "$version" >"$top/VERSION.mm2kit-bed"
  chmod 0755 "$top"/bin/*.sh
  tar -C "$stage" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=u+rwX,go+rX,go-w \
    -c "kafka_2.13-$version" | gzip -n -6 >"$tgz.part"
  mv "$tgz.part" "$tgz"
  printf '%s\n' "$key" >"$tgz.key"
  rm -rf "$stage"
  trap - EXIT
fi

if [ ! -s "$jmx" ]; then
  printf 'kafka-dist: fetching the JMX exporter agent %s with Maven\n' "$jmx_version" >&2
  timeout 600 mvn "${mvn_opts[@]}" dependency:copy \
    -Dartifact="io.prometheus.jmx:jmx_prometheus_javaagent:$jmx_version" -DoutputDirectory="$dist" >&2 ||
    { printf 'kafka-dist: error: Maven could not fetch jmx_prometheus_javaagent %s\n' "$jmx_version" >&2; exit 4; }
fi

# The tarball is pinned: SHA512SUMS beside pom.xml holds the sha512 of each
# version's tarball as assembled here (Maven verifies each jar it downloads; the
# pin covers the whole).  A version not listed is refused unless
# KAFKA_UNPINNED=1, which prints the sum to add.
got=$(sha512sum "$tgz" | cut -d' ' -f1)
want=$(awk -v f="${tgz##*/}" '$2 == f { print $1 }' "$here/kafka/SHA512SUMS")
if [ -z "$want" ]; then
  if [ "${KAFKA_UNPINNED:-0}" != 1 ]; then
    printf 'kafka-dist: error: Kafka %s is not pinned in tests/bed/kafka/SHA512SUMS; add "%s  %s" after checking it, or set KAFKA_UNPINNED=1\n' \
      "$version" "$got" "${tgz##*/}" >&2
    exit 4
  fi
  printf 'kafka-dist: warning: Kafka %s is not pinned: %s  %s\n' "$version" "$got" "${tgz##*/}" >&2
elif [ "$got" != "$want" ]; then
  printf 'kafka-dist: error: %s has sha512 %s, pinned %s; remove it to assemble it again, or check what Maven resolved\n' \
    "$tgz" "$got" "$want" >&2
  exit 4
fi
printf 'KAFKA_TGZ=%q\nKAFKA_SHA512=%s\nJMX_JAR=%q\nJMX_SHA512=%s\n' \
  "$tgz" "$got" "$jmx" "$(sha512sum "$jmx" | cut -d' ' -f1)"
