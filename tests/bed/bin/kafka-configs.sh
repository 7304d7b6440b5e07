#!/usr/bin/env bash
# mm2kit bed stand-in for Apache Kafka's bin/kafka-configs.sh: execs kafka.admin.ConfigCommand through
# kafka-run-class.sh with the tools' default heap (-Xmx512M) and the tools'
# log config, like the real script.  Difference: none beyond kafka-run-class.sh's.
set -eu
base_dir=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${KAFKA_LOG4J_OPTS:-}" ]; then
  if [ -f "$base_dir/config/tools-log4j2.yaml" ]; then
    export KAFKA_LOG4J_OPTS="-Dlog4j2.configurationFile=$base_dir/config/tools-log4j2.yaml"
  else
    export KAFKA_LOG4J_OPTS="-Dlog4j.configuration=file:$base_dir/config/tools-log4j.properties"
  fi
fi
: "${KAFKA_HEAP_OPTS:=-Xmx512M}"
export KAFKA_HEAP_OPTS
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.ConfigCommand "$@"
