/* job: one run's voice on stderr, its clock and its end (see job.h). */
#include "job.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mm2_cli.h"
#include "mm2_deadline.h"
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

int job_usage_error(struct job *j, const char *fmt, ...)
{
    va_list ap;
    enum mm2_status st;

    va_start(ap, fmt);
    st = mm2_cli_vusage_error(&j->log, fmt, ap);
    va_end(ap);
    return st;
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

void job_phase(struct job *j, const char *what, long *since_ms)
{
    long now = mm2_deadline_now_ms();

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
             rc, mm2_deadline_now_ms() - started_ms, j->waited_ms, kafka, kafka == 1 ? "" : "s",
             rest, rest == 1 ? "" : "s");
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
