/* pfworkers: preflight --workers, with the workers' own credentials (see pfworkers.h). */
#include "pfworkers.h"

#include <stdio.h>
#include <string.h>

#include "clients.h"
#include "mm2_artifact.h"
#include "mm2_env.h"
#include "mm2_jaas.h"
#include "pfread.h"

#define PLAIN_MODULE "org.apache.kafka.common.security.plain.PlainLoginModule"

/* The workers' environment, as the entrypoint takes it. */
struct wenv {
    const char *bootstrap, *group, *jaas;
    const char *topics[3];
    char user[256], password[512], principal[300];
};

/* Reads the environment; every problem on stderr, then 3. */
static int read_env(struct job *j, struct wenv *w)
{
    static const char *const vars[3] = {"CONNECT_CONFIG_STORAGE_TOPIC",
                                        "CONNECT_OFFSET_STORAGE_TOPIC",
                                        "CONNECT_STATUS_STORAGE_TOPIC"};
    struct mm2_problems p = {0};

    w->bootstrap = mm2_env_required("CONNECT_BOOTSTRAP_SERVERS", "host:port[,host:port...]", &p);
    w->group = mm2_env_required("CONNECT_GROUP_ID", "the workers' group.id", &p);
    for (int i = 0; i < 3; i++)
        w->topics[i] = mm2_env_required(vars[i], "the topic name", &p);
    w->jaas = mm2_env_required("CONNECT_SASL_JAAS_CONFIG", PLAIN_MODULE " required ...;", &p);
    if (w->jaas != NULL) {
        char cls[256], why[256];

        (void)mm2_log_add_secret(&j->log, w->jaas);
        if (mm2_jaas_check(w->jaas, cls, sizeof(cls), why, sizeof(why)) != MM2_JAAS_OK)
            mm2_problems_add(&p, "CONNECT_SASL_JAAS_CONFIG: %s", why);
        else if (strcmp(cls, PLAIN_MODULE) != 0)
            mm2_problems_add(&p,
                             "CONNECT_SASL_JAAS_CONFIG: login module %.200s: preflight --workers "
                             "takes the image's default profile (SASL_PLAINTEXT, PLAIN) only",
                             cls);
        else if (mm2_jaas_option(w->jaas, "username", w->user, sizeof(w->user)) != 0 ||
                 mm2_jaas_option(w->jaas, "password", w->password, sizeof(w->password)) != 0)
            mm2_problems_add(&p, "CONNECT_SASL_JAAS_CONFIG: needs username=\"...\" and "
                                 "password=\"...\" (each at most 255 and 511 bytes)");
    }
    if (w->password[0] != '\0')
        (void)mm2_log_add_secret(&j->log, w->password);
    for (size_t i = 0; i < p.n; i++)
        mm2_log_error(&j->log, "%s", p.line[i]);
    if (p.n > 0 || p.dropped > 0)
        return MM2_CONFIG;
    (void)snprintf(w->principal, sizeof(w->principal), "User:%s", w->user);
    return MM2_OK;
}

/* The group: Kafka describes a Connect group's operations to no librdkafka 2.8 client (it
 * refuses any group that is not a consumer group), so only "not even Describe" can be told. */
static void group_finding(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                          const char *group, const struct mm2_kafka_described *d)
{
    struct mm2_pf_auth a = job_pf_auth(d);

    if (a.seen == MM2_PF_SEEN_UNANSWERED) {
        char res[300];
        (void)snprintf(res, sizeof(res), "Group:%s", group);
        mm2_pf_add(f, "acl", MM2_PF_WARN, who->principal, res, NULL,
                   "not checked: Read on %s (JoinGroup, SyncGroup, Heartbeat): librdkafka 2.8 "
                   "reads no operations of a Connect group; a worker without it exits at start",
                   res);
        return;
    }
    mm2_pf_need(f, who, MM2_PF_GROUP, group, &a, MM2_PF_OP_READ, MM2_PF_REFUSE,
                "JoinGroup, SyncGroup and Heartbeat of the workers' group (without it a worker "
                "exits)");
}

/* Describe, Read and Write on each internal topic; DescribeConfigs is a warning (Connect's own
 * check of cleanup.policy logs and goes on without it). */
static void topic_findings(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                           const char *const *names, const struct mm2_kafka_described *d)
{
    static const char *const writes[3] = {
        "Produce of connector configs (without it a REST call that writes a config fails)",
        "Produce of source offsets (without it 'Failed to flush offsets', the task RUNNING, and "
        "every record since copied again after a restart)",
        "Produce of statuses ('Failed to write status update')"};

    for (int i = 0; i < 3; i++) {
        struct mm2_pf_auth a = job_pf_auth(&d[i]);
        mm2_pf_need(f, who, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_DESCRIBE, MM2_PF_REFUSE,
                    "Metadata and ListOffsets of the worker's KafkaBasedLog (without it the "
                    "worker exits)");
        mm2_pf_need(f, who, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_READ, MM2_PF_REFUSE,
                    "Fetch of the worker's KafkaBasedLog (without it startup stalls)");
        mm2_pf_need(f, who, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_WRITE, MM2_PF_REFUSE, writes[i]);
        mm2_pf_need(f, who, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_DESCRIBE_CONFIGS, MM2_PF_WARN,
                    "DescribeConfigs of Connect's own cleanup.policy check (optional)");
    }
}

static int checks(struct job *j, const struct wenv *w, long rf, long isr, const char *path,
                  struct mm2_pf_findings *f)
{
    static const char *const keys[3] = {"CONNECT_CONFIG_STORAGE_TOPIC",
                                        "CONNECT_OFFSET_STORAGE_TOPIC",
                                        "CONNECT_STATUS_STORAGE_TOPIC"};
    const struct mm2_pf_who who = {"workers", w->principal, w->bootstrap};
    const struct mm2_kv props[] = {{"bootstrap.servers", w->bootstrap},
                                   {"security.protocol", "SASL_PLAINTEXT"},
                                   {"sasl.mechanism", "PLAIN"},
                                   {"sasl.username", w->user},
                                   {"sasl.password", w->password}};
    struct mm2_kafka_described g, d[3];
    struct mm2_error err = {0};
    struct mm2_deadline dl;
    cJSON *root, *o;

    if (mm2_kafka_new("workers", props, sizeof(props) / sizeof(props[0]), &j->target, &err) !=
        MM2_OK)
        return job_fail(j, &err);
    job_kafka_deadline(j, &dl);
    if (mm2_kafka_describe_group(j->target, w->group, &g, &dl, &err) != MM2_OK)
        return job_fail(j, &err);
    job_kafka_deadline(j, &dl);
    if (mm2_kafka_describe_topics(j->target, w->topics, 3, d, &dl, &err) != MM2_OK)
        return job_fail(j, &err);
    group_finding(f, &who, w->group, &g);
    topic_findings(f, &who, w->topics, d);
    if (job_pf_internal_topics(j, j->target, &who, w->topics, keys, rf, isr, f, &err) != MM2_OK)
        return job_fail(j, &err);
    job_pf_say(j, f);
    root = cJSON_CreateObject();
    o = root != NULL ? cJSON_AddObjectToObject(root, "workers") : NULL;
    if (cJSON_AddStringToObject(root, "kind", MM2_KIND_PREFLIGHT) == NULL || o == NULL ||
        cJSON_AddStringToObject(o, "principal", w->principal) == NULL ||
        cJSON_AddStringToObject(o, "group", w->group) == NULL ||
        cJSON_AddBoolToObject(root, "refused", mm2_pf_refused(f)) == NULL)
        (void)mm2_error_set(&err, MM2_UNEXPECTED, "out of memory");
    if (err.code == MM2_OK)
        (void)job_pf_report(j, root, f, path, &err);
    cJSON_Delete(root);
    if (err.code != MM2_OK)
        return job_fail(j, &err);
    return job_pf_verdict(j, f);
}

int job_pf_workers(struct job *j, long rf, long isr, long timeout_ms, const char *path)
{
    struct wenv w;
    struct mm2_pf_findings f = {0};
    int rc;

    memset(&w, 0, sizeof(w));
    /* Without an INI: what job_kafka_deadline reads. */
    j->cfg.request_timeout_ms = timeout_ms;
    rc = read_env(j, &w);
    if (rc == MM2_OK)
        rc = checks(j, &w, rf, isr, path, &f);
    mm2_pf_free(&f);
    j->log.nsecrets = 0; /* they point into w, gone with this call */
    memset(w.password, 0, sizeof(w.password));
    return rc;
}
