/* recheck: the plan's facts against the clusters and Connect as they are now, which apply and
 * resume both run before they change anything (see recheck.h): read here, judged by
 * lib/mm2_recheck. */
#include "recheck.h"

#include <stdio.h>
#include <stdlib.h>

#include "clients.h"
#include "mm2_recheck.h"

/* The cluster ids of source, target and Connect's Kafka; info gets GET /'s answer. */
static enum mm2_status recheck_clusters(struct job *j, const struct mm2_plan *plan,
                                        struct mm2_connect_info *info, struct mm2_refusals *r,
                                        struct mm2_error *err)
{
    char src[MM2_KAFKA_CLUSTER_ID_MAX], tgt[MM2_KAFKA_CLUSTER_ID_MAX];
    struct mm2_deadline dl;
    enum mm2_status st;

    job_kafka_deadline(j, &dl);
    st = mm2_kafka_cluster_id(j->source, &dl, src, sizeof(src), err);
    if (st == MM2_OK) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_cluster_id(j->target, &dl, tgt, sizeof(tgt), err);
    }
    if (st == MM2_OK)
        st = mm2_connect_info(j->connect, info, err);
    if (st != MM2_OK)
        return st;
    (void)mm2_recheck_clusters(plan, src, tgt, info->kafka_cluster_id, j->cfg.connect_url, r);
    return MM2_OK;
}

/* Partition counts, and every replicated topic planned. */
static enum mm2_status recheck_topics(struct job *j, const struct mm2_plan *plan,
                                      struct mm2_refusals *r, struct mm2_error *err)
{
    struct mm2_topic_list src = {0}, tgt = {0};
    struct mm2_deadline dl;
    enum mm2_status st;

    job_kafka_deadline(j, &dl);
    st = mm2_kafka_topics(j->source, &dl, &src, err);
    if (st == MM2_OK) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_topics(j->target, &dl, &tgt, err);
    }
    if (st != MM2_OK) {
        mm2_topic_list_free(&src);
        return st;
    }
    (void)mm2_recheck_topics(plan, &src, &tgt, j->mirror, r);
    mm2_topic_list_free(&src);
    mm2_topic_list_free(&tgt);
    return MM2_OK;
}

/* Log start <= C <= log end still holds for every entry. */
static enum mm2_status recheck_logs(struct job *j, const struct mm2_plan *plan,
                                    struct mm2_refusals *r, struct mm2_error *err)
{
    struct mm2_tp *tps = calloc(plan->n > 0 ? plan->n : 1, sizeof(*tps));
    int64_t *start = calloc(plan->n > 0 ? plan->n : 1, sizeof(*start));
    int64_t *end = calloc(plan->n > 0 ? plan->n : 1, sizeof(*end));
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    if (tps == NULL || start == NULL || end == NULL) {
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < plan->n; i++) {
        tps[i].topic = plan->entries[i].topic;
        tps[i].partition = plan->entries[i].partition;
    }
    job_kafka_deadline(j, &dl);
    if (plan->n > 0)
        st = mm2_kafka_log_offsets(j->source, tps, plan->n, start, end, NULL, &dl, err);
    if (st == MM2_OK)
        (void)mm2_recheck_logs(plan, start, end, r);
out:
    free(tps);
    free(start);
    free(end);
    return st;
}

enum mm2_status job_recheck(struct job *j, const struct mm2_plan *plan, struct mm2_refusals *r,
                            struct mm2_error *err)
{
    struct mm2_connect_info info;
    enum mm2_status st = job_kafka(j, true, true, err);

    if (st == MM2_OK)
        st = job_connect(j, err);
    if (st != MM2_OK)
        return st;
    job_info(j, "re-checking the plan's facts: clusters, topics, partitions, log start");
    st = recheck_clusters(j, plan, &info, r, err);
    if (st == MM2_OK) {
        (void)snprintf(j->connect_version, sizeof(j->connect_version), "%s", info.version);
        st = job_mirror(j, info.version, err);
    }
    if (st == MM2_OK)
        st = recheck_topics(j, plan, r, err);
    if (st == MM2_OK)
        st = recheck_logs(j, plan, r, err);
    return st;
}

enum mm2_status job_recheck_flink(struct job *j, const struct mm2_plan *plan,
                                  struct mm2_refusals *r, struct mm2_error *err)
{
    size_t n = plan->n > 0 ? plan->n : 1;
    struct mm2_tp *src = calloc(n, sizeof(*src)), *tgt = calloc(n, sizeof(*tgt));
    int64_t *committed = calloc(n, sizeof(*committed)), *hw = calloc(n, sizeof(*hw));
    int64_t *lso = calloc(n, sizeof(*lso));
    struct mm2_group_info g = {0};
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    if (src == NULL || tgt == NULL || committed == NULL || hw == NULL || lso == NULL) {
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        goto out;
    }
    job_info(j,
             "re-checking that Flink is still stopped: group %s (members, committed offsets) "
             "and the target's log ends",
             plan->group);
    for (size_t i = 0; i < plan->n; i++) {
        src[i].topic = plan->entries[i].topic;
        tgt[i].topic = plan->entries[i].target_topic;
        src[i].partition = tgt[i].partition = plan->entries[i].partition;
    }
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_group(j->source, plan->group, &dl, &g, err);
    if (st == MM2_OK && plan->n > 0) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_committed(j->source, plan->group, src, plan->n, committed, &dl, err);
    }
    if (st == MM2_OK && plan->n > 0) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_log_offsets(j->target, tgt, plan->n, NULL, hw, lso, &dl, err);
    }
    if (st == MM2_OK)
        (void)mm2_recheck_flink(plan, &g, committed, hw, lso, r);
out:
    free(src);
    free(tgt);
    free(committed);
    free(hw);
    free(lso);
    return st;
}
