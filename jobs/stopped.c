/* stopped: the connector stopped as Connect decides it, and the plan's, for a subcommand about
 * to write or read its offsets (see stopped.h). */
#include "stopped.h"

#include <stdio.h>

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
