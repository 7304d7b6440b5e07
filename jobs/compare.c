/* compare: the connector's state and offsets read back, compared with the plan by
 * lib/mm2_verify (docs/ARCHITECTURE.md §2.1, §6.4), each mismatch printed, and the verify report
 * (see compare.h). */
#include "compare.h"

#include <stdio.h>
#include <string.h>

#include "mm2_artifact.h"
#include "mm2_connlive.h"
#include "mm2_pj.h"
#include "mm2_verify.h"
#include "readback.h"
#include "report.h"

/* The mismatch lines of one comparison: each is printed, and kept for the report. */
struct mismatches {
    struct job *j;
    cJSON *list;
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

/* Each line of the comparison (mm2_verify_compare): a mismatch is printed and kept for the
 * report, a note printed at its level. */
static void say(void *ctx, enum mm2_verify_say what, const char *line)
{
    struct mismatches *m = ctx;
    cJSON *s;

    if (what == MM2_VERIFY_INFO)
        job_info(m->j, "%s", line);
    else if (what == MM2_VERIFY_WARN)
        job_warn(m->j, "%s", line);
    if (what != MM2_VERIFY_PROBLEM)
        return;
    mm2_log_error(&m->j->log, "mismatch: %s", line);
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
    struct mismatches m = {.j = j, .list = cJSON_CreateArray()};
    struct mm2_verify_counts c;
    enum mm2_status st;

    memset(res, 0, sizeof(*res));
    if (m.list == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    st = read_live(j, plan, &l, err);
    if (st == MM2_OK) {
        mm2_verify_compare(plan, &(const struct mm2_verify_live){&l.v, l.config, l.digest, &l.offs},
                           say, &m, &c);
        res->checked = c.checked;
        res->mismatches = c.mismatches;
        res->partition_mismatches = c.partition_mismatches;
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
