/*
 * config: the entrypoint's whole environment, read and validated at once (docs/ARCHITECTURE.md
 * §3.2), with the worker config it names (workercfg.h) and the files the launch needs.
 *
 * Contract:
 *   - Never prints, never exits. Every problem is added to a struct mm2_problems, one line each
 *     naming the variable and the expected form, so a pod that is wrong in three ways says so in
 *     one start.
 *   - CONNECT_SASL_JAAS_CONFIG is a secret: it is kept by pointer into the environment and never
 *     copied into a message. Other bad values are quoted back, cut where they can be long.
 *   - struct ep_config's strings point into the environment (nothing to free); the rest it holds
 *     by value.
 *   - The EP_DEFAULT_* and EP_RUN_* values are what the image and the manifests assume;
 *     tests/k8s/consistency.py reads them here and checks k8s/ against them.
 */
#ifndef MM2_ENTRYPOINT_CONFIG_H
#define MM2_ENTRYPOINT_CONFIG_H

#include <limits.h>

#include "mm2_problems.h"
#include "workercfg.h"

#define EP_DEFAULT_REST_PORT 8088
#define EP_DEFAULT_KAFKA_HOME "/opt/kafka"
#define EP_DEFAULT_WORKER_CONFIG "/etc/mm2/connect-mm2.properties"
#define EP_DEFAULT_LOG4J2_CONFIG "/etc/mm2/connect-log4j2.yaml"
#define EP_DEFAULT_LOG4J1_CONFIG "/etc/mm2/connect-log4j.properties"
#define EP_DEFAULT_JMX_AGENT "/opt/jmx-exporter/jmx_prometheus_javaagent.jar"
#define EP_DEFAULT_JMX_CONFIG "/etc/mm2/jmx-exporter.yaml"
/* scheduled.rebalance.max.delay.ms shipped by the image: measured by make
 * rehearsal, a departed worker's partitions stop for about this long plus 2 s
 * (Kafka's default, 300000 in DistributedConfig, stops them for 5 minutes); docker/mm2/README.md
 * has the figures and the reasoning. */
#define EP_DEFAULT_REBALANCE_DELAY_MS 10000L
#define EP_RUN_UID 10001
#define EP_RUN_GID 10001

struct ep_config {
    /* Pointers into the environment (never freed). */
    const char *bootstrap;
    const char *group_id;
    const char *topics[3]; /* config, offset, status */
    const char *jaas;      /* secret */
    const char *pod_ip;
    const char *kafka_home;
    const char *worker_config;
    const char *jmx_agent;
    const char *jmx_config;
    const char *heap_opts; /* KAFKA_HEAP_OPTS as given, or NULL */
    const char *rest_jaas; /* MM2_REST_JAAS_CONFIG: used when the worker config asks for REST
                              authentication (restauth.h) */
    int rest_port;
    int rest_port_defaulted;
    int jmx_port; /* 0: JMX exporter off */
    long rebalance_delay_ms;
    int rebalance_delay_defaulted;
    int kafka_major; /* 0 when unknown */
    char kafka_version[32];
    char log_config[PATH_MAX];
    int log4j2; /* 1: log4j2 syntax (Kafka >= 4), 0: log4j 1 */
    char launcher[PATH_MAX];
    struct workercfg workercfg; /* what MM2_WORKER_CONFIG uses (workercfg.h) */
};

/* Reads every variable, checks each, and adds one line per problem to p. cfg is filled as far as
 * the values allow; use it only when p->n == 0. */
void ep_config_read(struct ep_config *cfg, struct mm2_problems *p);

/* Checks that the files the launch needs can be opened for reading by the current user, the
 * worker config's TLS stores too (run again after privileges are dropped). */
void ep_config_check_files(const struct ep_config *cfg, struct mm2_problems *p);

#endif
