#!/usr/bin/env bash
# Baseline for bench/entrypoint: the same checks mm2-entrypoint makes, written
# the usual way as a shell entrypoint (a docker-entrypoint.sh), then
# exec of the same launcher.  Not used by the product.
set -u
problems=0
err() { printf 'baseline: error: %s\n' "$*" >&2; problems=$((problems + 1)); }
need() { [ -n "${!1:-}" ] || err "$1 is not set"; }
for v in CONNECT_BOOTSTRAP_SERVERS CONNECT_GROUP_ID CONNECT_CONFIG_STORAGE_TOPIC \
  CONNECT_OFFSET_STORAGE_TOPIC CONNECT_STATUS_STORAGE_TOPIC CONNECT_SASL_JAAS_CONFIG POD_IP; do
  need "$v"
done
hp='^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}$'
IFS=, read -r -a entries <<<"${CONNECT_BOOTSTRAP_SERVERS:-}"
for e in "${entries[@]}"; do [[ $e =~ $hp ]] || err "bad bootstrap entry $e"; done
for v in CONNECT_CONFIG_STORAGE_TOPIC CONNECT_OFFSET_STORAGE_TOPIC CONNECT_STATUS_STORAGE_TOPIC; do
  [[ ${!v:-} =~ ^[A-Za-z0-9._-]{1,249}$ ]] || err "$v is not a topic name"
done
[ "${CONNECT_CONFIG_STORAGE_TOPIC:-}" != "${CONNECT_OFFSET_STORAGE_TOPIC:-}" ] || err "same topic"
[ "${CONNECT_OFFSET_STORAGE_TOPIC:-}" != "${CONNECT_STATUS_STORAGE_TOPIC:-}" ] || err "same topic"
[[ ${CONNECT_SASL_JAAS_CONFIG:-} =~ ^[A-Za-z_.$]+\ +(required|requisite|sufficient|optional)(\ +[A-Za-z_.-]+=(\"[^\"]*\"|[^\ \;]+))*\ *\;$ ]] ||
  err "CONNECT_SASL_JAAS_CONFIG malformed"
case "${CONNECT_SASL_JAAS_CONFIG:-}" in *JndiLoginModule* | *LdapLoginModule* | *jndi:* | *ldap:*) err "refused" ;; esac
port=${CONNECT_REST_PORT:-8088}
if ! [[ $port =~ ^[0-9]{1,5}$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then err "bad port"; fi
# The address must be this host's: one fork of ip(8), as such scripts do.
case "${POD_IP:-}" in
  127.*) ;;
  *) ip -o addr show | grep -qF " ${POD_IP:-x}/" || err "POD_IP is not an address of this host" ;;
esac
home=${KAFKA_HOME:-/opt/kafka}
[ -r "${MM2_WORKER_CONFIG:-/etc/mm2/connect-mm2.properties}" ] || err "worker config unreadable"
[ -r "${MM2_LOG_CONFIG:-x}" ] || err "log config unreadable"
ls "$home"/libs/kafka-clients-*.jar >/dev/null 2>&1 || err "no kafka-clients jar"
[ "$problems" -eq 0 ] || exit 3
export CONNECT_REST_PORT=$port LOG_DIR=${LOG_DIR:-/tmp}
export KAFKA_HEAP_OPTS=${KAFKA_HEAP_OPTS:--XX:InitialRAMPercentage=25 -XX:MaxRAMPercentage=50}
export KAFKA_LOG4J_OPTS="-Dlog4j2.configurationFile=$MM2_LOG_CONFIG"
exec "$home/bin/connect-distributed.sh" "${MM2_WORKER_CONFIG:-/etc/mm2/connect-mm2.properties}"
