/* stopped: the connector stopped as Connect decides it, and the plan's, for a subcommand about
 * to write or read its offsets (see stopped.h). */
#include "stopped.h"

#include <stdio.h>
#include <string.h>

#include "mm2_cfgview.h"

void job_config_differs(const struct mm2_plan *plan, const cJSON *live, const char *live_digest,
                        char *buf, size_t len)
{
    cJSON *view = NULL;
    struct mm2_error err = {0};

    if (mm2_cfgview_make(live, plan->connector, &view, &err) != MM2_OK)
        view = NULL; /* out of memory: the digests alone */
    mm2_cfgview_explain(plan->config_view, plan->config_digest, "the plan", view, live_digest,
                        "Connect", buf, len);
    cJSON_Delete(view);
}

bool job_stop_problem(struct job *j, const char *name, const struct mm2_connlive *v,
                      const char *why, const char *then, char *buf, size_t len)
{
    char what[256];

    mm2_connlive_describe(v, what, sizeof(what));
    switch (v->stop) {
    case MM2_CONNLIVE_ABSENT:
        return false; /* the caller knows what an absent connector means */
    case MM2_CONNLIVE_DONE:
        if (v->s.stale > 0)
            job_info(j, "connector %s is %s: stale, Connect keeps no task config behind them", name,
                     what);
        return false;
    case MM2_CONNLIVE_UNASSIGNED:
        (void)snprintf(buf, len,
                       "connector %s is %s, not STOPPED: " JOB_STALE_STATUS
                       ", %s [rule connector-state]",
                       name, what, name, then);
        return true;
    case MM2_CONNLIVE_TASKS:
        (void)snprintf(buf, len,
                       "connector %s is %s: Connect counts a connector as stopped only once it "
                       "has none; wait for the stop's rebalance to end (PUT /connectors/%s/stop "
                       "if it was not stopped), %s [rule connector-state]",
                       name, what, name, then);
        return true;
    case MM2_CONNLIVE_OTHER:
        (void)snprintf(buf, len,
                       "connector %s is %s, not STOPPED%s; %s: PUT /connectors/%s/stop, %s "
                       "[rule connector-state]",
                       name, what,
                       v->s.state == MM2_CSTATE_PAUSED ? " (PAUSED is not STOPPED: its tasks "
                                                         "still exist)"
                                                       : "",
                       why, name, then);
        return true;
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
    if (st == MM2_OK && strcmp(digest, plan->config_digest) != 0) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(live, "source.cluster.alias");
        if (!cJSON_IsString(a) || strcmp(a->valuestring, plan->alias) != 0)
            mm2_refuse(r,
                       "connector %s exists with source.cluster.alias \"%.100s\", but the plan's "
                       "offsets are keyed by \"%.100s\"; MM2 would ignore them [rule alias]",
                       plan->connector, cJSON_IsString(a) ? a->valuestring : "(unset)",
                       plan->alias);
        else {
            char how[320];
            job_config_differs(plan, live, digest, how, sizeof(how));
            mm2_refuse(r,
                       "connector %s exists with another config than the plan's (%s); delete it "
                       "or apply the JSON the plan was made with [rule connector-config]",
                       plan->connector, how);
        }
    }
    cJSON_Delete(live);
    if (st != MM2_OK)
        return st;
    st = mm2_connlive_read(j->connect, plan->connector, &v, err);
    if (st != MM2_OK)
        return st;
    if (job_stop_problem(j, plan->connector, &v, JOB_STOP_WHY_WRITE,
                         "check that its offsets have not moved past the plan, then run again",
                         line, sizeof(line)))
        mm2_refuse(r, "%s", line);
    return MM2_OK;
}
