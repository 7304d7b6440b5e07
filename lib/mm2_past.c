/* mm2_past: offsets past the plan, and apply's refusals of them (see mm2_past.h). */
#include "mm2_past.h"

#include <stdio.h>

size_t mm2_past_find(const struct mm2_plan *plan, const struct mm2_source_offsets *o,
                     struct mm2_past *p, bool *same)
{
    size_t n = 0;

    *same = true;
    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        const struct mm2_source_offset *x =
            mm2_source_offsets_find(o, plan->alias, e->topic, e->partition);
        bool offset = e->action == MM2_ACT_OFFSET;
        *same = *same && (offset ? x != NULL && x->offset == e->m : x == NULL);
        if (x == NULL || (offset && x->offset <= e->m))
            continue;
        p[n].e = e;
        p[n].offset = x->offset;
        p[n].from = offset ? e->m + 1 : e->log_start;
        p[n].again = x->offset >= p[n].from ? x->offset - p[n].from + 1 : 0;
        n++;
    }
    return n;
}

/* "99" for an offset, "null (the log start, C=0)" for the others. */
void mm2_past_plan_offset(const struct mm2_pentry *e, char *buf, size_t len)
{
    if (e->action == MM2_ACT_OFFSET)
        (void)snprintf(buf, len, "%lld", (long long)e->m);
    else
        (void)snprintf(buf, len, "null (the log start, C=%lld)", (long long)e->c);
}

/* The connector existed before this run: its offsets past the plan are its own progress. */
void mm2_past_refuse_progressed(const struct mm2_plan *plan, const struct mm2_past *p, size_t n,
                                struct mm2_refusals *r)
{
    for (size_t i = 0; i < n; i++) {
        const struct mm2_pentry *e = p[i].e;
        if (e->action == MM2_ACT_OFFSET)
            mm2_refuse(r,
                       "%s-%d: connector %s has offset %lld, past the plan's %lld: it has run "
                       "since the export, and this plan would rewind it and copy %lld records "
                       "again; export and plan again [rule progressed]",
                       e->topic, (int)e->partition, plan->connector, (long long)p[i].offset,
                       (long long)e->m, (long long)(p[i].offset - e->m));
        else
            mm2_refuse(r,
                       "%s-%d: connector %s has offset %lld where the plan starts at the log "
                       "start (C=%lld): it has run since the export; export and plan again "
                       "[rule progressed]",
                       e->topic, (int)e->partition, plan->connector, (long long)p[i].offset,
                       (long long)e->c);
    }
}

/* This run created the connector: offsets past the plan were left by an earlier connector of
 * that name (a connector's DELETE leaves its offsets in the offsets topic, and a new one of the
 * same name reads them: KafkaConfigBackingStore.removeConnectorConfig, Worker's
 * sourceConnectorOffsets). */
void mm2_past_refuse_stale(const struct mm2_plan *plan, const struct mm2_past *p, size_t n,
                           struct mm2_refusals *r)
{
    for (size_t i = 0; i < n; i++) {
        char m[64];
        mm2_past_plan_offset(p[i].e, m, sizeof(m));
        mm2_refuse(r,
                   "%s-%d: connector %s, just created, holds offset %lld from an earlier "
                   "connector of that name (Connect keeps a deleted connector's offsets), past "
                   "the plan's %s: writing the plan copies offsets %lld..%lld again, %lld "
                   "records, duplicates if that connector wrote them to this target; to back "
                   "them up and write the plan, run again with --replace-stale-offsets "
                   "[rule stale-offsets]",
                   p[i].e->topic, (int)p[i].e->partition, plan->connector, (long long)p[i].offset,
                   m, (long long)p[i].from, (long long)p[i].offset, (long long)p[i].again);
    }
}
