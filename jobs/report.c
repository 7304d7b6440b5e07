/* report: a subcommand's report, with its migration, sealed, written and printed (see report.h). */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>

#include "mm2_artifact.h"
#include "mm2_binding.h"

enum mm2_status job_add_migration(cJSON *report, const struct mm2_plan *plan, struct mm2_error *err)
{
    struct mm2_binding b;

    mm2_binding_of_plan(plan, &b);
    return mm2_binding_add_json(report, &b, err);
}

enum mm2_status job_report(const char *what, cJSON *report, const char *path, struct mm2_error *err)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    char *text;
    enum mm2_status st = mm2_artifact_seal(report, digest, err);

    if (st == MM2_OK && path != NULL)
        st = mm2_artifact_write(what, path, report, digest, err);
    if (st != MM2_OK)
        return st;
    text = mm2_artifact_text(report);
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory printing the %s", what);
    fputs(text, stdout);
    free(text);
    return MM2_OK;
}
