/* status: the connector's and its tasks' states, its offsets against the plan, and the lag to
 * the source log end, per partition (docs/ARCHITECTURE.md §3.4). */
#include "status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "load.h"
#include "mm2_cli.h"
#include "mm2_connlive.h"
#include "mm2_json.h"
#include "mm2_pj.h"
#include "options.h"
#include "trailread.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "shown"},
    {MM2_CHECK_FAILED, "the connector or a task FAILED, or it does not exist; the trail not "
                       "whole"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Kafka or Connect, or timed out"},
    {MM2_UNEXPECTED, "Kafka or Connect"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " status --config FILE --plan FILE [--format text|json]\n"
            "       " PROG " status --config FILE --trail [--restore DIR] [--format text|json]\n"
            "Shows the connector's state and its tasks', and per planned partition: the plan's\n"
            "C, the position MM2 will read next (its offset + 1), the source log end and the\n"
            "lag between them. With --trail, reads the migration's audit trail back from the\n"
            "[trail] topic on the target instead: every document recorded, each digest\n"
            "verified, and what is incomplete, corrupt or missing (exit 1).\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE        the migration INI file\n"
            "  -p, --plan FILE          the plan\n"
            "  -f, --format text|json   output format (text)\n"
            "  -T, --trail              read the audit trail back instead\n"
            "  -R, --restore DIR        with --trail, write each document there as\n"
            "                           OFFSET-FILE (a restored artifact is checked again)\n");
    job_usage_end(out, 27, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* What status reads: the connector's status and offsets, and the source log bounds of each
 * planned partition. */
struct view {
    struct mm2_connector_status s;
    struct mm2_source_offsets offs;
    int64_t *start, *end; /* per plan entry */
};

static enum mm2_status read_view(struct job *j, const struct mm2_plan *plan, struct view *v,
                                 struct mm2_error *err)
{
    struct mm2_tp *tps = calloc(plan->n + 1, sizeof(*tps));
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    v->start = calloc(plan->n + 1, sizeof(*v->start));
    v->end = calloc(plan->n + 1, sizeof(*v->end));
    if (tps == NULL || v->start == NULL || v->end == NULL) {
        free(tps);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    for (size_t i = 0; i < plan->n; i++)
        tps[i] = (struct mm2_tp){plan->entries[i].topic, plan->entries[i].partition};
    job_kafka_deadline(j, &dl);
    st = job_connect(j, err);
    if (st == MM2_OK)
        st = job_kafka(j, true, false, err);
    if (st == MM2_OK) {
        /* Task statuses without a task config (mm2_connlive_read) are counted apart. */
        struct mm2_connlive live;
        st = mm2_connlive_read(j->connect, plan->connector, &live, err);
        v->s = live.s;
    }
    if (st == MM2_OK && v->s.exists)
        st = mm2_connect_offsets(j->connect, plan->connector, &v->offs, err);
    if (st == MM2_OK && plan->n > 0)
        st = mm2_kafka_log_offsets(j->source, tps, plan->n, v->start, v->end, NULL, &dl, err);
    free(tps);
    return st;
}

/* Entry i's position (MM2's offset + 1) and lag to the log end; whether MM2 has an offset. */
static bool position(const struct mm2_plan *plan, const struct view *v, size_t i, int64_t *pos,
                     int64_t *lag)
{
    const struct mm2_pentry *e = &plan->entries[i];
    const struct mm2_source_offset *o =
        mm2_source_offsets_find(&v->offs, plan->alias, e->topic, e->partition);

    /* Without an offset MM2 starts at auto.offset.reset=earliest: the log start. */
    *pos = o != NULL ? o->offset + 1 : v->start[i];
    *lag = v->end[i] > *pos ? v->end[i] - *pos : 0;
    return o != NULL;
}

static void show_text(const struct mm2_plan *plan, const struct view *v)
{
    int64_t total_lag = 0;

    printf("connector %s: %s, tasks %zu/%zu RUNNING, %zu FAILED\n", plan->connector,
           v->s.exists ? mm2_cstate_name(v->s.state) : "absent", v->s.tasks_running, v->s.ntasks,
           v->s.tasks_failed);
    if (v->s.stale > 0)
        printf("%zu stale task status%s with no task config behind them (first: %s): left by an "
               "earlier connector of this name, not counted\n",
               v->s.stale, v->s.stale == 1 ? "" : "es", v->s.first_stale);
    printf("%-40s %9s %14s %14s %14s %12s\n", "TOPIC", "PARTITION", "C", "POSITION", "LOG_END",
           "LAG");
    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        int64_t pos, lag;
        bool has = position(plan, v, i, &pos, &lag);
        total_lag += lag;
        printf("%-40s %9d %14lld %13lld%s %14lld %12lld\n", e->topic, (int)e->partition,
               (long long)e->c, (long long)pos, has ? " " : "*", (long long)v->end[i],
               (long long)lag);
    }
    printf("total lag %lld records over %zu partitions (* = no offset yet: starts at the log "
           "start)\n",
           (long long)total_lag, plan->n);
    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        if (e->duplicates > 0 || e->gap > 0)
            printf("%s-%d: %lld boundary duplicates, %lld records of a gap below C=%lld (the "
                   "plan's Flink boundary)\n",
                   e->topic, (int)e->partition, (long long)e->duplicates, (long long)e->gap,
                   (long long)e->group_c);
    }
}

/* The same as JSON, whole or not at all (an error when out of memory). */
static enum mm2_status show_json(const struct mm2_plan *plan, const struct view *v,
                                 struct mm2_error *err)
{
    struct mm2_pj b = {.root = cJSON_CreateObject()};
    int64_t total_lag = 0;
    cJSON *arr;
    char *text = NULL;

    mm2_pj_str(&b, b.root, "connector", plan->connector);
    mm2_pj_str(&b, b.root, "state", v->s.exists ? mm2_cstate_name(v->s.state) : "absent");
    mm2_pj_int(&b, b.root, "tasks", (int64_t)v->s.ntasks);
    mm2_pj_int(&b, b.root, "tasks_running", (int64_t)v->s.tasks_running);
    mm2_pj_int(&b, b.root, "tasks_failed", (int64_t)v->s.tasks_failed);
    mm2_pj_int(&b, b.root, "stale_task_statuses", (int64_t)v->s.stale);
    if (v->s.failed_cause[0] != '\0') {
        mm2_pj_str(&b, b.root, "failed_cause", v->s.failed_cause);
        mm2_pj_bool(&b, b.root, "failed_authorization", v->s.failed_authz);
    }
    arr = mm2_pj_arr(&b, b.root, "partitions");
    for (size_t i = 0; i < plan->n && !b.oom; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        cJSON *x = mm2_pj_item(&b, arr);
        int64_t pos, lag;
        bool has = position(plan, v, i, &pos, &lag);
        total_lag += lag;
        mm2_pj_str(&b, x, "topic", e->topic);
        mm2_pj_int(&b, x, "partition", e->partition);
        mm2_pj_int(&b, x, "c", e->c);
        mm2_pj_int(&b, x, "position", pos);
        mm2_pj_bool(&b, x, "has_offset", has);
        mm2_pj_int(&b, x, "log_end", v->end[i]);
        mm2_pj_int(&b, x, "lag", lag);
        mm2_pj_str(&b, x, "boundary", e->boundary);
        mm2_pj_int(&b, x, "duplicates", e->duplicates);
        mm2_pj_int(&b, x, "gap", e->gap);
    }
    mm2_pj_int(&b, b.root, "total_lag", total_lag);
    if (!b.oom)
        text = mm2_json_print(b.root, true);
    cJSON_Delete(b.root);
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory printing the status");
    fputs(text, stdout);
    free(text);
    return MM2_OK;
}

static int show(struct job *j, const struct mm2_plan *plan, bool json)
{
    struct view v = {0};
    struct mm2_error err = {0};
    int rc = MM2_OK;

    if (read_view(j, plan, &v, &err) != MM2_OK || (json && show_json(plan, &v, &err) != MM2_OK)) {
        rc = job_fail(j, &err);
    } else {
        if (!json)
            show_text(plan, &v);
        if (!v.s.exists || v.s.state == MM2_CSTATE_FAILED || v.s.tasks_failed > 0) {
            char why[MM2_CSTATE_CAUSE_MAX + 200];
            mm2_connect_status_why(&v.s, why, sizeof(why));
            mm2_log_error(&j->log, "connector %s is %s%s%s%s", plan->connector,
                          v.s.exists ? mm2_cstate_name(v.s.state) : "absent",
                          v.s.first_bad_task[0] != '\0' ? ", " : "", v.s.first_bad_task, why);
            rc = MM2_CHECK_FAILED;
        }
    }
    mm2_source_offsets_free(&v.offs);
    free(v.start);
    free(v.end);
    return rc;
}

int cmd_status(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *format = NULL, *restore = NULL;
    bool trail = false;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},   {"plan", 'p', JOB_OPT_STRING, &plan_path},
        {"format", 'f', JOB_OPT_STRING, &format},   {"trail", 'T', JOB_OPT_FLAG, &trail},
        {"restore", 'R', JOB_OPT_STRING, &restore},
    };
    struct mm2_plan plan = {0};
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (format != NULL && strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        return job_usage_error(j, "--format must be text or json, got \"%.40s\"", format);
    if (restore != NULL && !trail)
        return job_usage_error(j, "--restore DIR goes with --trail");
    if (trail && plan_path != NULL)
        return job_usage_error(j, "--trail reads the trail, not a plan: leave --plan out");
    if (trail) {
        if (config == NULL)
            return job_usage_error(j, "--config FILE is required (the migration INI file)");
        rc = job_load(j, config);
        return rc != MM2_OK
                   ? rc
                   : job_trail_show(j, restore, format != NULL && strcmp(format, "json") == 0);
    }
    rc = job_load_plan(j, config, plan_path, &plan);
    if (rc == MM2_OK)
        rc = show(j, &plan, format != NULL && strcmp(format, "json") == 0);
    mm2_plan_free(&plan);
    return rc;
}
