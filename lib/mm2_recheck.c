/* mm2_recheck: the plan's facts against the clusters as they are now (see mm2_recheck.h). */
#include "mm2_recheck.h"

#include <string.h>

size_t mm2_recheck_clusters(const struct mm2_plan *plan, const char *source_id,
                            const char *target_id, const char *connect_cluster,
                            const char *connect_url, struct mm2_refusals *r)
{
    size_t n = r->n;

    if (strcmp(source_id, plan->source_cluster) != 0)
        mm2_refuse(r,
                   "the [source] cluster is %.64s but the plan was made on %.64s; use the "
                   "plan's clusters [rule wrong-source]",
                   source_id, plan->source_cluster);
    if (strcmp(target_id, plan->target_cluster) != 0)
        mm2_refuse(r,
                   "the [target] cluster is %.64s but the plan was made for %.64s [rule "
                   "wrong-target]",
                   target_id, plan->target_cluster);
    /* A Connect on another Kafka cluster would keep the offsets in its own offsets topic. */
    if (strcmp(connect_cluster, plan->target_cluster) != 0)
        mm2_refuse(r,
                   "Connect at %s runs on Kafka cluster %.64s (GET /), not the plan's target "
                   "%.64s: wrong Connect cluster [rule wrong-target]",
                   connect_url, connect_cluster, plan->target_cluster);
    return r->n - n;
}

size_t mm2_recheck_topics(const struct mm2_plan *plan, const struct mm2_topic_list *src,
                          const struct mm2_topic_list *tgt, const struct mm2_mirror *mirror,
                          struct mm2_refusals *r)
{
    size_t n = r->n;

    for (size_t i = 0; i < plan->ntopics; i++) {
        const struct mm2_xtopic *t = &plan->topics[i];
        const struct mm2_topic_meta *s = mm2_topics_find(src, t->name);
        const struct mm2_topic_meta *d = mm2_topics_find(tgt, t->target);
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
    /* MirrorSourceConnector assigns every partition its filter accepts; one without an offset
     * starts at auto.offset.reset=earliest (docs/ARCHITECTURE.md §4.2). */
    for (size_t i = 0; i < src->n; i++) {
        if (mm2_mirror_replicates(mirror, src->v[i].name) &&
            mm2_export_topic(plan->topics, plan->ntopics, src->v[i].name) == NULL)
            mm2_refuse(r,
                       "topic %.200s (%d partitions): the connector replicates it but the plan "
                       "has no entry for it; MM2 would copy it from the earliest offset, a full "
                       "duplicate: export and plan again, or narrow \"topics\" [rule unplanned]",
                       src->v[i].name, (int)src->v[i].partitions);
    }
    return r->n - n;
}

size_t mm2_recheck_logs(const struct mm2_plan *plan, const int64_t *start, const int64_t *end,
                        struct mm2_refusals *r)
{
    size_t n = r->n;

    for (size_t i = 0; i < plan->n; i++) {
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
    return r->n - n;
}

size_t mm2_recheck_flink(const struct mm2_plan *plan, const struct mm2_group_info *g,
                         const int64_t *committed, const int64_t *target_hw,
                         const int64_t *target_lso, struct mm2_refusals *r)
{
    size_t n = r->n;

    if (g->members > 0)
        mm2_refuse(r,
                   "group %.100s has %d active members now (state %.32s), none at export: Flink "
                   "or another consumer of its group runs again; stop it, then export and plan "
                   "again [rule group-active]",
                   plan->group, g->members, g->state);
    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        if (committed[i] == MM2_OFFSET_NONE)
            mm2_refuse(r,
                       "%s-%d: group %.100s has no committed offset now, %lld at export: its "
                       "offsets were deleted or reset since; find out who, then export and plan "
                       "again [rule flink-moved]",
                       e->topic, (int)e->partition, plan->group, (long long)e->group_c);
        else if (committed[i] != e->group_c)
            mm2_refuse(r,
                       "%s-%d: group %.100s committed %lld now, %lld at export: Flink (or "
                       "something with its group) committed since, so it ran again; stop it, "
                       "then export and plan again [rule flink-moved]",
                       e->topic, (int)e->partition, plan->group, (long long)committed[i],
                       (long long)e->group_c);
        if (target_hw[i] < 0)
            continue;
        if (target_hw[i] != e->target_start || target_lso[i] != e->target_start)
            mm2_refuse(r,
                       "%s-%d on the target: the high watermark is %lld and the last stable "
                       "offset %lld now, both %lld at export: something wrote to it since (Flink's "
                       "sink running again?); MM2 would write beside it: stop the writer, then "
                       "export and plan again [rule target-moved]",
                       e->target_topic, (int)e->partition, (long long)target_hw[i],
                       (long long)target_lso[i], (long long)e->target_start);
    }
    return r->n - n;
}
