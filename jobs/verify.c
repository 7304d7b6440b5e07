/* verify: the subcommand that reads the connector back and compares it with the plan, 100%
 * (compare.c, docs/ARCHITECTURE.md §2.1, §6.4), prints the report and exits 1 on any mismatch.
 * Changes nothing. */
#include "verify.h"

#include <stdio.h>

#include "clients.h"
#include "compare.h"
#include "load.h"
#include "mm2_cli.h"
#include "options.h"
#include "report.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "everything matches"},
    {MM2_CHECK_FAILED, "a mismatch, or the plan of another migration"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Connect or Kafka, or timed out"},
    {MM2_UNEXPECTED, "Connect or Kafka"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " verify --config FILE --plan FILE [--report FILE]\n"
            "Reads the connector's offsets back (GET /connectors/NAME/offsets) and compares\n"
            "them with the plan: every {\"offset\": M} present and equal, every null entry\n"
            "absent, no other offset under the plan's topics and source alias, and the\n"
            "connector STOPPED with zero tasks and the plan's config. Prints the report (JSON)\n"
            "on stdout and one line per mismatch on stderr.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE  the migration INI file\n"
            "  -p, --plan FILE    the plan\n"
            "  -r, --report FILE  also write the report there\n");
    job_usage_end(out, 21, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

int cmd_verify(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *report = NULL;
    const struct job_opt own[] = {
        {"report", 'r', JOB_OPT_STRING, &report},
    };
    struct mm2_plan plan = {0};
    struct job_comparison vr = {0};
    struct mm2_error err = {0};
    bool done;
    int rc = job_plan_options(j, argc, argv, &config, &plan_path, own, sizeof(own) / sizeof(own[0]),
                              usage, &plan, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (job_connect(j, &err) != MM2_OK || job_compare(j, &plan, &vr, &err) != MM2_OK ||
        job_report(j, "verify report", vr.report, report, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else {
        if (vr.mismatches > 0) {
            job_compare_failed(j, "", &vr, NULL);
            rc = MM2_CHECK_FAILED;
        } else {
            job_info(j, "all %zu partitions match the plan %s", vr.checked, plan.digest);
        }
    }
    cJSON_Delete(vr.report);
    mm2_plan_free(&plan);
    return rc;
}
