/* launch: the exec'd process's argv and environment, and the exec (see launch.h). */
#include "launch.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "harden.h"
#include "mm2_secret.h"

extern char **environ;

static bool name_is(const char *entry, const char *name)
{
    size_t n = strlen(name);

    return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

/* Sets NAME=value in the launch environment, replacing an inherited one. */
static enum mm2_status put(struct launch *l, const char *name, const char *value, const char *why,
                           struct mm2_error *err)
{
    char *slot;

    if (l->nown >= LAUNCH_MAX_CHANGES)
        return mm2_error_set(err, MM2_CONFIG, "internal: more than %d changed variables",
                             LAUNCH_MAX_CHANGES);
    slot = l->own[l->nown];
    if (snprintf(slot, sizeof(l->own[0]), "%s=%s", name, value) >= (int)sizeof(l->own[0]))
        return mm2_error_set(err, MM2_CONFIG, "%s would be longer than %zu bytes", name,
                             sizeof(l->own[0]) - 1);
    l->why[l->nown++] = why;
    for (size_t i = 0; i < l->nenv; i++)
        if (name_is(l->envp[i], name)) {
            l->envp[i] = slot;
            return MM2_OK;
        }
    if (l->nenv >= LAUNCH_MAX_ENV)
        return mm2_error_set(err, MM2_CONFIG, "the environment has more than %d variables",
                             LAUNCH_MAX_ENV);
    l->envp[l->nenv++] = slot;
    l->envp[l->nenv] = NULL;
    return MM2_OK;
}

static const char *inherited(const struct launch *l, const char *name)
{
    for (size_t i = 0; i < l->nenv; i++)
        if (name_is(l->envp[i], name))
            return l->envp[i] + strlen(name) + 1;
    return NULL;
}

/* The entrypoint's own environment, which the launch starts from. */
static enum mm2_status inherit(struct launch *l, struct mm2_error *err)
{
    for (char **e = environ; e != NULL && *e != NULL; e++) {
        if (l->nenv >= LAUNCH_MAX_ENV)
            return mm2_error_set(err, MM2_CONFIG, "the environment has more than %d variables",
                                 LAUNCH_MAX_ENV);
        l->envp[l->nenv++] = *e;
    }
    l->envp[l->nenv] = NULL;
    return MM2_OK;
}

/* Connect leaves an unset ${env:X} as literal text, so every variable the worker config
 * references gets its default here (docs/ARCHITECTURE.md §3.1, §4.3), and so do the heap and
 * the log directory. */
static enum mm2_status put_defaults(struct launch *l, const struct ep_config *cfg,
                                    struct mm2_error *err)
{
    char buf[32];
    enum mm2_status st = MM2_OK;

    if (cfg->rest_port_defaulted) {
        (void)snprintf(buf, sizeof(buf), "%d", cfg->rest_port);
        st = put(l, "CONNECT_REST_PORT", buf, "default", err);
    }
    if (st == MM2_OK && cfg->rebalance_delay_defaulted) {
        (void)snprintf(buf, sizeof(buf), "%ld", cfg->rebalance_delay_ms);
        st = put(l, "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS", buf, "image default", err);
    }
    /* The stock script's -Xmx2G ignores the pod's memory limit: size the
     * heap from the cgroup limit instead, unless the operator chose. */
    if (st == MM2_OK && cfg->heap_opts == NULL)
        st = put(l, "KAFKA_HEAP_OPTS", "-XX:InitialRAMPercentage=25 -XX:MaxRAMPercentage=50",
                 "heap from the memory limit", err);
    /* kafka-run-class.sh does mkdir -p $LOG_DIR: only /tmp is writable. */
    if (st == MM2_OK && inherited(l, "LOG_DIR") == NULL)
        st = put(l, "LOG_DIR", "/tmp", "default", err);
    return st;
}

/* The log configuration, logging to stdout only, unless KAFKA_LOG4J_OPTS is set. */
static enum mm2_status put_log4j(struct launch *l, const struct ep_config *cfg,
                                 struct mm2_error *err)
{
    char buf[PATH_MAX + 128];

    if (inherited(l, "KAFKA_LOG4J_OPTS") != NULL)
        return MM2_OK;
    if (cfg->log4j2)
        (void)snprintf(buf, sizeof(buf), "-Dlog4j2.configurationFile=%s", cfg->log_config);
    else
        (void)snprintf(buf, sizeof(buf), "-Dlog4j.configuration=file:%s", cfg->log_config);
    return put(l, "KAFKA_LOG4J_OPTS", buf,
               cfg->log4j2 ? "stdout only, log4j2 (Kafka >= 4)" : "stdout only, log4j 1 (Kafka 3)",
               err);
}

/* The system properties that close Kafka's escape hatches (harden.h), the JAAS file of REST
 * authentication (restauth.h) and the JMX agent go into this process's KAFKA_OPTS only, after
 * what the pod set: Java keeps the last -D given, so the pod cannot reopen them. (A pod-wide
 * KAFKA_OPTS would also make every Kafka CLI tool in the pod bind the JMX port.) */
static enum mm2_status put_kafka_opts(struct launch *l, const struct ep_config *cfg,
                                      struct mm2_error *err)
{
    char buf[3 * PATH_MAX + 1024];
    char hard[768];
    const char *opts;
    bool auth = cfg->workercfg.rest_basic_auth, jmx = cfg->jmx_port > 0;
    int n;

    if (harden_opts(cfg->kafka_version, hard, sizeof(hard)) < 0)
        return mm2_error_set(err, MM2_CONFIG, "the hardening options do not fit %zu bytes",
                             sizeof(hard) - 1);
    opts = inherited(l, "KAFKA_OPTS");
    n = snprintf(buf, sizeof(buf), "%s%s%s%s%s", opts != NULL ? opts : "",
                 opts != NULL && *opts != '\0' ? " " : "", hard,
                 auth ? " -Djava.security.auth.login.config=" : "", auth ? cfg->rest_jaas : "");
    if (n >= 0 && n < (int)sizeof(buf) && jmx)
        n += snprintf(buf + n, sizeof(buf) - (size_t)n, " -javaagent:%s=%d:%s", cfg->jmx_agent,
                      cfg->jmx_port, cfg->jmx_config);
    if (n < 0 || n >= (int)sizeof(buf))
        return mm2_error_set(err, MM2_CONFIG, "KAFKA_OPTS would be longer than %zu bytes",
                             sizeof(buf) - 1);
    return put(l, "KAFKA_OPTS", buf,
               auth && jmx ? "Kafka's escape hatches closed, REST authentication's JAAS file, "
                             "JMX exporter agent"
               : auth      ? "Kafka's escape hatches closed, REST authentication's JAAS file"
               : jmx       ? "Kafka's escape hatches closed, JMX exporter agent"
                           : "Kafka's escape hatches closed",
               err);
}

enum mm2_status launch_build(struct launch *l, const struct ep_config *cfg, struct mm2_error *err)
{
    enum mm2_status st;

    memset(l, 0, sizeof(*l));
    st = inherit(l, err);
    if (st == MM2_OK)
        st = put_defaults(l, cfg, err);
    if (st == MM2_OK)
        st = put_log4j(l, cfg, err);
    if (st == MM2_OK)
        st = put_kafka_opts(l, cfg, err);
    if (st != MM2_OK)
        return st;
    l->argv[0] = (char *)cfg->launcher;
    l->argv[1] = (char *)cfg->worker_config;
    l->argv[2] = NULL;
    return MM2_OK;
}

void launch_print(const struct launch *l, const struct ep_config *cfg, FILE *out)
{
    fprintf(out, "exec: %s %s\n", l->argv[0], l->argv[1]);
    fprintf(out, "kafka: %s (%s)\n", cfg->kafka_version[0] != '\0' ? cfg->kafka_version : "unknown",
            cfg->kafka_home);
    fprintf(out, "advertised: http://%s%s%s:%d\n", strchr(cfg->pod_ip, ':') != NULL ? "[" : "",
            cfg->pod_ip, strchr(cfg->pod_ip, ':') != NULL ? "]" : "", cfg->rest_port);
    fprintf(out, "user: %u:%u\n", (unsigned)EP_RUN_UID, (unsigned)EP_RUN_GID);
    fprintf(out, "jmx-exporter: %s\n", cfg->jmx_port > 0 ? "on" : "off");
    fprintf(out, "rest-auth: %s\n", cfg->workercfg.rest_basic_auth ? "basic" : "off");
    for (size_t i = 0; i < l->nown; i++) {
        const char *e = l->own[i];
        int n = (int)strcspn(e, "=");
        if (mm2_secret_name(e, (size_t)n))
            fprintf(out, "env: %.*s=<redacted> (%s)\n", n, e, l->why[i]);
        else
            fprintf(out, "env: %s (%s)\n", e, l->why[i]);
    }
    fprintf(out, "env: CONNECT_SASL_JAAS_CONFIG=<redacted> (inherited)\n");
}

enum mm2_status launch_exec(const struct launch *l, struct mm2_error *err)
{
    sigset_t none;
    int e;

    /* A blocked or ignored signal survives exec; the JVM must get SIGTERM
     * with the default disposition and an empty mask (tini does the same). */
    (void)sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            (void)signal(s, SIG_DFL);
    (void)execve(l->argv[0], l->argv, l->envp);
    e = errno;
    return mm2_error_set(err, (e == ENOENT || e == ENOTDIR) ? MM2_EXEC_NOTFOUND : MM2_EXEC_NOEXEC,
                         "unable to exec %s: %s", l->argv[0], strerror(e));
}
