/* bind: an export or plan must be one of the migration that the INI in use describes (see
 * bind.h); every command that reads one checks it before it touches Connect. */
#include "bind.h"

#include <stdio.h>
#include <string.h>

#include "clients.h"

/* The INI's cluster id of one side: pinned ([source] cluster.id), or read from the cluster. */
static enum mm2_status cluster_id(struct job *j, bool target, char *out, size_t len,
                                  struct mm2_error *err)
{
    const char *pin = target ? j->cfg.target_cluster_id : j->cfg.source_cluster_id;
    struct mm2_deadline dl;
    enum mm2_status st;

    if (pin != NULL) {
        (void)snprintf(out, len, "%s", pin);
        return MM2_OK;
    }
    st = job_kafka(j, !target, target, err);
    if (st != MM2_OK)
        return st;
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_cluster_id(target ? j->target : j->source, &dl, out, len, err);
    return st == MM2_OK ? MM2_OK
                        : mm2_error_prefix(err,
                                           "reading the %s cluster's id (or pin it in %s: "
                                           "[%s] cluster.id)",
                                           target ? "target" : "source", j->cfg.path,
                                           target ? "target" : "source");
}

int job_bound(struct job *j, const char *what, const struct mm2_binding *a,
              const char *kafka_version, const char *not_done)
{
    char src[MM2_KAFKA_CLUSTER_ID_MAX], tgt[MM2_KAFKA_CLUSTER_ID_MAX];
    struct mm2_migration m = {.ini = j->cfg.path,
                              .group = j->cfg.group,
                              .source_cluster = src,
                              .source_pinned = j->cfg.source_cluster_id != NULL,
                              .target_cluster = tgt,
                              .target_pinned = j->cfg.target_cluster_id != NULL,
                              .conn = &j->conn,
                              .connector_file = j->cfg.connector_file};
    struct mm2_mirror *mirror = NULL;
    struct mm2_refusals r = {0};
    struct mm2_error err = {0};
    int rc = MM2_OK;

    if (cluster_id(j, false, src, sizeof(src), &err) != MM2_OK ||
        cluster_id(j, true, tgt, sizeof(tgt), &err) != MM2_OK)
        return job_fail(j, &err);
    /* The connector's filter as the Kafka that Connect ran when the artifact was made. */
    if (mm2_mirror_new(j->conn.config, kafka_version, &mirror, &err) != MM2_OK) {
        mm2_error_prefix(&err, "connector %s", j->conn.name);
        return job_fail(j, &err);
    }
    m.mirror = mirror;
    if (mm2_binding_check(what, a, &m, &r) > 0 || r.oom)
        rc = job_refused(j, &r, not_done);
    mm2_mirror_free(mirror);
    mm2_refusals_free(&r);
    return rc;
}

int job_pins_hold(struct job *j, const char *source_id, const char *target_id)
{
    const char *pin[2] = {j->cfg.source_cluster_id, j->cfg.target_cluster_id};
    const char *live[2] = {source_id, target_id};
    static const char *const side[2] = {"source", "target"};
    int rc = MM2_OK;

    for (int i = 0; i < 2; i++) {
        if (pin[i] == NULL || strcmp(pin[i], live[i]) == 0)
            continue;
        mm2_log_error(&j->log,
                      "%s: [%s] cluster.id is \"%s\", but the cluster at its bootstrap.servers "
                      "has id \"%s\": it names another cluster; fix bootstrap.servers or "
                      "cluster.id",
                      j->cfg.path, side[i], pin[i], live[i]);
        rc = MM2_CONFIG;
    }
    return rc;
}
