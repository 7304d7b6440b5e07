/* config: the entrypoint's environment, read and checked at once (see config.h). */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mm2_jaas.h"
#include "mm2_env.h"
#include "mm2_parse.h"
#include "podip.h"
#include "restauth.h"

/* At most this much of a (non-secret) bad value is quoted back. */
#define SHOW 120

static const char *const topic_vars[3] = {
    "CONNECT_CONFIG_STORAGE_TOPIC",
    "CONNECT_OFFSET_STORAGE_TOPIC",
    "CONNECT_STATUS_STORAGE_TOPIC",
};

static void read_bootstrap(struct ep_config *cfg, struct mm2_problems *p)
{
    char why[256];

    cfg->bootstrap = mm2_env_required("CONNECT_BOOTSTRAP_SERVERS",
                                      "the TARGET cluster's host:port[,host:port...]", p);
    if (cfg->bootstrap != NULL && *cfg->bootstrap != '\0' &&
        !mm2_parse_hostport_list_valid(cfg->bootstrap, why, sizeof(why)))
        mm2_problems_add(p,
                         "CONNECT_BOOTSTRAP_SERVERS must be a comma-separated host:port list, "
                         "got \"%.*s\": %s",
                         SHOW, cfg->bootstrap, why);
}

static void read_group(struct ep_config *cfg, struct mm2_problems *p)
{
    bool ok;

    cfg->group_id =
        mm2_env_required("CONNECT_GROUP_ID", "the Connect cluster's stable group id", p);
    if (cfg->group_id == NULL || *cfg->group_id == '\0')
        return;
    ok = strlen(cfg->group_id) <= 255;
    for (const char *c = cfg->group_id; ok && *c != '\0'; c++)
        ok = isgraph((unsigned char)*c);
    if (!ok)
        mm2_problems_add(p,
                         "CONNECT_GROUP_ID must be 1-255 printable characters without spaces, "
                         "got \"%.*s\"",
                         SHOW, cfg->group_id);
}

static void read_topics(struct ep_config *cfg, struct mm2_problems *p)
{
    char why[256];
    bool valid[3] = {false, false, false};

    for (int i = 0; i < 3; i++) {
        cfg->topics[i] = mm2_env_required(topic_vars[i], "a Kafka topic name", p);
        if (cfg->topics[i] == NULL || *cfg->topics[i] == '\0')
            continue;
        if (!mm2_parse_topic_valid(cfg->topics[i], why, sizeof(why)))
            mm2_problems_add(p, "%s must be a valid Kafka topic name, got \"%.*s\": %s",
                             topic_vars[i], SHOW, cfg->topics[i], why);
        else
            valid[i] = true;
    }
    /* Two internal stores in one topic corrupt each other (KafkaConfigBackingStore,
     * KafkaOffsetBackingStore and KafkaStatusBackingStore each read the whole topic as theirs). */
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (valid[i] && valid[j] && strcmp(cfg->topics[i], cfg->topics[j]) == 0)
                mm2_problems_add(p, "%s and %s must name different topics, both are \"%s\"",
                                 topic_vars[i], topic_vars[j], cfg->topics[i]);
}

/* The worker config's sasl.mechanism decides which login module the JAAS
 * entry must name (the SCRAM profile: ScramLoginModule). */
static void read_jaas(struct ep_config *cfg, struct mm2_problems *p)
{
    char cls[256], why[256], expected[400];
    const char *mech =
        cfg->workercfg.jaas_mechanism[0] != '\0' ? cfg->workercfg.jaas_mechanism : "PLAIN";
    const char *needed = workercfg_module_for(mech);
    const char *module =
        needed != NULL ? needed : "org.apache.kafka.common.security.plain.PlainLoginModule";

    (void)snprintf(expected, sizeof(expected),
                   "a JAAS entry such as %s required username=\"...\" password=\"...\";", module);
    cfg->jaas = mm2_env_required("CONNECT_SASL_JAAS_CONFIG", expected, p);
    if (cfg->jaas == NULL || *cfg->jaas == '\0')
        return;
    switch (mm2_jaas_check(cfg->jaas, cls, sizeof(cls), why, sizeof(why))) {
    case MM2_JAAS_OK:
        break;
    case MM2_JAAS_MALFORMED:
        mm2_problems_add(p,
                         "CONNECT_SASL_JAAS_CONFIG must be one JAAS login module entry "
                         "'<LoginModule> required key=\"value\"...;', but %s (value not shown)",
                         why);
        return;
    case MM2_JAAS_REFUSED:
        mm2_problems_add(p, "CONNECT_SASL_JAAS_CONFIG is refused: %s; use %s (value not shown)",
                         why, module);
        return;
    }
    /* A PLAIN login on a SCRAM listener (or the reverse) fails at the broker
     * with an authentication error that does not say which side is wrong. */
    if (needed != NULL && strcmp(cls, needed) != 0)
        mm2_problems_add(p,
                         "CONNECT_SASL_JAAS_CONFIG names %s, but MM2_WORKER_CONFIG=%.*s uses "
                         "sasl.mechanism=%s, which needs %s; set CONNECT_SASL_JAAS_CONFIG to '%s "
                         "required username=\"...\" password=\"...\";' or choose the profile "
                         "of your mechanism (value not shown)",
                         cls, SHOW, cfg->worker_config, mech, needed, needed);
}

static void read_pod_ip(struct ep_config *cfg, struct mm2_problems *p)
{
    char why[256] = "";
    int family = 0;

    cfg->pod_ip =
        mm2_env_required("POD_IP", "this pod's IP address (Downward API fieldRef status.podIP)", p);
    if (cfg->pod_ip == NULL || *cfg->pod_ip == '\0')
        return;
    switch (podip_check(cfg->pod_ip, &family, why, sizeof(why))) {
    case PODIP_OK:
        break;
    case PODIP_MALFORMED:
        mm2_problems_add(p, "POD_IP must be an IPv4 or IPv6 address of this host, got \"%.*s\"",
                         SHOW, cfg->pod_ip);
        break;
    case PODIP_WILDCARD:
        mm2_problems_add(p,
                         "POD_IP must be this pod's own address, not the wildcard \"%s\": other "
                         "workers forward requests to it",
                         cfg->pod_ip);
        break;
    case PODIP_NOT_LOCAL:
        mm2_problems_add(p,
                         "POD_IP must be an address of this host, got \"%.*s\", which no "
                         "interface has; set it from the Downward API (status.podIP)",
                         SHOW, cfg->pod_ip);
        break;
    case PODIP_UNKNOWN:
        mm2_problems_add(p, "POD_IP \"%.*s\" could not be checked: %s", SHOW, cfg->pod_ip, why);
        break;
    }
}

static int read_port(const char *name, int dflt, int *defaulted, struct mm2_problems *p)
{
    const char *v = mm2_env_get(name);
    int port = 0;

    if (v == NULL) {
        if (defaulted != NULL)
            *defaulted = 1;
        return dflt;
    }
    if (mm2_parse_port(v, &port) != 0) {
        mm2_problems_add(p, "%s must be a port number from 1 to 65535, got \"%.*s\"", name, SHOW,
                         v);
        return -1;
    }
    return port;
}

static void read_ports(struct ep_config *cfg, struct mm2_problems *p)
{
    cfg->rest_port =
        read_port("CONNECT_REST_PORT", EP_DEFAULT_REST_PORT, &cfg->rest_port_defaulted, p);
    cfg->jmx_port = read_port("JMX_EXPORTER_PORT", 0, NULL, p);
    if (cfg->jmx_port > 0 && cfg->jmx_port == cfg->rest_port)
        mm2_problems_add(p, "JMX_EXPORTER_PORT must differ from CONNECT_REST_PORT, both are %d",
                         cfg->rest_port);
}

static void read_rebalance_delay(struct ep_config *cfg, struct mm2_problems *p)
{
    const char *v = mm2_env_get("CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS");
    long ms = 0;

    if (v == NULL) {
        cfg->rebalance_delay_ms = EP_DEFAULT_REBALANCE_DELAY_MS;
        cfg->rebalance_delay_defaulted = 1;
        return;
    }
    if (mm2_parse_long(v, 0, 2147483647L, &ms) != 0) {
        mm2_problems_add(p,
                         "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS must be milliseconds from 0 "
                         "to 2147483647, got \"%.*s\"",
                         SHOW, v);
        return;
    }
    cfg->rebalance_delay_ms = ms;
}

/* The major version of a Kafka version ("4" of "4.1.0", 0 to 99), or 0 when it has none. */
static int major_of(const char *version)
{
    size_t mlen = strcspn(version, ".");
    char majs[8];
    long major = 0;

    if (mlen == 0 || mlen >= sizeof(majs))
        return 0;
    memcpy(majs, version, mlen);
    majs[mlen] = '\0';
    return mm2_parse_long(majs, 0, 99, &major) == 0 ? (int)major : 0;
}

/* The Kafka version, from libs/kafka-clients-<version>.jar (cfg->kafka_major stays 0 when the
 * jar is not there). */
static void find_kafka_version(struct ep_config *cfg)
{
    static const char prefix[] = "kafka-clients-";
    char libs[PATH_MAX];
    const struct dirent *e;
    DIR *d;

    if (snprintf(libs, sizeof(libs), "%s/libs", cfg->kafka_home) >= (int)sizeof(libs))
        return;
    d = opendir(libs);
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        const char *ver;
        size_t vlen;
        if (strncmp(e->d_name, prefix, sizeof(prefix) - 1) != 0 || n < sizeof(prefix) + 4 ||
            strcmp(e->d_name + n - 4, ".jar") != 0)
            continue;
        ver = e->d_name + sizeof(prefix) - 1;
        vlen = n - (sizeof(prefix) - 1) - 4;
        if (!isdigit((unsigned char)ver[0]) || vlen >= sizeof(cfg->kafka_version) ||
            memchr(ver, '-', vlen) != NULL) /* kafka-clients-4.1.0-test.jar */
            continue;
        memcpy(cfg->kafka_version, ver, vlen);
        cfg->kafka_version[vlen] = '\0';
        cfg->kafka_major = major_of(cfg->kafka_version);
        break;
    }
    closedir(d);
}

static void read_paths(struct ep_config *cfg, struct mm2_problems *p)
{
    const char *log;

    cfg->kafka_home = mm2_env_optional("KAFKA_HOME", EP_DEFAULT_KAFKA_HOME);
    cfg->worker_config = mm2_env_optional("MM2_WORKER_CONFIG", EP_DEFAULT_WORKER_CONFIG);
    cfg->jmx_agent = mm2_env_optional("JMX_EXPORTER_AGENT", EP_DEFAULT_JMX_AGENT);
    cfg->jmx_config = mm2_env_optional("JMX_EXPORTER_CONFIG", EP_DEFAULT_JMX_CONFIG);
    cfg->heap_opts = mm2_env_get("KAFKA_HEAP_OPTS");
    cfg->rest_jaas = mm2_env_optional("MM2_REST_JAAS_CONFIG", RESTAUTH_DEFAULT_JAAS);
    if (*cfg->kafka_home != '/') {
        mm2_problems_add(p, "KAFKA_HOME must be an absolute path, got \"%.*s\"", SHOW,
                         cfg->kafka_home);
        return;
    }
    if (snprintf(cfg->launcher, sizeof(cfg->launcher), "%s/bin/connect-distributed.sh",
                 cfg->kafka_home) >= (int)sizeof(cfg->launcher))
        mm2_problems_add(p, "KAFKA_HOME is longer than %d bytes", PATH_MAX - 32);

    find_kafka_version(cfg);
    log = mm2_env_get("MM2_LOG_CONFIG");
    if (cfg->kafka_major == 0 && log == NULL) {
        mm2_problems_add(p,
                         "KAFKA_HOME=%.*s holds no libs/kafka-clients-<version>.jar, so the log "
                         "configuration cannot be chosen; point KAFKA_HOME at a Kafka "
                         "distribution or set MM2_LOG_CONFIG",
                         SHOW, cfg->kafka_home);
        return;
    }
    /* Kafka 4.0 moved to log4j2 (KIP-653); 3.x reads log4j 1 syntax. */
    if (log != NULL) {
        size_t n = strlen(log);
        cfg->log4j2 = !(n > 11 && strcmp(log + n - 11, ".properties") == 0);
    } else {
        cfg->log4j2 = cfg->kafka_major >= 4;
        log = cfg->log4j2 ? EP_DEFAULT_LOG4J2_CONFIG : EP_DEFAULT_LOG4J1_CONFIG;
    }
    if (snprintf(cfg->log_config, sizeof(cfg->log_config), "%s", log) >=
        (int)sizeof(cfg->log_config))
        mm2_problems_add(p, "MM2_LOG_CONFIG is longer than %d bytes", PATH_MAX - 1);
}

static void check_readable(const char *var, const char *path, const char *what,
                           struct mm2_problems *p)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

    if (fd < 0) {
        mm2_problems_add(p, "%s=%.*s: cannot read %s: %s", var, SHOW, path, what, strerror(errno));
        return;
    }
    close(fd);
}

void ep_config_check_files(const struct ep_config *cfg, struct mm2_problems *p)
{
    check_readable("MM2_WORKER_CONFIG", cfg->worker_config, "the worker configuration", p);
    workercfg_check_files(&cfg->workercfg, p);
    if (cfg->workercfg.rest_basic_auth)
        restauth_check(cfg->rest_jaas, p);
    if (cfg->log_config[0] != '\0')
        check_readable("MM2_LOG_CONFIG", cfg->log_config, "the log configuration", p);
    if (cfg->jmx_port > 0) {
        /* JMX_EXPORTER_PORT set and no agent is a refusal, not a
         * worker silently started without metrics. */
        check_readable("JMX_EXPORTER_AGENT", cfg->jmx_agent,
                       "the JMX exporter agent (JMX_EXPORTER_PORT is set)", p);
        check_readable("JMX_EXPORTER_CONFIG", cfg->jmx_config,
                       "the JMX exporter rules (JMX_EXPORTER_PORT is set)", p);
    }
}

/* REST authentication as the worker config asks for it (restauth.h); a JAAS file given for a
 * worker config that does not ask is a mistake that would leave REST open. */
static void read_rest_auth(const struct ep_config *cfg, struct mm2_problems *p)
{
    if (!cfg->workercfg.read)
        return;
    if (!cfg->workercfg.rest_basic_auth) {
        if (mm2_env_get("MM2_REST_JAAS_CONFIG") != NULL)
            mm2_problems_add(p,
                             "MM2_REST_JAAS_CONFIG is set, but MM2_WORKER_CONFIG=%.*s does not "
                             "name " RESTAUTH_EXTENSION " in rest.extension.classes, so REST "
                             "would stay unauthenticated; use a profile that does",
                             SHOW, cfg->worker_config);
        return;
    }
    if (cfg->workercfg.admin_listener)
        mm2_problems_add(p,
                         "MM2_WORKER_CONFIG=%.*s sets admin.listeners, whose resources Connect "
                         "serves without the REST authentication filter; leave it unset",
                         SHOW, cfg->worker_config);
    restauth_check(cfg->rest_jaas, p);
}

/* What the worker config names: its ${env:} variables and TLS stores. */
static void read_worker_config(struct ep_config *cfg, struct mm2_problems *p)
{
    /* Checked with their expected form by the functions above. */
    static const char *const elsewhere[] = {
        "CONNECT_BOOTSTRAP_SERVERS",
        "CONNECT_GROUP_ID",
        "CONNECT_CONFIG_STORAGE_TOPIC",
        "CONNECT_OFFSET_STORAGE_TOPIC",
        "CONNECT_STATUS_STORAGE_TOPIC",
        "CONNECT_SASL_JAAS_CONFIG",
        "POD_IP",
        NULL,
    };
    /* Exported by launch.c when unset. */
    static const char *const defaulted[] = {"CONNECT_REST_PORT",
                                            "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS", NULL};

    workercfg_read(&cfg->workercfg, cfg->worker_config, elsewhere, defaulted, p);
    read_rest_auth(cfg, p);
}

void ep_config_read(struct ep_config *cfg, struct mm2_problems *p)
{
    memset(cfg, 0, sizeof(*cfg));
    read_bootstrap(cfg, p);
    read_group(cfg, p);
    read_topics(cfg, p);
    read_pod_ip(cfg, p);
    read_ports(cfg, p);
    read_rebalance_delay(cfg, p);
    read_paths(cfg, p);
    ep_config_check_files(cfg, p);
    read_worker_config(cfg, p);
    /* An unreadable worker config is said above; the JAAS entry is then
     * checked as the default profile needs it. */
    if (cfg->workercfg.uses_jaas || !cfg->workercfg.read)
        read_jaas(cfg, p);
}
