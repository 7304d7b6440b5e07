/* past: offsets past the plan, found by apply (see past.h). */
#include "past.h"

#include <stdio.h>
#include <string.h>

#include "mm2_json.h"

size_t past_plan(const struct mm2_plan *plan, const struct mm2_source_offsets *o, struct past *p,
                 bool *same)
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
static void plan_offset(const struct mm2_pentry *e, char *buf, size_t len)
{
    if (e->action == MM2_ACT_OFFSET)
        (void)snprintf(buf, len, "%lld", (long long)e->m);
    else
        (void)snprintf(buf, len, "null (the log start, C=%lld)", (long long)e->c);
}

/* The connector existed before this run: its offsets past the plan are its own progress. */
static void refuse_progressed(const struct mm2_plan *plan, const struct past *p, size_t n,
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
static void refuse_stale(const struct mm2_plan *plan, const struct past *p, size_t n,
                         struct mm2_refusals *r)
{
    for (size_t i = 0; i < n; i++) {
        char m[64];
        plan_offset(p[i].e, m, sizeof(m));
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

/* --replace-stale-offsets: says what is replaced, and lists it for the report. NULL when out of
 * memory. */
static cJSON *replace_stale(struct job *j, const struct mm2_plan *plan, const struct past *p,
                            size_t n)
{
    cJSON *arr = cJSON_CreateArray();

    for (size_t i = 0; arr != NULL && i < n; i++) {
        const struct mm2_pentry *e = p[i].e;
        cJSON *x = cJSON_CreateObject();
        char m[64];
        plan_offset(e, m, sizeof(m));
        job_warn(j,
                 "%s-%d: writing the plan's %s over offset %lld, which an earlier connector "
                 "named %s left: offsets %lld..%lld are copied again, %lld records, duplicates "
                 "if that connector wrote them to this target",
                 e->topic, (int)e->partition, m, (long long)p[i].offset, plan->connector,
                 (long long)p[i].from, (long long)p[i].offset, (long long)p[i].again);
        if (x == NULL || !cJSON_AddItemToArray(arr, x)) {
            cJSON_Delete(x);
            cJSON_Delete(arr);
            return NULL;
        }
        cJSON_AddStringToObject(x, "topic", e->topic);
        cJSON_AddItemToObject(x, "partition", mm2_json_int(e->partition));
        cJSON_AddItemToObject(x, "stale_offset", mm2_json_int(p[i].offset));
        cJSON_AddItemToObject(x, "plan_offset",
                              e->action == MM2_ACT_OFFSET ? mm2_json_int(e->m)
                                                          : cJSON_CreateNull());
        cJSON_AddItemToObject(x, "copied_again", mm2_json_int(p[i].again));
    }
    return arr;
}

int judge_past(struct job *j, const struct mm2_plan *plan, const struct past *p, size_t n,
               bool created, bool replace, const char *backup, cJSON **replaced)
{
    struct mm2_refusals r = {0};
    struct mm2_error err = {0};
    char closing[512];
    bool deleted;
    int rc;

    if (created && replace) {
        *replaced = replace_stale(j, plan, p, n);
        return *replaced != NULL
                   ? MM2_OK
                   : job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    }
    if (!created) {
        refuse_progressed(plan, p, n, &r);
        rc = job_refused(j, &r,
                         replace ? "Connect was not changed (--replace-stale-offsets is only "
                                   "for a connector this apply creates: these offsets are this "
                                   "connector's own)"
                                 : "Connect was not changed");
        mm2_refusals_free(&r);
        return rc;
    }
    refuse_stale(plan, p, n, &r);
    /* No STOPPED connector is left behind for someone to resume onto those offsets. */
    deleted = mm2_connect_delete(j->connect, plan->connector, &err) == MM2_OK;
    (void)snprintf(closing, sizeof(closing),
                   "%s the offsets were left as they were (backed up in %.300s)",
                   deleted ? "the connector this apply created was deleted again, and"
                           : "the connector this apply created is still there (below), and",
                   backup);
    rc = job_refused(j, &r, closing);
    mm2_refusals_free(&r);
    if (!deleted) {
        mm2_error_prefix(&err,
                         "deleting connector %s, which this apply created STOPPED: delete it "
                         "before anything resumes it",
                         plan->connector);
        return job_fail(j, &err);
    }
    return rc;
}
