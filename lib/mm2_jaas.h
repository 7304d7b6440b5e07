/*
 * mm2_jaas: the shape check of a JAAS configuration entry, as Kafka's sasl.jaas.config takes
 * it: exactly one login module, `<Class> <flag> [key=value]... ;` (the entrypoint checks
 * CONNECT_SASL_JAAS_CONFIG with it), and one option's value out of it (preflight --workers logs
 * in with the workers' username and password).
 *
 * Contract:
 *   - Never prints, never exits, allocates nothing.
 *   - The value is a secret. Nothing here copies it into a message: on failure `why` gets a
 *     reason that names positions and login-module classes only (a class name is not secret),
 *     never option values.
 *   - JNDI and LDAP login modules and any jndi: or ldap: lookup are refused (MM2_JAAS_REFUSED), not
 *     merely malformed.
 */
#ifndef MM2_JAAS_H
#define MM2_JAAS_H

#include <stddef.h>

enum mm2_jaas_verdict {
    MM2_JAAS_OK = 0,
    MM2_JAAS_MALFORMED, /* not one well-formed login module entry */
    MM2_JAAS_REFUSED,   /* a JNDI or LDAP login module, or a jndi:/ldap: lookup */
};

/* Checks value. Writes the login module class (at most classlen - 1 bytes) into cls when one
 * could be read, and a reason into why when the verdict is not MM2_JAAS_OK. */
enum mm2_jaas_verdict mm2_jaas_check(const char *value, char *cls, size_t classlen, char *why,
                                     size_t whylen);

/* The value of option name (unquoted, escapes undone) of the one well-formed entry value into
 * out (outlen bytes): 0, or -1 when the entry does not pass mm2_jaas_check, has no such option or
 * its value does not fit (out is then all zeros: never a cut secret). The value is a secret when
 * the option is; the caller keeps it out of every message. */
int mm2_jaas_option(const char *value, const char *name, char *out, size_t outlen);

#endif
