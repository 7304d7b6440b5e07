/* jaas: shape check of a JAAS configuration entry, as Kafka's sasl.jaas.config
 * takes it: exactly one login module, `<Class> <flag> [key=value]... ;`.
 *
 * The value is a secret.  Nothing here copies it into a message: on failure
 * `why` gets a reason that names positions and login-module classes only
 * (a class name is not secret), never option values.
 */
#ifndef MM2_ENTRYPOINT_JAAS_H
#define MM2_ENTRYPOINT_JAAS_H

#include <stddef.h>

enum jaas_verdict {
    JAAS_OK = 0,
    JAAS_MALFORMED, /* not one well-formed login module entry */
    JAAS_REFUSED,   /* a JNDI or LDAP login module, or a jndi:/ldap: lookup */
};

/* Checks `value`.  Writes the login module class (at most `classlen` - 1
 * bytes) into `cls` when one could be read, and a reason into `why`. */
enum jaas_verdict jaas_check(const char *value, char *cls, size_t classlen, char *why,
                             size_t whylen);

#endif
