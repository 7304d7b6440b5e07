/* check: after resume, the boundary proven record by record (docs/ARCHITECTURE.md §2.1), per
 * partition: the first record MM2 appended to the target (at the target's high watermark of the
 * export) equals the source record at c, or the first one after it that exists (compaction and
 * transaction markers leave gaps); and the last record Flink wrote (just below that watermark)
 * equals the source record that the plan's boundary class says Flink wrote last (flink_source;
 * docs/mm2-offsets.1, check). */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "load.h"
#include "mm2_artifact.h"
#include "mm2_check.h"
#include "mm2_cli.h"
#include "mm2_json.h"
#include "options.h"
#include "report.h"

#define DEFAULT_WAIT_MS 60000L
#define BACK_FIRST 8
#define BACK_MAX 65536

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "every boundary proven, or pending"},
    {MM2_CHECK_FAILED, "a record differs, or MM2's first record did not arrive in time"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Kafka, or timed out"},
    {MM2_UNEXPECTED, "Kafka"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " check --config FILE --plan FILE [--timeout SECONDS] [--report "
            "FILE] [--first-only]\n"
            "After resume, per planned partition: the first record MM2 wrote to the target\n"
            "(at the target's high watermark when exported) must equal the source record at C\n"
            "(the gap's start with --start-at-gap), or the first record after it that exists;\n"
            "and the last record Flink wrote (the one before) must equal the source record the\n"
            "plan's class says Flink wrote last: the last before C, or for ahead by k the k-th\n"
            "at or after C (not compared for a boundary accepted unplaced). Keys, values (null\n"
            "too), headers and CreateTime timestamps are compared. A partition with no source\n"
            "record at or after C yet is reported as pending. Prints the report (JSON) on\n"
            "stdout.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE      the migration INI file\n"
            "  -p, --plan FILE        the plan that was applied and resumed\n"
            "  -t, --timeout SECONDS  how long to wait for MM2's first records, in all: one\n"
            "                         deadline for the whole run, not per partition (%ld)\n"
            "  -r, --report FILE      also write the report there\n"
            "  -1, --first-only       skip the check of Flink's last record (for a Flink job\n"
            "                         that did not keep partition numbers)\n",
            DEFAULT_WAIT_MS / 1000);
    job_usage_end(out, 25, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* The last data record below `below` (at or above floor), searching backwards in growing
 * windows: compaction and transaction markers leave gaps. *found false when there is none. */
static enum mm2_status last_before(struct mm2_kafka *k, const char *topic, int32_t p, int64_t floor,
                                   int64_t below, bool committed, const struct mm2_deadline *dl,
                                   struct mm2_record_list *out, bool *found, struct mm2_error *err)
{
    int64_t back = BACK_FIRST;

    *found = false;
    memset(out, 0, sizeof(*out));
    while (below > floor) {
        int64_t from = below - back > floor ? below - back : floor;
        enum mm2_status st =
            mm2_kafka_read(k, topic, p, from, below, (size_t)back, committed, dl, out, err);
        if (st != MM2_OK)
            return st;
        if (out->n > 0) {
            *found = true;
            return MM2_OK;
        }
        mm2_record_list_free(out);
        if (from == floor || back >= BACK_MAX)
            return MM2_OK;
        back *= 8;
    }
    return MM2_OK;
}

static cJSON *side(const char *status, int64_t s_off, int64_t t_off, const char *detail)
{
    cJSON *o = cJSON_CreateObject();

    cJSON_AddStringToObject(o, "status", status);
    if (s_off >= 0)
        cJSON_AddItemToObject(o, "source_offset", mm2_json_int(s_off));
    if (t_off >= 0)
        cJSON_AddItemToObject(o, "target_offset", mm2_json_int(t_off));
    if (detail != NULL && detail[0] != '\0')
        cJSON_AddStringToObject(o, "detail", detail);
    return o;
}

struct tally {
    size_t equal, pending, bad;
};

/* MM2's first record against the source from C. wait is the run's one deadline for MM2's first
 * records (--timeout, wait_ms): the partitions share it, so N partitions whose record never comes
 * cost the timeout once, not N times; once it has passed, each partition left is read once. */
static enum mm2_status first_record(struct job *j, const struct mm2_pentry *e, bool src_committed,
                                    const struct mm2_deadline *wait, long wait_ms, cJSON *row,
                                    struct tally *t, struct mm2_error *err)
{
    struct mm2_record_list s = {0}, g = {0};
    struct mm2_deadline dl;
    enum mm2_status st;
    int64_t from = e->action == MM2_ACT_OFFSET ? e->c : e->log_start;

    job_kafka_deadline(j, &dl);
    st =
        mm2_kafka_read(j->source, e->topic, e->partition, from, -1, 1, src_committed, &dl, &s, err);
    if (st != MM2_OK)
        return st;
    if (s.n == 0) {
        cJSON_AddItemToObject(row, "first",
                              side("pending", -1, -1,
                                   "no source record at or "
                                   "after C yet"));
        t->pending++;
        return MM2_OK;
    }
    for (;;) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_read(j->target, e->target_topic, e->partition, e->target_start, -1, 1, true,
                            &dl, &g, err);
        if (st != MM2_OK || g.n > 0 || mm2_deadline_expired(wait))
            break;
        long left = mm2_deadline_remaining_ms(wait);
        job_sleep_ms(left < 500 ? left : 500);
    }
    if (st == MM2_OK && g.n == 0) {
        char d[160];
        (void)snprintf(d, sizeof(d),
                       "no record at or after target offset %lld within the check's %ld ms "
                       "(--timeout)",
                       (long long)e->target_start, wait_ms);
        cJSON_AddItemToObject(row, "first", side("missing", s.v[0].offset, -1, d));
        mm2_log_error(&j->log, "%s-%d: %s", e->topic, (int)e->partition, d);
        t->bad++;
    } else if (st == MM2_OK) {
        const char *d = mm2_check_differs(&s.v[0], &g.v[0]);
        cJSON_AddItemToObject(
            row, "first",
            side(d[0] == '\0' ? "equal" : "differs", s.v[0].offset, g.v[0].offset, d));
        if (d[0] != '\0') {
            mm2_log_error(&j->log,
                          "%s-%d: MM2's first record (target offset %lld) differs from the source "
                          "record at %lld in its %s",
                          e->topic, (int)e->partition, (long long)g.v[0].offset,
                          (long long)s.v[0].offset, d);
            t->bad++;
        } else {
            t->equal++;
        }
    }
    mm2_record_list_free(&s);
    mm2_record_list_free(&g);
    return st;
}

/* The source record Flink wrote last, by the class the plan recorded (docs/mm2-offsets.1,
 * check): for ahead by k, the k-th record at or after C (Flink wrote past C, MM2 copies those
 * k again); otherwise the last record before c (C, or the gap's start with --start-at-gap).
 * The record is the last of *s; *found false when the source no longer holds it. */
static enum mm2_status flink_source(struct job *j, const struct mm2_pentry *e, bool src_committed,
                                    const struct mm2_deadline *dl, struct mm2_record_list *s,
                                    bool *found, const char **what, struct mm2_error *err)
{
    enum mm2_status st;

    if (strcmp(e->boundary, "ahead") != 0 || e->duplicates <= 0) {
        *what = "no source record before C";
        return last_before(j->source, e->topic, e->partition, e->log_start, e->c, src_committed, dl,
                           s, found, err);
    }
    *what = "the plan's last duplicate (the k-th source record at or after C) is gone";
    st = mm2_kafka_read(j->source, e->topic, e->partition, e->c, -1, (size_t)e->duplicates,
                        src_committed, dl, s, err);
    *found = st == MM2_OK && s->n == (size_t)e->duplicates;
    return st;
}

/* Flink's last record (the last target record before MM2's first) against the source record
 * that the plan's class says Flink wrote last (flink_source). A boundary the operator accepted
 * unplaced is not compared: the plan says it could not be placed. */
static enum mm2_status flink_last(struct job *j, const struct mm2_pentry *e, bool src_committed,
                                  cJSON *row, struct tally *t, struct mm2_error *err)
{
    struct mm2_record_list s = {0}, g = {0};
    struct mm2_deadline dl;
    bool fs = false, fg = false;
    const char *no_source = "";
    enum mm2_bnd_class cls;
    enum mm2_status st;

    if (mm2_bnd_class_parse(e->boundary, &cls) && cls != MM2_BND_ALIGNED && cls != MM2_BND_AHEAD &&
        cls != MM2_BND_BEHIND && cls != MM2_BND_EMPTY) {
        char d[128];
        (void)snprintf(d, sizeof(d), "the plan accepted the boundary as %s (--accept-unplaced)",
                       e->boundary);
        cJSON_AddItemToObject(row, "flink_last", side("accepted", -1, -1, d));
        return MM2_OK;
    }
    job_kafka_deadline(j, &dl);
    st = flink_source(j, e, src_committed, &dl, &s, &fs, &no_source, err);
    if (st == MM2_OK)
        st = last_before(j->target, e->target_topic, e->partition, 0, e->target_start, true, &dl,
                         &g, &fg, err);
    if (st != MM2_OK) {
        mm2_record_list_free(&s);
        mm2_record_list_free(&g);
        return st;
    }
    if (!fs || !fg) {
        cJSON_AddItemToObject(row, "flink_last",
                              side("none", fs ? s.v[s.n - 1].offset : -1,
                                   fg ? g.v[g.n - 1].offset : -1,
                                   !fs ? no_source : "no target record before the boundary"));
    } else {
        const struct mm2_record *a = &s.v[s.n - 1], *b = &g.v[g.n - 1];
        const char *d = mm2_check_differs(a, b);
        cJSON_AddItemToObject(row, "flink_last",
                              side(d[0] == '\0' ? "equal" : "differs", a->offset, b->offset, d));
        if (d[0] != '\0') {
            mm2_log_error(
                &j->log,
                "%s-%d: the last record before the boundary on the target (offset "
                "%lld) differs from the source record %s (offset %lld) in its %s: "
                "Flink's last write and the plan's boundary (%s) disagree",
                e->topic, (int)e->partition, (long long)b->offset,
                strcmp(e->boundary, "ahead") == 0 ? "Flink wrote last past C" : "before C",
                (long long)a->offset, d, e->boundary[0] != '\0' ? e->boundary : "not read");
            t->bad++;
        }
    }
    mm2_record_list_free(&s);
    mm2_record_list_free(&g);
    return MM2_OK;
}

static int run(struct job *j, const struct mm2_plan *plan, long wait_ms, bool first_only,
               const char *report)
{
    const cJSON *iso =
        cJSON_GetObjectItemCaseSensitive(j->conn.config, "source.consumer.isolation.level");
    bool src_committed = cJSON_IsString(iso) && strcmp(iso->valuestring, "read_committed") == 0;
    struct mm2_error err = {0};
    struct mm2_deadline wait;
    struct tally t = {0};
    int64_t duplicates = 0;
    cJSON *root = cJSON_CreateObject(), *rows = cJSON_CreateArray();
    char now[32];
    int rc = MM2_OK;

    if (root == NULL || rows == NULL || job_kafka(j, true, true, &err) != MM2_OK) {
        cJSON_Delete(root);
        cJSON_Delete(rows);
        return job_fail(
            j, err.msg[0] != '\0' ? &err : &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    }
    job_utc_now(now, sizeof(now));
    cJSON_AddStringToObject(root, "kind", MM2_KIND_CHECK);
    cJSON_AddStringToObject(root, "tool", PROG " " MM2KIT_VERSION);
    cJSON_AddStringToObject(root, "created", now);
    cJSON_AddStringToObject(root, "plan_digest", plan->digest);
    if (job_add_migration(root, plan, &err) != MM2_OK) {
        cJSON_Delete(root);
        cJSON_Delete(rows);
        return job_fail(j, &err);
    }
    cJSON_AddItemToObject(root, "partitions", rows);
    mm2_deadline_start(&wait, wait_ms);
    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "topic", e->topic);
        cJSON_AddItemToObject(row, "partition", mm2_json_int(e->partition));
        cJSON_AddItemToObject(row, "c", mm2_json_int(e->c));
        cJSON_AddItemToObject(row, "target_start", mm2_json_int(e->target_start));
        /* Flink's side, as the plan recorded it: MM2 copies the duplicates again, the gap's
         * records for the first time (its first record is then c, below the group's C). */
        cJSON_AddStringToObject(row, "boundary", e->boundary);
        cJSON_AddItemToObject(row, "duplicates", mm2_json_int(e->duplicates));
        cJSON_AddItemToObject(row, "gap", mm2_json_int(e->gap));
        duplicates += e->duplicates;
        cJSON_AddItemToArray(rows, row);
        if (first_record(j, e, src_committed, &wait, wait_ms, row, &t, &err) != MM2_OK ||
            (!first_only && e->action == MM2_ACT_OFFSET &&
             flink_last(j, e, src_committed, row, &t, &err) != MM2_OK)) {
            cJSON_Delete(root);
            return job_fail(j, &err);
        }
    }
    cJSON_AddItemToObject(root, "equal", mm2_json_int((int64_t)t.equal));
    cJSON_AddItemToObject(root, "boundary_duplicates", mm2_json_int(duplicates));
    cJSON_AddItemToObject(root, "pending", mm2_json_int((int64_t)t.pending));
    cJSON_AddItemToObject(root, "failed", mm2_json_int((int64_t)t.bad));
    cJSON_AddBoolToObject(root, "ok", t.bad == 0);
    if (job_report(j, "check report", root, report, &err) != MM2_OK) {
        cJSON_Delete(root);
        return job_fail(j, &err);
    }
    cJSON_Delete(root);
    if (t.bad > 0) {
        mm2_log_error(&j->log, "%zu of %zu partitions fail the boundary check", t.bad, plan->n);
        rc = MM2_CHECK_FAILED;
    } else {
        job_info(j,
                 "boundary proven on %zu partitions, %zu pending (no source record after C "
                 "yet)",
                 t.equal, t.pending);
        if (duplicates > 0)
            job_info(j,
                     "%lld boundary duplicates, as the plan expected: Flink wrote them past C "
                     "and MM2 copied them again",
                     (long long)duplicates);
    }
    return rc;
}

int cmd_check(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *report = NULL;
    long wait_ms = DEFAULT_WAIT_MS;
    bool first_only = false;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},       {"plan", 'p', JOB_OPT_STRING, &plan_path},
        {"timeout", 't', JOB_OPT_SECONDS, &wait_ms},    {"report", 'r', JOB_OPT_STRING, &report},
        {"first-only", '1', JOB_OPT_FLAG, &first_only},
    };
    struct mm2_plan plan = {0};
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    rc = job_load_plan(j, config, plan_path, &plan);
    if (rc == MM2_OK)
        rc = run(j, &plan, wait_ms, first_only, report);
    mm2_plan_free(&plan);
    return rc;
}
