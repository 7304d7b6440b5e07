/* recheck: the plan's facts against the clusters and Connect as they are now, which apply and
 * resume both run before they change anything (see recheck.h). */
#include "recheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"

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
    if (strcmp(src, plan->source_cluster) != 0)
        mm2_refuse(r,
                   "the [source] cluster is %.64s but the plan was made on %.64s; use the "
                   "plan's clusters [rule wrong-source]",
                   src, plan->source_cluster);
    if (strcmp(tgt, plan->target_cluster) != 0)
        mm2_refuse(r,
                   "the [target] cluster is %.64s but the plan was made for %.64s [rule "
                   "wrong-target]",
                   tgt, plan->target_cluster);
    if (strcmp(info->kafka_cluster_id, plan->target_cluster) != 0)
        mm2_refuse(r,
                   "Connect at %s runs on Kafka cluster %.64s (GET /), not the plan's target "
                   "%.64s: wrong Connect cluster [rule wrong-target]",
                   j->cfg.connect_url, info->kafka_cluster_id, plan->target_cluster);
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
    for (size_t i = 0; i < plan->ntopics; i++) {
        const struct mm2_xtopic *t = &plan->topics[i];
        const struct mm2_topic_meta *s = mm2_topics_find(&src, t->name);
        const struct mm2_topic_meta *d = mm2_topics_find(&tgt, t->target);
        if (s == NULL)
            mm2_refuse(r, "topic %.200s: it no longer exists on the source [rule topics-changed]",
                       t->name);
        else if (s->partitions != t->partitions)
            mm2_refuse(r,
                       "topic %.200s: it has %d partitions now, %d in the plan; partitions "
                       "%d.. have no plan entry and MM2 would copy them from the earliest "
                       "offset: export and plan again [rule unplanned]",
                       t->name, (int)s->partitions, (int)t->partitions, (int)t->partitions);
        if (d == NULL)
            mm2_refuse(r, "topic %.200s: target topic %.200s does not exist [rule target-missing]",
                       t->name, t->target);
        else if (d->partitions != t->target_partitions)
            mm2_refuse(r,
                       "topic %.200s: target topic %.200s has %d partitions, %d in the plan "
                       "[rule partition-count]",
                       t->name, t->target, (int)d->partitions, (int)t->target_partitions);
    }
    for (size_t i = 0; i < src.n; i++) {
        if (mm2_mirror_replicates(j->mirror, src.v[i].name) &&
            mm2_export_topic(plan->topics, plan->ntopics, src.v[i].name) == NULL)
            mm2_refuse(r,
                       "topic %.200s (%d partitions): the connector replicates it but the plan "
                       "has no entry for it; MM2 would copy it from the earliest offset, a full "
                       "duplicate: export and plan again, or narrow \"topics\" [rule unplanned]",
                       src.v[i].name, (int)src.v[i].partitions);
    }
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
    for (size_t i = 0; st == MM2_OK && i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        if (e->action == MM2_ACT_LOSS)
            continue; /* the loss was accepted; MM2 starts at the log start, whatever it is */
        if (e->c < start[i])
            mm2_refuse(r,
                       "%s-%d: the log start is %lld now, above the plan's C=%lld: records "
                       "expired since the export; export and plan again [rule expired]",
                       e->topic, (int)e->partition, (long long)start[i], (long long)e->c);
        else if (e->c > end[i])
            mm2_refuse(r,
                       "%s-%d: the log end is %lld now, below the plan's C=%lld: was the topic "
                       "recreated? [rule beyond-end]",
                       e->topic, (int)e->partition, (long long)end[i], (long long)e->c);
    }
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
