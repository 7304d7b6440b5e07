/* record: a file of this migration put in the audit trail after the fact (see record.h): an
 * artifact or report of mm2-offsets, its seal checked and its migration that of the INI file, or
 * rollback-plan's CSV. It is recorded under the step that wrote it, so that `status --trail`
 * counts it where it belongs. */
#include "record.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "mm2_artifact.h"
#include "mm2_cli.h"
#include "mm2_file.h"
#include "mm2_trail.h"
#include "options.h"
#include "trail.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "recorded"},
    {MM2_CHECK_FAILED, "refused: the file is another migration's"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file, the file (not an artifact, its seal broken), or the trail topic"},
    {MM2_UNREACHABLE, "Kafka, or timed out"},
    {MM2_UNEXPECTED, "Kafka"},
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: " PROG " record --config FILE --file FILE\n"
                 "Puts a file of this migration in the audit trail ([trail] topic on the target):\n"
                 "an artifact or report that mm2-offsets wrote while the trail could not be\n"
                 "reached (its seal is checked, and it must be this INI file's migration's), or\n"
                 "the CSV that rollback-plan wrote. It is recorded under the step that wrote it.\n"
                 "\n"
                 "Options:\n"
                 "  -c, --config FILE  the migration INI file\n"
                 "  -F, --file FILE    the file to record\n");
    job_usage_end(out, 21, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* The step that writes artifacts of kind (the part before '/'), for the trail's order. */
static const char *step_of(const char *kind, const cJSON *tree)
{
    static const struct {
        const char *kind, *step;
    } steps[] = {
        {"mm2kit.export", "export"}, {"mm2kit.plan", "plan"},           {"mm2kit.backup", "apply"},
        {"mm2kit.check", "check"},   {"mm2kit.preflight", "preflight"}, {"mm2kit.stop", "stop"},
        {"mm2kit.remove", "remove"}, {"mm2kit.resume", "resume"},       {"mm2kit.accept", "accept"},
    };
    size_t n = strcspn(kind, "/");

    if (strncmp(kind, "mm2kit.verify", n) == 0 && n == strlen("mm2kit.verify"))
        /* apply's report carries its backup; verify's does not */
        return cJSON_GetObjectItemCaseSensitive(tree, "backup") != NULL ? "apply" : "verify";
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
        if (strlen(steps[i].kind) == n && strncmp(kind, steps[i].kind, n) == 0)
            return steps[i].step;
    return NULL;
}

/* The connector and Flink group the artifact names: an export's and a plan's own members, a
 * report's "migration" object. */
static void names_of(const cJSON *tree, const char **connector, const char **group)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(tree, "migration");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(tree, "connector");
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(tree, "flink");

    *connector = *group = NULL;
    if (cJSON_IsObject(m)) {
        *connector = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "connector"));
        *group = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "flink_group_id"));
    } else if (cJSON_IsObject(c) && cJSON_IsObject(f)) {
        *connector = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
        *group = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "group_id"));
    }
}

/* A rollback CSV: TOPIC,PARTITION,OFFSET lines only. */
static bool csv_like(const char *text, size_t len)
{
    size_t commas = 0;

    if (len == 0 || text[len - 1] != '\n')
        return false;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == ',')
            commas++;
        else if (text[i] == '\n') {
            if (commas != 2)
                return false;
            commas = 0;
        } else if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] > 0x7e)
            return false;
    }
    return true;
}

static int record_json(struct job *j, const char *path, const char *text, size_t len)
{
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    const char *connector, *group, *step;
    cJSON *tree = cJSON_ParseWithLength(text, len);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(tree, "kind");
    int rc = MM2_OK;

    if (!cJSON_IsString(kind) || strncmp(kind->valuestring, "mm2kit.", 7) != 0 ||
        (step = step_of(kind->valuestring, tree)) == NULL) {
        mm2_log_error(&j->log,
                      "%s is not an artifact or report of " PROG " (no known \"kind\"): "
                      "only those and rollback-plan's CSV are recorded",
                      path);
        cJSON_Delete(tree);
        return MM2_CONFIG;
    }
    char what[300];

    (void)snprintf(what, sizeof(what), "file %.280s", path);
    if (mm2_artifact_verify(what, tree, kind->valuestring, digest, &err) != MM2_OK) {
        cJSON_Delete(tree);
        return job_fail(j, &err);
    }
    names_of(tree, &connector, &group);
    if (connector == NULL || group == NULL || strcmp(connector, j->conn.name) != 0 ||
        strcmp(group, j->cfg.group) != 0) {
        mm2_log_error(&j->log,
                      "refused: %s is of connector %s and Flink group %s, not of this INI file's "
                      "migration (connector %s, group %s) [rule binding]",
                      path, connector ? connector : "(none)", group ? group : "(none)",
                      j->conn.name, j->cfg.group);
        cJSON_Delete(tree);
        return MM2_CHECK_FAILED;
    }
    if (job_trail_put(j, step, kind->valuestring, path, text, len, digest, &err) != MM2_OK)
        rc = job_fail(j, &err);
    cJSON_Delete(tree);
    return rc;
}

int cmd_record(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *file = NULL;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},
        {"file", 'F', JOB_OPT_STRING, &file},
    };
    struct mm2_error err = {0};
    char *text = NULL;
    size_t len = 0;
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (config == NULL)
        return job_usage_error(j, "--config FILE is required (the migration INI file)");
    if (file == NULL)
        return job_usage_error(j, "--file FILE is required (the file to record)");
    rc = job_load(j, config);
    if (rc != MM2_OK)
        return rc;
    if (!j->cfg.trail_enabled) {
        mm2_log_error(&j->log, "[trail] enabled = false in %s: there is no trail to record in",
                      j->cfg.path);
        return MM2_CONFIG;
    }
    if (mm2_file_read("file", file, (size_t)MM2_TRAIL_DOC_MAX, &text, &len, &err) != MM2_OK)
        return job_fail(j, &err);
    if (len > 0 && text[0] == '{')
        rc = record_json(j, file, text, len);
    else if (csv_like(text, len))
        rc = job_trail_put(j, "rollback-plan", JOB_TRAIL_KIND_CSV, file, text, len, NULL, &err) ==
                     MM2_OK
                 ? MM2_OK
                 : job_fail(j, &err);
    else {
        mm2_log_error(&j->log,
                      "%s is neither a JSON artifact of " PROG " nor rollback-plan's "
                      "CSV (TOPIC,PARTITION,OFFSET lines)",
                      file);
        rc = MM2_CONFIG;
    }
    free(text);
    return rc;
}
