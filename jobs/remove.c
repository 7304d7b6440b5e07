/* remove: the rollback before MM2 ever ran (docs/RUNBOOK.md): the connector apply created is
 * deleted with its offsets, so that nothing of the migration is left on the Connect cluster and
 * Flink resumes from its own savepoint and group offsets, which nothing here touches. Only while
 * verify would pass: the connector STOPPED with no task, the plan's config, and exactly the
 * plan's offsets. Offsets that differ mean MM2 ran (or someone wrote them): then the rollback is
 * stop and rollback-plan, which keep what MM2 copied in account. The offsets go first
 * (DELETE .../offsets, KIP-875, only on a STOPPED connector): a connector created later under
 * the same name would otherwise start from them. The report lists what was deleted. */
#include "remove.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "compare.h"
#include "load.h"
#include "mm2_cli.h"
#include "mm2_connlive.h"
#include "mm2_json.h"
#include "options.h"
#include "readback.h"
#include "report.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "removed, or there was no connector"},
    {MM2_CHECK_FAILED, "refused: the connector is not as the plan left it (MM2 ran?)"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Kafka or Connect"},
    {MM2_UNEXPECTED, "Connect"},
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: " PROG " remove --config FILE --plan FILE [--report FILE]\n"
                 "The rollback before MM2 ever ran: deletes the connector apply created, offsets\n"
                 "first, so nothing of the migration stays on the Connect cluster and Flink\n"
                 "resumes from its own savepoint and group offsets (not touched). Only while\n"
                 "verify passes: STOPPED with no task, the plan's config and exactly the plan's\n"
                 "offsets; offsets that differ mean MM2 ran: then use stop and rollback-plan.\n"
                 "Prints a sealed report (JSON) of the offsets it deleted.\n"
                 "\n"
                 "Options:\n"
                 "  -c, --config FILE  the migration INI file\n"
                 "  -p, --plan FILE    the applied plan\n"
                 "  -r, --report FILE  also write the report there\n");
    job_usage_end(out, 21, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

static cJSON *remove_report(const struct mm2_plan *plan, const struct mm2_source_offsets *offs,
                            struct mm2_error *err)
{
    cJSON *rep = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    char now[32];

    if (rep == NULL || arr == NULL) {
        cJSON_Delete(rep);
        cJSON_Delete(arr);
        mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        return NULL;
    }
    job_utc_now(now, sizeof(now));
    cJSON_AddStringToObject(rep, "kind", "mm2kit.remove/v1");
    cJSON_AddStringToObject(rep, "connector", plan->connector);
    cJSON_AddStringToObject(rep, "plan_digest", plan->digest);
    cJSON_AddStringToObject(rep, "removed_at", now);
    job_add_offsets(arr, offs);
    cJSON_AddItemToObject(rep, "offsets_deleted", arr);
    if (job_add_migration(rep, plan, err) != MM2_OK) {
        cJSON_Delete(rep);
        return NULL;
    }
    return rep;
}

/* Deletes the offsets, reads them back (none left), deletes the connector, reads its status
 * back (gone). */
static enum mm2_status delete_all(struct job *j, const char *name, struct mm2_error *err)
{
    struct mm2_source_offsets left = {0};
    struct mm2_connlive v;
    enum mm2_status st;

    job_info(j, "DELETE /connectors/%s/offsets", name);
    st = mm2_connect_reset_offsets(j->connect, name, err);
    if (st == MM2_OK)
        st = job_read_offsets(j, name, NULL, &left, err);
    if (st == MM2_OK && left.n > 0)
        st = mm2_error_set(err, MM2_UNEXPECTED,
                           "connector %s still holds %zu source offsets after DELETE "
                           ".../offsets; run remove again",
                           name, left.n);
    mm2_source_offsets_free(&left);
    if (st != MM2_OK)
        return st;
    job_info(j, "DELETE /connectors/%s", name);
    st = mm2_connect_delete(j->connect, name, err);
    if (st == MM2_OK)
        st = mm2_connlive_read(j->connect, name, &v, err);
    if (st == MM2_OK && v.s.exists)
        st = mm2_error_set(err, MM2_UNEXPECTED,
                           "connector %s still exists after DELETE; run remove again", name);
    return st;
}

static int run(struct job *j, const struct mm2_plan *plan, const char *report)
{
    struct job_comparison vr = {0};
    struct mm2_source_offsets offs = {0};
    struct mm2_connlive v;
    struct mm2_error err = {0};
    cJSON *rep = NULL;
    int rc = MM2_OK;

    if (job_connect(j, &err) != MM2_OK ||
        mm2_connlive_read(j->connect, plan->connector, &v, &err) != MM2_OK)
        return job_fail(j, &err);
    if (!v.s.exists) {
        job_info(j,
                 "connector %s does not exist: nothing to remove; Flink resumes from its own "
                 "group offsets",
                 plan->connector);
        return MM2_OK;
    }
    if (job_compare(j, plan, &vr, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else if (vr.mismatches > 0) {
        job_compare_failed(j, "", &vr,
                           "nothing was removed: if MM2 ran, run stop, then rollback-plan");
        rc = MM2_CHECK_FAILED;
    } else if (job_read_offsets(j, plan->connector, plan, &offs, &err) != MM2_OK ||
               delete_all(j, plan->connector, &err) != MM2_OK ||
               (rep = remove_report(plan, &offs, &err)) == NULL ||
               job_report(j, "remove report", rep, report, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else {
        job_info(j,
                 "connector %s and its %zu source offsets deleted; Flink resumes from its own "
                 "group offsets",
                 plan->connector, offs.n);
    }
    cJSON_Delete(rep);
    cJSON_Delete(vr.report);
    mm2_source_offsets_free(&offs);
    return rc;
}

int cmd_remove(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *report = NULL;
    const struct job_opt own[] = {
        {"report", 'r', JOB_OPT_STRING, &report},
    };
    struct mm2_plan plan = {0};
    bool done;
    int rc = job_plan_options(j, argc, argv, &config, &plan_path, own, sizeof(own) / sizeof(own[0]),
                              usage, &plan, &done);

    if (rc == MM2_OK && !done)
        rc = run(j, &plan, report);
    mm2_plan_free(&plan);
    return rc;
}
