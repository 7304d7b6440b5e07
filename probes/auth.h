/*
 * auth: mm2-probe's REST credentials, for a worker whose REST API runs Kafka's basic-auth
 * extension (docker/mm2/README.md, "REST authentication"). The user name is an option; the
 * password never is: it comes from a file (a Secret mounted in the worker's container) or from an
 * environment variable, each named by an option, so it never shows in argv (the kubelet's exec
 * probe command, ps).
 *
 * Contract:
 *   - Never prints, never exits. Errors fill err without the password.
 *   - The password is read whole within MM2_HTTP_PASSWORD_MAX - 1 bytes; one trailing newline
 *     ("\n" or "\r\n", what `echo` or an editor leaves) is dropped, any other control character
 *     is refused. An empty password, an unreadable file, an unset or empty variable: MM2_CONFIG.
 *   - *password is malloc'd (free it after the client is freed); the caller registers it with
 *     mm2_log_add_secret before anything is logged.
 */
#ifndef PROBE_AUTH_H
#define PROBE_AUTH_H

#include "mm2_err.h"

/* The password from the file at path (file != NULL) or the variable var. */
enum mm2_status probe_auth_password(const char *file, const char *var, char **password,
                                    struct mm2_error *err);

#endif
