/* past: apply refuses, or with --replace-stale-offsets replaces, offsets past the plan (see
 * past.h). */
#include "past.h"

#include <stdio.h>
#include <string.h>

#include "mm2_json.h"

/* --replace-stale-offsets: says what is replaced, and lists it for the report. NULL when out of
 * memory. */
static cJSON *replace_stale(struct job *j, const struct mm2_plan *plan, const struct mm2_past *p,
                            size_t n)
{
    cJSON *arr = cJSON_CreateArray();

    for (size_t i = 0; arr != NULL && i < n; i++) {
        const struct mm2_pentry *e = p[i].e;
        cJSON *x = cJSON_CreateObject();
        char m[64];
        mm2_past_plan_offset(e, m, sizeof(m));
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

int job_judge_past(struct job *j, const struct mm2_plan *plan, const struct mm2_past *p, size_t n,
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
        mm2_past_refuse_progressed(plan, p, n, &r);
        rc = job_refused(j, &r,
                         replace ? "Connect was not changed (--replace-stale-offsets is only "
                                   "for a connector this apply creates: these offsets are this "
                                   "connector's own)"
                                 : "Connect was not changed");
        mm2_refusals_free(&r);
        return rc;
    }
    mm2_past_refuse_stale(plan, p, n, &r);
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
