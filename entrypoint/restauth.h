/*
 * restauth: the REST API's authentication, when the worker config asks for it by naming Kafka's
 * BasicAuthSecurityRestExtension in rest.extension.classes (docker/mm2/README.md, "REST
 * authentication"). Kafka's own behaviour makes three mistakes silent, so the entrypoint refuses
 * them before Connect starts:
 *   - the JAAS file (MM2_REST_JAAS_CONFIG, a Secret mount) unreadable, or without a KafkaConnect
 *     entry: every request is then refused with 401, the probes' too;
 *   - that entry's login module not PropertyFileLoginModule (the only one the image ships), or
 *     without its file="..." option;
 *   - the credentials file it names (a Secret mount) unreadable, or holding no user: an empty
 *     file makes PropertyFileLoginModule admit EVERY request; a user with an empty password
 *     admits anyone who sends that user name.
 * And admin.listeners set to a listener of its own: Connect serves the admin resources there
 * without the extension's filter (RestServer.initializeResources).
 *
 * Contract:
 *   - Never prints, never exits. Every finding is one line added to a struct mm2_problems.
 *   - Never quotes the files' contents: no user name, no password, no JAAS option value; only
 *     paths, the entry's name and the class names the image ships.
 *   - Writes nothing: both files are mounted; the entrypoint passes only the JAAS file's path to
 *     the JVM (-Djava.security.auth.login.config, in KAFKA_OPTS).
 */
#ifndef MM2_ENTRYPOINT_RESTAUTH_H
#define MM2_ENTRYPOINT_RESTAUTH_H

#include <limits.h>
#include <stdbool.h>

#include "mm2_problems.h"

#define RESTAUTH_EXTENSION                                                                         \
    "org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension"
#define RESTAUTH_MODULE "org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule"
#define RESTAUTH_DEFAULT_JAAS "/etc/mm2/rest-auth/jaas.conf"
#define RESTAUTH_JAAS_MAX (64 * 1024)

/* Checks jaas_path (the value of MM2_REST_JAAS_CONFIG) and the credentials file its KafkaConnect
 * entry names, adding one problem per finding to p. Run it again after the drop to 10001:
 * readable as root proves nothing. */
void restauth_check(const char *jaas_path, struct mm2_problems *p);

#endif
