#!/usr/bin/env bash
# mm2kit bed stand-in for Apache Kafka's bin/kafka-server-start.sh.
# Defaults KAFKA_HEAP_OPTS to -Xmx1G -Xms1G and the log config like the real
# script, then execs kafka-run-class.sh kafka.Kafka.
# Differences from the real script: -daemon is refused; no -loggc by default.
set -eu
base_dir=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ]; then
  echo "USAGE: $0 server.properties [--override property=value]*" >&2
  exit 1
fi
if [ -z "${KAFKA_LOG4J_OPTS:-}" ]; then
  if [ -f "$base_dir/config/log4j2.yaml" ]; then
    export KAFKA_LOG4J_OPTS="-Dlog4j2.configurationFile=$base_dir/config/log4j2.yaml"
  else
    export KAFKA_LOG4J_OPTS="-Dlog4j.configuration=file:$base_dir/config/log4j.properties"
  fi
fi
: "${KAFKA_HEAP_OPTS:=-Xmx1G -Xms1G}"
export KAFKA_HEAP_OPTS
exec "$(dirname "$0")/kafka-run-class.sh" -name kafkaServer kafka.Kafka "$@"
