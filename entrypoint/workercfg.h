/*
 * workercfg: the worker configuration that MM2_WORKER_CONFIG names, read so the entrypoint checks
 * what that file needs rather than a fixed list (the image ships one file per security profile,
 * docker/mm2/README.md):
 *   - every ${env:NAME} it uses must be allowed by
 *     config.providers.env.param.allowlist.pattern and set: Connect leaves an unresolved
 *     reference as literal text, and says nothing;
 *   - every TLS store it names (ssl.truststore.location, ssl.keystore.location, under any prefix)
 *     must be readable, and a PEM of the right kind: a truststore of certificates, a keystore with
 *     one PKCS#8 private key and its certificate, ssl.key.password set exactly when that key is
 *     encrypted (Kafka's DefaultSslEngineFactory.PemStore); a PKCS12 or JKS store must at least
 *     be one;
 *   - sasl.mechanism and the login module of its sasl.jaas.config agree (PLAIN:
 *     PlainLoginModule, SCRAM-SHA-256/512: ScramLoginModule);
 *   - whether it asks for REST authentication (rest.extension.classes), which restauth.h checks,
 *     and whether admin.listeners would serve the admin resources outside it.
 *
 * Contract:
 *   - Never prints, never exits. Every finding is one line added to a struct mm2_problems.
 *   - Values are never quoted back: any of them may be a secret. Keys and paths are.
 *   - struct workercfg holds what it keeps by value; the file's text is freed before
 *     workercfg_read returns. workercfg_read keeps that text in static storage: one call at a
 *     time (the entrypoint makes one).
 */
#ifndef MM2_ENTRYPOINT_WORKERCFG_H
#define MM2_ENTRYPOINT_WORKERCFG_H

#include <limits.h>
#include <stdbool.h>

#include "mm2_problems.h"

#define WORKERCFG_MAX_FILES 16

struct workercfg_file {
    char key[128];       /* the property naming it, e.g. producer.ssl.truststore.location */
    char path[PATH_MAX]; /* resolved (${env:X} replaced) */
    int kind;            /* enum in workercfg.c */
    bool key_password;   /* <prefix>ssl.key.password is set */
};

struct workercfg {
    bool read;               /* the file was read */
    bool uses_jaas;          /* ${env:CONNECT_SASL_JAAS_CONFIG} is referenced */
    char jaas_mechanism[32]; /* sasl.mechanism of the first key using it, or "" */
    bool rest_basic_auth;    /* rest.extension.classes names BasicAuthSecurityRestExtension */
    bool admin_listener;     /* admin.listeners names a listener: unfiltered by the extension */
    size_t nfiles;
    struct workercfg_file files[WORKERCFG_MAX_FILES];
};

/* Reads path and adds one problem per finding to p. Variables in checked_elsewhere
 * (NULL-terminated) are not reported as unset here; those in defaulted are exported by the
 * entrypoint when unset. */
void workercfg_read(struct workercfg *w, const char *path, const char *const *checked_elsewhere,
                    const char *const *defaulted, struct mm2_problems *p);

/* The TLS files again (after the drop to 10001: readable as root proves nothing). */
void workercfg_check_files(const struct workercfg *w, struct mm2_problems *p);

/* The login module class a SASL mechanism needs, or NULL when any will do. */
const char *workercfg_module_for(const char *mechanism);

#endif
