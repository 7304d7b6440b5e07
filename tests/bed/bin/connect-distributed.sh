#!/usr/bin/env bash
# mm2kit bed stand-in for Apache Kafka's bin/connect-distributed.sh.
#
# Like the real script it defaults KAFKA_LOG4J_OPTS to config/connect-log4j2.yaml
# and KAFKA_HEAP_OPTS to -Xms256M -Xmx2G, names the process connectDistributed,
# and execs kafka-run-class.sh with org.apache.kafka.connect.cli.ConnectDistributed.
#
# Differences from the real script:
#   - -daemon is refused (see kafka-run-class.sh);
#   - no log4j 1 fallback detection: the tarball this belongs to says which
#     logging it carries (config/connect-log4j2.yaml or connect-log4j.properties).
set -eu
base_dir=$(cd "$(dirname "$0")/.." && pwd)

if [ $# -lt 1 ]; then
  echo "USAGE: $0 [-daemon] connect-distributed.properties" >&2
  exit 1
fi

if [ -z "${KAFKA_LOG4J_OPTS:-}" ]; then
  if [ -f "$base_dir/config/connect-log4j2.yaml" ]; then
    export KAFKA_LOG4J_OPTS="-Dlog4j2.configurationFile=$base_dir/config/connect-log4j2.yaml"
  else
    export KAFKA_LOG4J_OPTS="-Dlog4j.configuration=file:$base_dir/config/connect-log4j.properties"
  fi
fi
if [ -z "${KAFKA_HEAP_OPTS:-}" ]; then
  export KAFKA_HEAP_OPTS="-Xms256M -Xmx2G"
fi

exec "$(dirname "$0")/kafka-run-class.sh" -name connectDistributed org.apache.kafka.connect.cli.ConnectDistributed "$@"
