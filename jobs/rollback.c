/* rollback-plan: from the connector's offsets M, the Flink group position C = M + 1
 * per partition, as the CSV that kafka-consumer-groups.sh --reset-offsets --from-file reads
 * (TOPIC,PARTITION,OFFSET), and with --commit committed to the Flink group directly. Needs the
 * connector STOPPED first: a running MM2 moves on while Flink would start. */
#include "rollback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "load.h"
#include "mm2_cli.h"
#include "mm2_file.h"
#include "mm2_rollback.h"
#include "options.h"
#include "readback.h"
#include "stopped.h"
#include "trail.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "written, and committed with --commit"},
    {MM2_CHECK_FAILED, "refused: the connector absent or not STOPPED"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Kafka or Connect, or timed out"},
    {MM2_UNEXPECTED, "Kafka or Connect, a refused commit included"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " rollback-plan --config FILE --out FILE [--plan FILE] [--commit]\n"
            "For a rollback to Flink after MM2 ran: reads the STOPPED connector's\n"
            "offsets M and writes, per partition, the position Flink must resume from,\n"
            "C = M + 1, as TOPIC,PARTITION,OFFSET lines (kafka-consumer-groups.sh\n"
            "--reset-offsets --from-file). With --plan, a planned partition that MM2 holds no\n"
            "offset for keeps the plan's C (MM2 copied nothing of it). With --commit, also\n"
            "commits those offsets to the [flink] group.id on the source cluster (the group\n"
            "must have no active member).\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE  the migration INI file\n"
            "  -o, --out FILE     where to write the CSV\n"
            "  -p, --plan FILE    the applied plan (for partitions without an MM2 offset)\n"
            "  -C, --commit       commit the positions to the Flink group too\n");
    job_usage_end(out, 21, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* The connector exists, stopped as Connect decides it (job_stop_problem), so its offsets no
 * longer move. Returns 0 or the exit code. */
static int connector_stopped(struct job *j)
{
    struct mm2_connlive v;
    struct mm2_error err = {0};
    char line[MM2_REFUSAL_LEN];

    if (job_connect(j, &err) != MM2_OK ||
        mm2_connlive_read(j->connect, j->conn.name, &v, &err) != MM2_OK)
        return job_fail(j, &err);
    if (!v.s.exists) {
        mm2_log_error(&j->log,
                      "connector %s does not exist: MM2 never ran, so Flink resumes from "
                      "its own group offsets",
                      j->conn.name);
        return MM2_CHECK_FAILED;
    }
    if (job_stop_problem(j, j->conn.name, &v, MM2_VERIFY_WHY_HOLD, "then run rollback-plan again",
                         line, sizeof(line))) {
        mm2_log_error(&j->log, "refused: %s", line);
        return MM2_CHECK_FAILED;
    }
    return MM2_OK;
}

/* --commit: the rows as the Flink group's committed offsets on the source cluster. */
static enum mm2_status commit_rows(struct job *j, const struct mm2_rollback_row *rows, size_t n,
                                   struct mm2_error *err)
{
    struct mm2_tp *tps = calloc(n + 1, sizeof(*tps));
    int64_t *pos = calloc(n + 1, sizeof(*pos));
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    if (tps == NULL || pos == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < n; i++) {
        tps[i] = (struct mm2_tp){rows[i].topic, rows[i].partition};
        pos[i] = rows[i].c;
    }
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK)
        st = job_kafka(j, true, false, err);
    if (st == MM2_OK && n > 0)
        st = mm2_kafka_commit(j->source, j->cfg.group, tps, pos, n, &dl, err);
    free(tps);
    free(pos);
    return st;
}

static int run(struct job *j, const struct mm2_plan *plan, const char *out, bool commit)
{
    struct mm2_source_offsets offs = {0};
    struct mm2_error err = {0};
    struct mm2_rollback_row *rows = NULL;
    size_t n, from_plan, len;
    char *csv = NULL;
    int rc = connector_stopped(j);

    if (rc != MM2_OK)
        return rc;
    if (job_read_offsets(j, j->conn.name, NULL, &offs, &err) != MM2_OK)
        return job_fail(j, &err);
    rows = calloc(offs.n + (plan != NULL ? plan->n : 0) + 1, sizeof(*rows));
    if (rows == NULL) {
        mm2_source_offsets_free(&offs);
        return job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    }
    n = mm2_rollback_rows(&offs, j->conn.alias, plan, rows, &from_plan);
    csv = mm2_rollback_csv(rows, n, &len);
    if (csv == NULL) {
        rc = job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    } else if (mm2_file_write("rollback CSV", out, csv, len, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else if (job_trail_put(j, j->cmd, JOB_TRAIL_KIND_CSV, out, csv, len, NULL, &err) != MM2_OK) {
        /* Before --commit: what Flink is set to is on record first. */
        job_trail_unrecorded(j, &err, out);
        rc = job_fail(j, &err);
    } else {
        job_info(j, "wrote %s: %zu partitions (%zu from MM2's offsets, %zu from the plan's C)", out,
                 n, n - from_plan, from_plan);
        if (commit && commit_rows(j, rows, n, &err) != MM2_OK)
            rc = job_fail(j, &err);
        else if (commit)
            job_info(j, "committed %zu positions to group %s on the source cluster", n,
                     j->cfg.group);
    }
    free(csv);
    free(rows);
    mm2_source_offsets_free(&offs);
    return rc;
}

int cmd_rollback(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *out = NULL;
    bool commit = false;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},
        {"out", 'o', JOB_OPT_STRING, &out},
        {"plan", 'p', JOB_OPT_STRING, &plan_path},
        {"commit", 'C', JOB_OPT_FLAG, &commit},
    };
    struct mm2_plan plan = {0};
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (out == NULL)
        return job_usage_error(j, "--out FILE is required (where to write the CSV)");
    rc = job_load(j, config);
    if (rc == MM2_OK && plan_path != NULL)
        rc = job_read_plan(j, plan_path, &plan);
    if (rc == MM2_OK)
        rc = run(j, plan_path != NULL ? &plan : NULL, out, commit);
    mm2_plan_free(&plan);
    return rc;
}
