/*
 * jaas: the shape check of a JAAS configuration entry, as Kafka's sasl.jaas.config takes it:
 * exactly one login module, `<Class> <flag> [key=value]... ;`.
 *
 * Contract:
 *   - Never prints, never exits, allocates nothing.
 *   - The value is a secret. Nothing here copies it into a message: on failure `why` gets a
 *     reason that names positions and login-module classes only (a class name is not secret),
 *     never option values.
 *   - JNDI and LDAP login modules and any jndi: or ldap: lookup are refused (JAAS_REFUSED), not
 *     merely malformed.
 */
#ifndef MM2_ENTRYPOINT_JAAS_H
#define MM2_ENTRYPOINT_JAAS_H

#include <stddef.h>

enum jaas_verdict {
    JAAS_OK = 0,
    JAAS_MALFORMED, /* not one well-formed login module entry */
    JAAS_REFUSED,   /* a JNDI or LDAP login module, or a jndi:/ldap: lookup */
};

/* Checks value. Writes the login module class (at most classlen - 1 bytes) into cls when one
 * could be read, and a reason into why when the verdict is not JAAS_OK. */
enum jaas_verdict jaas_check(const char *value, char *cls, size_t classlen, char *why,
                             size_t whylen);

#endif
