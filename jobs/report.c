/* report: a subcommand's report, with its migration, sealed, written and printed (see report.h). */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_artifact.h"
#include "mm2_binding.h"
#include "mm2_json.h"
#include "trail.h"

enum mm2_status job_add_migration(cJSON *report, const struct mm2_plan *plan, struct mm2_error *err)
{
    struct mm2_binding b;

    mm2_binding_of_plan(plan, &b);
    return mm2_binding_add_json(report, &b, err);
}

enum mm2_status job_report(struct job *j, const char *what, cJSON *report, const char *path,
                           struct mm2_error *err)
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
    fflush(stdout);
    {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(report, "kind");
        char file[64];

        (void)snprintf(file, sizeof(file), "%s.json", j->cmd);
        st = job_trail_put(j, j->cmd, cJSON_IsString(kind) ? kind->valuestring : "mm2kit.unknown",
                           path != NULL ? path : file, text, strlen(text), digest, err);
        if (st != MM2_OK) {
            j->trail_failed = true;
            job_trail_unrecorded(j, err, path);
        }
    }
    free(text);
    return st;
}

void job_add_offsets(cJSON *arr, const struct mm2_source_offsets *offs)
{
    for (size_t i = 0; i < offs->n; i++) {
        cJSON *o = cJSON_CreateObject();
        if (o == NULL)
            break;
        cJSON_AddStringToObject(o, "cluster", offs->v[i].cluster);
        cJSON_AddStringToObject(o, "topic", offs->v[i].topic);
        cJSON_AddItemToObject(o, "partition", mm2_json_int(offs->v[i].partition));
        cJSON_AddItemToObject(o, "offset", mm2_json_int(offs->v[i].offset));
        cJSON_AddItemToArray(arr, o);
    }
}
