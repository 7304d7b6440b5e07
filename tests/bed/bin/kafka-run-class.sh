#!/usr/bin/env bash
# mm2kit bed stand-in for Apache Kafka's bin/kafka-run-class.sh.
#
# Honours the same environment as the real script: JAVA_HOME, KAFKA_HEAP_OPTS,
# KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_GC_LOG_OPTS, KAFKA_JMX_OPTS, JMX_PORT,
# KAFKA_LOG4J_OPTS, KAFKA_OPTS, LOG_DIR, CLASSPATH, and the -daemon / -name /
# -loggc flags, with the same defaults; it ends in `exec java ...`.
#
# Differences from the real script:
#   - the class path is libs/*.jar only (the real one also scans the source
#     tree's build directories, which a binary distribution does not have);
#   - -daemon is refused: nothing in this project runs Kafka in the background
#     (a container's PID 1 must be the JVM);
#   - no Cygwin handling, no KAFKA_DEBUG / JPDA options;
#   - -loggc writes the GC log to $LOG_DIR/<name>-gc.log with JDK 9+ syntax only.
set -eu

base_dir=$(cd "$(dirname "$0")/.." && pwd)

if [ $# -lt 1 ]; then
  echo "USAGE: $0 [-daemon] [-name servicename] [-loggc] classname [opts]" >&2
  exit 1
fi

name=""
gc_log=no
while [ $# -gt 0 ]; do
  case "$1" in
    -name) name=$2; shift 2 ;;
    -loggc) gc_log=yes; shift ;;
    -daemon) echo "kafka-run-class.sh (mm2kit stand-in): -daemon is not supported" >&2; exit 1 ;;
    *) break ;;
  esac
done

cp=""
for jar in "$base_dir"/libs/*.jar; do
  cp="${cp:+$cp:}$jar"
done
if [ -n "${CLASSPATH:-}" ]; then
  cp="$CLASSPATH:$cp"
fi

: "${LOG_DIR:=$base_dir/logs}"
mkdir -p "$LOG_DIR"

if [ -z "${KAFKA_LOG4J_OPTS:-}" ]; then
  if [ -f "$base_dir/config/log4j2.yaml" ]; then
    KAFKA_LOG4J_OPTS="-Dlog4j2.configurationFile=$base_dir/config/log4j2.yaml"
  else
    KAFKA_LOG4J_OPTS="-Dlog4j.configuration=file:$base_dir/config/log4j.properties"
  fi
fi
KAFKA_LOG4J_OPTS="-Dkafka.logs.dir=$LOG_DIR $KAFKA_LOG4J_OPTS"

if [ -z "${KAFKA_JMX_OPTS:-}" ]; then
  KAFKA_JMX_OPTS="-Dcom.sun.management.jmxremote -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false"
fi
if [ -n "${JMX_PORT:-}" ]; then
  KAFKA_JMX_OPTS="$KAFKA_JMX_OPTS -Dcom.sun.management.jmxremote.port=$JMX_PORT"
fi

: "${KAFKA_HEAP_OPTS:=-Xmx256M}"
: "${KAFKA_JVM_PERFORMANCE_OPTS:=-server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true}"

if [ "$gc_log" = yes ] && [ -n "$name" ]; then
  KAFKA_GC_LOG_OPTS="${KAFKA_GC_LOG_OPTS:--Xlog:gc*:file=$LOG_DIR/$name-gc.log:time,tags:filecount=10,filesize=100M}"
fi

if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
else
  java=java
fi

# Word splitting of the *_OPTS variables is intended, as in the real script.
# shellcheck disable=SC2086
exec "$java" $KAFKA_HEAP_OPTS $KAFKA_JVM_PERFORMANCE_OPTS ${KAFKA_GC_LOG_OPTS:-} $KAFKA_JMX_OPTS \
  $KAFKA_LOG4J_OPTS -cp "$cp" ${KAFKA_OPTS:-} "$@"
