/* resume: the separate, explicit step after a person approved the plan (docs/ARCHITECTURE.md §2.1):
 * only with --approve equal to the plan's digest; re-checks the facts and verifies again, then
 * PUT /connectors/NAME/resume and waits for the connector and every task to be RUNNING. */
#include "resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "load.h"
#include "mm2_artifact.h"
#include "mm2_cli.h"
#include "mm2_connlive.h"
#include "mm2_json.h"
#include "options.h"
#include "recheck.h"
#include "report.h"
#include "stopped.h"

#define DEFAULT_WAIT_MS 120000L

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "running"},
    {MM2_CHECK_FAILED, "refused: the digest, the facts or verify; or a task FAILED"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Kafka or Connect, or not RUNNING in time"},
    {MM2_UNEXPECTED, "Kafka or Connect"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " resume --config FILE --plan FILE --approve DIGEST [--timeout "
            "SECONDS]\n"
            "Starts the connector, only when DIGEST is the plan's digest (the one plan printed\n"
            "and a person approved). Re-checks the plan's facts, proves again that Flink is\n"
            "still stopped (its group has no member and its committed offsets are C; the\n"
            "target's partitions end where they did at export) and verifies the offsets again\n"
            "first; then PUT /connectors/NAME/resume and waits until the connector and all its\n"
            "tasks are RUNNING. From then on MM2 reads every partition from C.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE        the migration INI file\n"
            "  -p, --plan FILE          the approved plan\n"
            "  -a, --approve DIGEST     the plan's digest, sha256:...\n"
            "  -t, --timeout SECONDS    how long to wait for RUNNING (%ld)\n",
            DEFAULT_WAIT_MS / 1000);
    job_usage_end(out, 27, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* The approval, as a sealed record (kind MM2_KIND_RESUME) printed on stdout and put in the audit
 * trail before MM2 starts. */
static enum mm2_status record_approval(struct job *j, const struct mm2_plan *plan,
                                       const char *plan_path, size_t verified,
                                       struct mm2_error *err)
{
    char now[32], host[256] = "";
    cJSON *root = cJSON_CreateObject();
    enum mm2_status st;

    job_utc_now(now, sizeof(now));
    (void)gethostname(host, sizeof(host) - 1);
    if (root == NULL || cJSON_AddStringToObject(root, "kind", MM2_KIND_RESUME) == NULL ||
        cJSON_AddStringToObject(root, "created", now) == NULL ||
        cJSON_AddStringToObject(root, "approved_plan_digest", plan->digest) == NULL ||
        cJSON_AddStringToObject(root, "plan_file", plan_path) == NULL ||
        cJSON_AddStringToObject(root, "host", host) == NULL ||
        !cJSON_AddItemToObject(root, "verified_partitions", mm2_json_int((int64_t)verified))) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    st = job_add_migration(root, plan, err);
    if (st == MM2_OK)
        st = job_report(j, "resume record", root, NULL, err);
    cJSON_Delete(root);
    return st;
}

/* [policy] max.pause.seconds: a warning when the pause so far exceeds it (refusing would only
 * make it longer), how much of it is used otherwise. */
static void pause_said(struct job *j, const struct mm2_plan *plan)
{
    char line[512];

    if (mm2_policy_pause_text(&j->cfg.policy,
                              mm2_policy_pause_s(plan->created, (long long)time(NULL)), line,
                              sizeof(line)))
        job_warn(j, "%s", line);
    else if (line[0] != '\0')
        job_info(j, "%s", line);
}

int cmd_resume(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *approve = NULL;
    long timeout_ms = DEFAULT_WAIT_MS;
    const struct job_opt own[] = {
        {"approve", 'a', JOB_OPT_STRING, &approve},
        {"timeout", 't', JOB_OPT_SECONDS, &timeout_ms},
    };
    struct mm2_plan plan = {0};
    struct mm2_refusals r = {0};
    struct job_comparison vr = {0};
    struct mm2_error err = {0};
    bool done;
    int rc = job_plan_options(j, argc, argv, &config, &plan_path, own, sizeof(own) / sizeof(own[0]),
                              usage, NULL, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (approve == NULL)
        return job_usage_error(j, "--approve DIGEST is required: the plan digest a person "
                                  "approved (plan printed it)");
    rc = job_load_plan(j, config, plan_path, &plan);
    if (rc != MM2_OK)
        return rc;
    if (strcmp(approve, plan.digest) != 0) {
        mm2_refuse(&r,
                   "--approve %.80s is not this plan's digest %s: approve the plan you reviewed "
                   "[rule approval]",
                   approve, plan.digest);
        rc = job_refused(j, &r, "the connector was not resumed");
        goto out;
    }
    if (job_recheck(j, &plan, &r, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    if (r.n == 0 && job_recheck_flink(j, &plan, &r, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    if (r.n > 0) {
        rc = job_refused(j, &r, "the connector was not resumed");
        goto out;
    }
    if (job_compare(j, &plan, &vr, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    if (vr.mismatches > 0) {
        job_compare_failed(j, "", &vr, "the connector was not resumed");
        rc = MM2_CHECK_FAILED;
        goto out;
    }
    if (record_approval(j, &plan, plan_path, vr.checked, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        mm2_log_error(&j->log, "the connector was not resumed: its approval must be on record "
                               "in the audit trail first");
        goto out;
    }
    pause_said(j, &plan);
    job_info(j, "verified %zu partitions; PUT /connectors/%s/resume (approved %s)", vr.checked,
             plan.connector, plan.digest);
    if (mm2_connect_put_state(j->connect, plan.connector, "resume", &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    rc = job_wait_running(j, plan.connector, timeout_ms);
out:
    cJSON_Delete(vr.report);
    mm2_refusals_free(&r);
    mm2_plan_free(&plan);
    return rc;
}
