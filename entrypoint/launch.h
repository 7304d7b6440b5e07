/*
 * launch: the exec'd process's argv and environment (docs/ARCHITECTURE.md §3.2). The environment
 * is the entrypoint's own plus the defaults the worker config's ${env:X} references need, the
 * heap and log settings, and the JMX agent in KAFKA_OPTS of this process only.
 *
 * Contract:
 *   - Nothing is written to a file, and this process's own environment is not changed: the
 *     launch's envp points into environ and into its own buffers.
 *   - struct launch is large (LAUNCH_MAX_CHANGES values of PATH_MAX): keep it static.
 *   - Only launch_print prints (to the FILE * it is given); secrets show as <redacted>.
 */
#ifndef MM2_ENTRYPOINT_LAUNCH_H
#define MM2_ENTRYPOINT_LAUNCH_H

#include <stdio.h>

#include "config.h"
#include "mm2_err.h"

#define LAUNCH_MAX_ENV 1024
#define LAUNCH_MAX_CHANGES 16

struct launch {
    char *argv[3];
    char *envp[LAUNCH_MAX_ENV + 1]; /* NULL-terminated; entries point into environ or own */
    size_t nenv;
    /* Variables this launch set or changed, "NAME=value" in own. */
    char own[LAUNCH_MAX_CHANGES][PATH_MAX + 256];
    const char *why[LAUNCH_MAX_CHANGES];
    size_t nown;
};

/* Builds the launch from cfg and the current environment. Returns MM2_OK, or MM2_CONFIG with err
 * set (too many variables, a value too long). */
enum mm2_status launch_build(struct launch *l, const struct ep_config *cfg, struct mm2_error *err);

/* Prints the resolved launch for --check: argv, each change with its reason, the advertised URL.
 * CONNECT_SASL_JAAS_CONFIG and every variable whose name mm2_secret_name calls secret
 * (*PASSWORD*, *SECRET*, *JAAS*, *TOKEN*, ...) shows as <redacted>. */
void launch_print(const struct launch *l, const struct ep_config *cfg, FILE *out);

/* Restores the signal mask and default dispositions, then execve. Returns only on failure:
 * MM2_EXEC_NOTFOUND (ENOENT, ENOTDIR) or MM2_EXEC_NOEXEC, with err naming the file and the
 * reason. */
enum mm2_status launch_exec(const struct launch *l, struct mm2_error *err);

#endif
