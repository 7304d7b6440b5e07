/* compare: the connector's state and offsets read back and compared with the plan, 100%
 * (docs/ARCHITECTURE.md §2.1, §6.4): every offset present and equal, every null absent, nothing
 * extra under the plan's topics and alias, the connector stopped as Connect decides it (STOPPED,
 * no task config) with the plan's config (see compare.h). */
#include "compare.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mm2_artifact.h"
#include "mm2_connlive.h"
#include "mm2_pj.h"
#include "readback.h"
#include "report.h"
#include "stopped.h"

/* The mismatch lines of one comparison: each is printed, and kept for the report. */
struct mismatches {
    cJSON *list;
    size_t n;
    bool oom; /* a line could not be kept: the report would be incomplete */
};

/* What Connect holds of the plan's connector: its status, its config and that config's digest
 * ("" when it does not exist) and its offsets. */
struct live {
    struct mm2_connlive v; /* its status and task configs, judged */
    cJSON *config;         /* owned */
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    struct mm2_source_offsets offs;
};

static void mismatch(struct job *j, struct mismatches *m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void mismatch(struct job *j, struct mismatches *m, const char *fmt, ...)
{
    char line[MM2_REFUSAL_LEN];
    cJSON *s;
    va_list ap;

    va_start(ap, fmt);
    if (vsnprintf(line, sizeof(line), fmt, ap) < 0)
        line[0] = '\0';
    va_end(ap);
    mm2_log_error(&j->log, "mismatch: %s", line);
    m->n++;
    s = cJSON_CreateString(line);
    if (s == NULL || !cJSON_AddItemToArray(m->list, s)) {
        cJSON_Delete(s);
        m->oom = true;
    }
}

static enum mm2_status read_live(struct job *j, const struct mm2_plan *plan, struct live *l,
                                 struct mm2_error *err)
{
    enum mm2_status st = mm2_connlive_read(j->connect, plan->connector, &l->v, err);

    if (st == MM2_OK && l->v.s.exists)
        st = mm2_connect_config(j->connect, plan->connector, &l->config, err);
    if (st == MM2_OK && l->config != NULL)
        st = mm2_connector_config_digest(l->config, plan->connector, l->digest, err);
    if (st == MM2_OK && l->v.s.exists)
        st = job_read_offsets(j, plan->connector, plan, &l->offs, err);
    return st;
}

static void compare_connector(struct job *j, const struct mm2_plan *plan, const struct live *l,
                              struct mismatches *m)
{
    char line[MM2_REFUSAL_LEN];

    if (!l->v.s.exists) {
        mismatch(j, m, "connector %s does not exist; run apply", plan->connector);
        return;
    }
    if (job_stop_problem(j, plan->connector, &l->v, JOB_STOP_WHY_HOLD, "then verify again", line,
                         sizeof(line)))
        mismatch(j, m, "%s", line);
    if (strcmp(l->digest, plan->config_digest) != 0) {
        char how[320];
        job_config_differs(plan, l->config, l->digest, how, sizeof(how));
        mismatch(j, m, "connector %s's config is not the plan's (%s)", plan->connector, how);
    }
}

/* Every planned partition against the offset Connect lists for it; returns how many it checked. */
static size_t compare_planned(struct job *j, const struct mm2_plan *plan, const struct live *l,
                              struct mismatches *m)
{
    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        const struct mm2_source_offset *o =
            mm2_source_offsets_find(&l->offs, plan->alias, e->topic, e->partition);
        if (e->action == MM2_ACT_OFFSET && o == NULL)
            mismatch(j, m, "%s-%d: expected offset %lld, found none", e->topic, (int)e->partition,
                     (long long)e->m);
        else if (e->action == MM2_ACT_OFFSET && o->offset != e->m)
            mismatch(j, m, "%s-%d: expected offset %lld, found %lld", e->topic, (int)e->partition,
                     (long long)e->m, (long long)o->offset);
        else if (e->action != MM2_ACT_OFFSET && o != NULL)
            mismatch(j, m, "%s-%d: expected no offset (null: start at earliest), found %lld",
                     e->topic, (int)e->partition, (long long)o->offset);
    }
    return plan->n;
}

/* Offsets under the plan's topics that the plan does not have: "extra" under its alias, a
 * warning under another (MM2 ignores those). */
static void compare_extra(struct job *j, const struct mm2_plan *plan, const struct live *l,
                          struct mismatches *m)
{
    for (size_t i = 0; i < l->offs.n; i++) {
        const struct mm2_source_offset *o = &l->offs.v[i];
        bool planned_topic = mm2_export_topic(plan->topics, plan->ntopics, o->topic) != NULL;
        if (strcmp(o->cluster, plan->alias) == 0 && planned_topic &&
            mm2_plan_find(plan, o->topic, o->partition) == NULL)
            mismatch(j, m, "%s-%d: an offset %lld that the plan does not have", o->topic,
                     (int)o->partition, (long long)o->offset);
        else if (strcmp(o->cluster, plan->alias) != 0 && planned_topic)
            job_warn(j,
                     "%s-%d has an offset under cluster alias \"%.60s\", not \"%.60s\"; MM2 "
                     "ignores it",
                     o->topic, (int)o->partition, o->cluster, plan->alias);
    }
}

/* The verify artifact (unsealed). Takes m->list. Every member or none: out of memory is an
 * error, never a report with members missing. */
static enum mm2_status verify_report(const struct mm2_plan *plan, const struct live *l,
                                     struct mismatches *m, struct job_comparison *res,
                                     struct mm2_error *err)
{
    struct mm2_pj b = {.root = cJSON_CreateObject()};
    char now[32];
    enum mm2_status st = MM2_OK;

    job_utc_now(now, sizeof(now));
    mm2_pj_str(&b, b.root, "kind", MM2_KIND_VERIFY);
    mm2_pj_str(&b, b.root, "tool", PROG " " MM2KIT_VERSION);
    mm2_pj_str(&b, b.root, "created", now);
    mm2_pj_str(&b, b.root, "plan_digest", plan->digest);
    if (!b.oom)
        st = job_add_migration(b.root, plan, err);
    mm2_pj_str(&b, b.root, "state", l->v.s.exists ? mm2_cstate_name(l->v.s.state) : "absent");
    /* Connect's own count: its task configs */
    mm2_pj_int(&b, b.root, "tasks", (int64_t)l->v.task_configs);
    mm2_pj_int(&b, b.root, "stale_task_statuses", (int64_t)l->v.s.stale);
    mm2_pj_int(&b, b.root, "checked", (int64_t)res->checked);
    mm2_pj_int(&b, b.root, "offsets_read", (int64_t)l->offs.n);
    if (b.root == NULL || !cJSON_AddItemToObject(b.root, "mismatches", m->list)) {
        cJSON_Delete(m->list);
        b.oom = true;
    }
    m->list = NULL;
    mm2_pj_bool(&b, b.root, "ok", res->mismatches == 0);
    if (b.oom || m->oom || st != MM2_OK) {
        cJSON_Delete(b.root);
        return st != MM2_OK ? st : mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    res->report = b.root;
    return MM2_OK;
}

enum mm2_status job_compare(struct job *j, const struct mm2_plan *plan, struct job_comparison *res,
                            struct mm2_error *err)
{
    struct live l = {0};
    struct mismatches m = {.list = cJSON_CreateArray()};
    enum mm2_status st;

    memset(res, 0, sizeof(*res));
    if (m.list == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    st = read_live(j, plan, &l, err);
    if (st == MM2_OK) {
        compare_connector(j, plan, &l, &m);
        if (l.v.s.exists) {
            size_t before = m.n;
            res->checked = compare_planned(j, plan, &l, &m);
            res->partition_mismatches = m.n - before;
        }
        compare_extra(j, plan, &l, &m);
        res->mismatches = m.n;
        st = verify_report(plan, &l, &m, res, err);
    }
    cJSON_Delete(m.list);
    mm2_source_offsets_free(&l.offs);
    cJSON_Delete(l.config);
    return st;
}

/* One error line for a comparison that found mismatches, ending in what was not done (or NULL). */
void job_compare_failed(struct job *j, const char *prefix, const struct job_comparison *vr,
                        const char *not_done)
{
    const char *es = vr->mismatches == 1 ? "" : "es", *sep = not_done != NULL ? "; " : "";

    if (not_done == NULL)
        not_done = "";
    /* A mismatch of the connector itself (its state, its config) or of an offset the plan does
     * not have is no planned partition's: the line says so rather than "0 of N differ". */
    if (vr->partition_mismatches > 0)
        mm2_log_error(
            &j->log, "%s%zu mismatch%s: %zu of %zu planned partitions differ from the plan%s%s",
            prefix, vr->mismatches, es, vr->partition_mismatches, vr->checked, sep, not_done);
    else if (vr->checked > 0)
        mm2_log_error(&j->log,
                      "%s%zu mismatch%s, none in the offsets of the %zu planned partitions (they "
                      "match the plan)%s%s",
                      prefix, vr->mismatches, es, vr->checked, sep, not_done);
    else
        mm2_log_error(&j->log, "%s%zu mismatch%s; no planned partition was checked%s%s", prefix,
                      vr->mismatches, es, sep, not_done);
}
