/* status: the connector's and its tasks' states, its offsets against the plan, and the lag to
 * the source log end, per partition (docs/ARCHITECTURE.md §3.4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "mm2_cli.h"
#include "mm2_json.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "shown"},
    {MM2_CHECK_FAILED, "the connector or a task FAILED, or it does not exist"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Kafka or Connect, or timed out"},
    {MM2_UNEXPECTED, "Kafka or Connect"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " status --config FILE --plan FILE [--format text|json]\n"
            "Shows the connector's state and its tasks', and per planned partition: the plan's\n"
            "C, the position MM2 will read next (its offset + 1), the source log end and the\n"
            "lag between them.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE        the migration INI file\n"
            "  -p, --plan FILE          the plan\n"
            "  -f, --format text|json   output format (text)\n"
            "  -q, --quiet              no progress lines\n"
            "  -v, --verbose            debug detail too\n"
            "  -h, --help               this text\n"
            "\n"
            "");
    mm2_cli_exit_codes(out, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

static int show(struct job *j, const struct mm2_plan *plan, bool json)
{
    struct mm2_connector_status s;
    struct mm2_source_offsets offs = {0};
    struct mm2_tp *tps = calloc(plan->n + 1, sizeof(*tps));
    int64_t *start = calloc(plan->n + 1, sizeof(*start)), *end = calloc(plan->n + 1, sizeof(*end));
    struct mm2_deadline dl;
    struct mm2_error err = {0};
    cJSON *root = NULL, *arr = NULL;
    int64_t total_lag = 0;
    int rc = MM2_OK;

    if (tps == NULL || start == NULL || end == NULL) {
        rc = job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
        goto out;
    }
    for (size_t i = 0; i < plan->n; i++)
        tps[i] = (struct mm2_tp){plan->entries[i].topic, plan->entries[i].partition};
    job_kafka_deadline(j, &dl);
    if (job_connect(j, &err) != MM2_OK || job_kafka(j, true, false, &err) != MM2_OK ||
        mm2_connect_status(j->connect, plan->connector, &s, &err) != MM2_OK ||
        (s.exists && mm2_connect_offsets(j->connect, plan->connector, &offs, &err) != MM2_OK) ||
        (plan->n > 0 &&
         mm2_kafka_log_offsets(j->source, tps, plan->n, start, end, NULL, &dl, &err) != MM2_OK)) {
        rc = job_fail(j, &err);
        goto out;
    }
    if (json) {
        root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "connector", plan->connector);
        cJSON_AddStringToObject(root, "state", s.exists ? mm2_cstate_name(s.state) : "absent");
        cJSON_AddItemToObject(root, "tasks", mm2_json_int((int64_t)s.ntasks));
        cJSON_AddItemToObject(root, "tasks_running", mm2_json_int((int64_t)s.tasks_running));
        cJSON_AddItemToObject(root, "tasks_failed", mm2_json_int((int64_t)s.tasks_failed));
        arr = cJSON_AddArrayToObject(root, "partitions");
    } else {
        printf("connector %s: %s, tasks %zu/%zu RUNNING, %zu FAILED\n", plan->connector,
               s.exists ? mm2_cstate_name(s.state) : "absent", s.tasks_running, s.ntasks,
               s.tasks_failed);
        printf("%-40s %9s %14s %14s %14s %12s\n", "TOPIC", "PARTITION", "C", "POSITION", "LOG_END",
               "LAG");
    }
    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        const struct mm2_source_offset *o =
            mm2_source_offsets_find(&offs, plan->alias, e->topic, e->partition);
        /* Without an offset MM2 starts at auto.offset.reset=earliest: the log start. */
        int64_t pos = o != NULL ? o->offset + 1 : start[i];
        int64_t lag = end[i] > pos ? end[i] - pos : 0;
        total_lag += lag;
        if (json) {
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "topic", e->topic);
            cJSON_AddItemToObject(x, "partition", mm2_json_int(e->partition));
            cJSON_AddItemToObject(x, "c", mm2_json_int(e->c));
            cJSON_AddItemToObject(x, "position", mm2_json_int(pos));
            cJSON_AddBoolToObject(x, "has_offset", o != NULL);
            cJSON_AddItemToObject(x, "log_end", mm2_json_int(end[i]));
            cJSON_AddItemToObject(x, "lag", mm2_json_int(lag));
            cJSON_AddItemToArray(arr, x);
        } else {
            printf("%-40s %9d %14lld %13lld%s %14lld %12lld\n", e->topic, (int)e->partition,
                   (long long)e->c, (long long)pos, o != NULL ? " " : "*", (long long)end[i],
                   (long long)lag);
        }
    }
    if (json) {
        char *text;
        cJSON_AddItemToObject(root, "total_lag", mm2_json_int(total_lag));
        text = mm2_json_print(root, true);
        if (text != NULL)
            fputs(text, stdout);
        free(text);
    } else {
        printf("total lag %lld records over %zu partitions (* = no offset yet: starts at the log "
               "start)\n",
               (long long)total_lag, plan->n);
    }
    if (!s.exists || s.state == MM2_CSTATE_FAILED || s.tasks_failed > 0) {
        mm2_log_error(&j->log, "connector %s is %s%s%s", plan->connector,
                      s.exists ? mm2_cstate_name(s.state) : "absent",
                      s.first_bad_task[0] != '\0' ? ", " : "", s.first_bad_task);
        rc = MM2_CHECK_FAILED;
    }
out:
    cJSON_Delete(root);
    mm2_source_offsets_free(&offs);
    free(tps);
    free(start);
    free(end);
    return rc;
}

int cmd_status(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *format = NULL;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},
        {"plan", 'p', JOB_OPT_STRING, &plan_path},
        {"format", 'f', JOB_OPT_STRING, &format},
    };
    struct mm2_plan plan = {0};
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (format != NULL && strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        return job_usage_error(j, "--format must be text or json, got \"%.40s\"", format);
    rc = job_load_plan(j, config, plan_path, &plan);
    if (rc == MM2_OK)
        rc = show(j, &plan, format != NULL && strcmp(format, "json") == 0);
    mm2_plan_free(&plan);
    return rc;
}
