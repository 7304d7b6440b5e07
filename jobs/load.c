/* load: the INI file and the plan a subcommand's command line names (see load.h). */
#include "load.h"

#include <string.h>

#include "bind.h"
#include "mm2_artifact.h"
#include "mm2_binding.h"

int job_load(struct job *j, const char *config_path)
{
    struct mm2_problems p = {0};
    struct mm2_error err = {0};

    if (config_path == NULL)
        return job_usage_error(j, "--config FILE is required (the migration INI file)");
    if (mm2_config_load(config_path, &j->cfg, &p) != MM2_OK) {
        /* Values from the environment may be secrets, even in a message about another key. */
        for (size_t i = 0; i < j->cfg.nsecrets; i++)
            (void)mm2_log_add_secret(&j->log, j->cfg.secrets[i]);
        for (size_t i = 0; i < p.n; i++)
            mm2_log_error(&j->log, "%s", p.line[i]);
        if (p.dropped > 0)
            mm2_log_error(&j->log, "... and %zu more problems", p.dropped);
        mm2_config_free(&j->cfg);
        j->log.nsecrets = 0; /* they pointed into the config just freed */
        return MM2_CONFIG;
    }
    j->cfg_loaded = true;
    for (size_t i = 0; i < j->cfg.nsecrets; i++)
        (void)mm2_log_add_secret(&j->log, j->cfg.secrets[i]);
    if (mm2_connector_load(j->cfg.connector_file, &j->conn, &err) != MM2_OK) {
        mm2_log_error(&j->log, "[connector] file: %s", err.msg);
        return MM2_CONFIG;
    }
    return MM2_OK;
}

int job_read_plan(struct job *j, const char *path, struct mm2_plan *plan)
{
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    struct mm2_binding b;
    cJSON *tree;
    int rc;

    if (path == NULL)
        return job_usage_error(j, "--plan FILE is required (the plan.json that was reviewed)");
    if (mm2_artifact_read("plan", path, MM2_KIND_PLAN, &tree, digest, &err) != MM2_OK)
        return job_fail(j, &err);
    /* An update's plan starts a few partitions of a running connector: only update applies it,
     * and check proves it; the cutover's steps would take it for the whole migration. */
    if (cJSON_GetObjectItemCaseSensitive(tree, "update") != NULL && strcmp(j->cmd, "check") != 0) {
        cJSON_Delete(tree);
        mm2_log_error(&j->log,
                      "%s is an update's plan (mm2-offsets update), not the cutover's: apply it "
                      "with update --plan, prove it with check --plan",
                      path);
        return MM2_CONFIG;
    }
    if (mm2_plan_from_json(tree, plan, &err) != MM2_OK) {
        cJSON_Delete(tree);
        mm2_plan_free(plan);
        mm2_error_prefix(&err, "%s", path);
        return job_fail(j, &err);
    }
    cJSON_Delete(tree);
    memcpy(plan->digest, digest, sizeof(digest));
    mm2_binding_of_plan(plan, &b);
    rc = job_bound(j, "plan", &b, plan->connect_version, "Connect was not touched");
    if (rc != MM2_OK)
        mm2_plan_free(plan);
    return rc;
}

int job_load_plan(struct job *j, const char *config, const char *plan_path, struct mm2_plan *plan)
{
    int rc;

    if (config == NULL)
        return job_usage_error(j, "--config FILE is required (the migration INI file)");
    if (plan_path == NULL)
        return job_usage_error(j, "--plan FILE is required (the reviewed plan)");
    rc = job_load(j, config);
    return rc != MM2_OK ? rc : job_read_plan(j, plan_path, plan);
}

int job_plan_options(struct job *j, int argc, char **argv, const char **config, const char **plan,
                     const struct job_opt *own, size_t nown, void (*usage)(FILE *out),
                     struct mm2_plan *loaded, bool *done)
{
    struct job_opt opts[10] = {
        {"config", 'c', JOB_OPT_STRING, config},
        {"plan", 'p', JOB_OPT_STRING, plan},
    };
    int rc;

    *done = false;
    if (nown > sizeof(opts) / sizeof(opts[0]) - 2)
        return job_usage_error(j, "too many options (internal)");
    for (size_t i = 0; i < nown; i++)
        opts[2 + i] = own[i];
    rc = job_options(j, argc, argv, opts, 2 + nown, usage, done);
    if (rc != MM2_OK || *done || loaded == NULL)
        return rc;
    return job_load_plan(j, *config, *plan, loaded);
}
