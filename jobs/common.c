/* job: what the mm2-offsets subcommands share: logging, the INI file and the plan, the clients,
 * reports and the closing line (see job.h). Option parsing is options.c; the plan's re-check,
 * recheck.c; the offsets read-back, readback.c; the comparison with the plan, verify.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "job.h"
#include "mm2_artifact.h"
#include "mm2_binding.h"
#include "mm2_http.h"

static void vlog(struct job *j, int level, const char *fmt, va_list ap)
{
    char msg[MM2_LOG_LINE_MAX];

    if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
        msg[0] = '\0';
    if (level == MM2_LOG_WARN)
        mm2_log_warn(&j->log, "%s", msg);
    else
        mm2_log_info(&j->log, "%s", msg);
}

void job_info(struct job *j, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog(j, MM2_LOG_INFO, fmt, ap);
    va_end(ap);
}

void job_warn(struct job *j, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog(j, MM2_LOG_WARN, fmt, ap);
    va_end(ap);
}

int job_fail(struct job *j, const struct mm2_error *err)
{
    if (err->msg[0] != '\0')
        mm2_log_error(&j->log, "%s", err->msg);
    return err->code != MM2_OK ? (int)err->code : (int)MM2_UNEXPECTED;
}

int job_refused(struct job *j, const struct mm2_refusals *r, const char *what_not_done)
{
    for (size_t i = 0; i < r->n; i++)
        mm2_log_error(&j->log, "refused: %s", r->line[i]);
    mm2_log_error(&j->log, "%zu refusal%s; %s", r->n, r->n == 1 ? "" : "s", what_not_done);
    return MM2_CHECK_FAILED;
}

void job_sleep_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

    while (nanosleep(&ts, &ts) != 0)
        ;
}

void job_utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;

    if (gmtime_r(&now, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        (void)snprintf(buf, len, "unknown");
}

void job_utc_stamp(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;

    if (gmtime_r(&now, &tm) == NULL || strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm) == 0)
        (void)snprintf(buf, len, "now");
}

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

static void on_retry(void *ctx, const char *what, long status, const char *why, long wait_ms)
{
    struct job *j = ctx;

    job_info(j, "%s answered HTTP %ld (%s); retrying in %ld ms", what, status, why, wait_ms);
}

enum mm2_status job_connect(struct job *j, struct mm2_error *err)
{
    enum mm2_status st;

    if (j->connect != NULL)
        return MM2_OK;
    if (!j->curl_up) {
        st = mm2_http_global_init(err);
        if (st != MM2_OK)
            return st;
        j->curl_up = true;
    }
    st = mm2_connect_new(j->cfg.connect_url, j->cfg.request_timeout_ms, j->cfg.retry_budget_ms,
                         &j->connect, err);
    if (st != MM2_OK)
        return mm2_error_prefix(err, "[connect] url");
    /* An https url signed by the REST listener's own CA (the HTTPS worker profile). */
    if (j->cfg.connect_ca != NULL &&
        mm2_connect_set_cacert(j->connect, j->cfg.connect_ca, err) != MM2_OK)
        return mm2_error_prefix(err, "[connect] ca.location");
    mm2_connect_set_notify(j->connect, on_retry, j);
    return MM2_OK;
}

enum mm2_status job_kafka(struct job *j, bool source, bool target, struct mm2_error *err)
{
    enum mm2_status st = MM2_OK;

    if (source && j->source == NULL)
        st = mm2_kafka_new("source", j->cfg.source, j->cfg.nsource, &j->source, err);
    if (st == MM2_OK && target && j->target == NULL)
        st = mm2_kafka_new("target", j->cfg.target, j->cfg.ntarget, &j->target, err);
    return st;
}

enum mm2_status job_mirror(struct job *j, const char *kafka_version, struct mm2_error *err)
{
    if (j->mirror != NULL)
        return MM2_OK;
    return mm2_mirror_new(j->conn.config, kafka_version, &j->mirror, err) == MM2_OK
               ? MM2_OK
               : mm2_error_prefix(err, "connector %s", j->conn.name);
}

void job_kafka_deadline(const struct job *j, struct mm2_deadline *dl)
{
    mm2_deadline_start(dl, j->cfg.request_timeout_ms);
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

void job_phase(struct job *j, const char *what, long *since_ms)
{
    long now = mm2_now_ms();

    mm2_log_debug(&j->log, "%s: %ld ms", what, now - *since_ms);
    *since_ms = now;
}

void job_summary(struct job *j, long started_ms, int rc)
{
    long kafka = (j->source != NULL ? mm2_kafka_requests(j->source) : 0) +
                 (j->target != NULL ? mm2_kafka_requests(j->target) : 0);
    long rest = j->connect != NULL ? mm2_connect_requests(j->connect) : 0;

    job_info(j,
             "finished with exit code %d in %ld ms (%ld ms of it waiting on purpose): %ld Kafka "
             "request%s, %ld REST request%s",
             rc, mm2_now_ms() - started_ms, j->waited_ms, kafka, kafka == 1 ? "" : "s", rest,
             rest == 1 ? "" : "s");
}

void job_free(struct job *j)
{
    mm2_mirror_free(j->mirror);
    mm2_kafka_free(j->source);
    mm2_kafka_free(j->target);
    mm2_connect_free(j->connect);
    if (j->curl_up)
        mm2_http_global_cleanup();
    mm2_connector_free(&j->conn);
    if (j->cfg_loaded)
        mm2_config_free(&j->cfg);
    memset(j, 0, sizeof(*j));
}
