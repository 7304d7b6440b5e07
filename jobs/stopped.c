/* stopped: the connector stopped as Connect decides it, and the plan's, for a subcommand about
 * to write or read its offsets (see stopped.h). */
#include "stopped.h"

#include <stdio.h>

#include "mm2_connlive.h"
#include "mm2_cstate.h"

bool job_stop_problem(struct job *j, const char *name, const struct mm2_connlive *v,
                      const char *why, const char *then, char *buf, size_t len)
{
    char line[MM2_VERIFY_NOTE_LEN];

    switch (mm2_verify_stopped(name, v, why, then, line, sizeof(line))) {
    case MM2_VERIFY_PROBLEM:
        (void)snprintf(buf, len, "%s", line);
        return true;
    case MM2_VERIFY_INFO:
        job_info(j, "%s", line);
        return false;
    case MM2_VERIFY_WARN:
        job_warn(j, "%s", line);
        return false;
    case MM2_VERIFY_NONE:
        break;
    }
    return false;
}

enum mm2_status job_connector_stopped(struct job *j, const struct mm2_plan *plan, bool *exists,
                                      struct mm2_refusals *r, struct mm2_error *err)
{
    struct mm2_connlive v;
    char line[MM2_REFUSAL_LEN];
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *live = NULL;
    enum mm2_status st = mm2_connect_config(j->connect, plan->connector, &live, err);

    *exists = false;
    if (st != MM2_OK)
        return st;
    if (live == NULL)
        return MM2_OK;
    *exists = true;
    st = mm2_connector_config_digest(live, plan->connector, digest, err);
    if (st == MM2_OK)
        (void)mm2_verify_connector_config(plan, live, digest, r);
    cJSON_Delete(live);
    if (st != MM2_OK)
        return st;
    st = mm2_connlive_read(j->connect, plan->connector, &v, err);
    if (st != MM2_OK)
        return st;
    if (job_stop_problem(j, plan->connector, &v, MM2_VERIFY_WHY_WRITE,
                         "check that its offsets have not moved past the plan, then run again",
                         line, sizeof(line)))
        mm2_refuse(r, "%s", line);
    return MM2_OK;
}

int job_wait_stopped(struct job *j, const char *name, long timeout_ms)
{
    struct mm2_deadline dl;
    struct mm2_connlive v;
    struct mm2_error err = {0};
    char line[MM2_REFUSAL_LEN];

    mm2_deadline_start(&dl, timeout_ms);
    for (;;) {
        if (mm2_connlive_read(j->connect, name, &v, &err) != MM2_OK)
            return job_fail(j, &err);
        if (!job_stop_problem(j, name, &v, MM2_VERIFY_WHY_HOLD, "then run stop again", line,
                              sizeof(line)))
            return MM2_OK;
        if (mm2_deadline_expired(&dl)) {
            mm2_log_error(&j->log, "not stopped after %ld ms: %s", timeout_ms, line);
            return MM2_UNREACHABLE;
        }
        job_sleep_ms(500);
    }
}

int job_wait_running(struct job *j, const char *name, long timeout_ms)
{
    struct mm2_deadline dl;
    struct mm2_connlive live = {0};
    const struct mm2_connector_status *s = &live.s;
    struct mm2_error err = {0};

    mm2_deadline_start(&dl, timeout_ms);
    for (;;) {
        /* Only tasks with a config count: a status left by an earlier connector of this name
         * with more tasks is never waited for (mm2_connlive_read). */
        if (mm2_connlive_read(j->connect, name, &live, &err) != MM2_OK)
            return job_fail(j, &err);
        if (s->state == MM2_CSTATE_FAILED || s->tasks_failed > 0) {
            char why[MM2_CSTATE_CAUSE_MAX + 200];
            mm2_connect_status_why(s, why, sizeof(why));
            mm2_log_error(&j->log, "connector %s is %s, %s%s", name, mm2_cstate_name(s->state),
                          s->first_bad_task[0] != '\0' ? s->first_bad_task : "no task failed",
                          why[0] != '\0' ? why : "; see its status trace");
            return MM2_CHECK_FAILED;
        }
        if (s->state == MM2_CSTATE_RUNNING && s->ntasks > 0 && s->tasks_running == s->ntasks) {
            job_info(j, "connector %s RUNNING with %zu tasks RUNNING", name, s->ntasks);
            return MM2_OK;
        }
        if (mm2_deadline_expired(&dl)) {
            mm2_log_error(&j->log,
                          "connector %s is not RUNNING with all tasks after %ld ms (%s, %zu/%zu "
                          "tasks RUNNING%s%s)",
                          name, timeout_ms, s->exists ? mm2_cstate_name(s->state) : "not found",
                          s->tasks_running, s->ntasks, s->first_bad_task[0] != '\0' ? ", " : "",
                          s->first_bad_task);
            return MM2_UNREACHABLE;
        }
        job_sleep_ms(500);
    }
}
