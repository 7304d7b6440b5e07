/*
 * harden: the JVM system properties that close Kafka's known paths from a connector config to
 * code execution or file and network reads (docker/mm2/README.md, "Escape hatches closed"), for
 * the Kafka version the image runs. Each is set only for the versions whose clients read it
 * (checked against each version's kafka-clients jar):
 *   org.apache.kafka.disallowed.login.modules   every version (3.4+): the JNDI and LDAP modules
 *                                                (CVE-2023-25194; 3.x refuses only JNDI)
 *   org.apache.kafka.allowed.login.modules      4.2+: only PLAIN and SCRAM, what the profiles use
 *   org.apache.kafka.automatic.config.providers 3.7.1+: only EnvVarConfigProvider, which the
 *                                                worker config needs (CVE-2024-31141)
 *   org.apache.kafka.sasl.oauthbearer.allowed.urls  3.9.1+: none (CVE-2025-27817)
 *   org.apache.kafka.sasl.oauthbearer.allowed.files 4.1+: none
 * An unknown version gets them all: a property a version does not know is ignored.
 */
#ifndef MM2_ENTRYPOINT_HARDEN_H
#define MM2_ENTRYPOINT_HARDEN_H

#include <stddef.h>

/* Writes the -D options for version ("4.3.1", or "" when unknown) to buf, separated by spaces.
 * Returns the length written, or -1 when buf is too small. */
int harden_opts(const char *version, char *buf, size_t len);

#endif
