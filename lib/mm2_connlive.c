/* mm2_connlive: a connector as Connect itself counts it (see mm2_connlive.h). */
#include "mm2_connlive.h"

#include <stdio.h>
#include <string.h>

enum mm2_connlive_stop mm2_connlive_judge(const struct mm2_connector_status *s, size_t task_configs)
{
    if (!s->exists)
        return MM2_CONNLIVE_ABSENT;
    if (s->state != MM2_CSTATE_STOPPED && s->state != MM2_CSTATE_UNASSIGNED)
        return MM2_CONNLIVE_OTHER;
    if (task_configs > 0)
        return MM2_CONNLIVE_TASKS;
    return s->state == MM2_CSTATE_STOPPED ? MM2_CONNLIVE_DONE : MM2_CONNLIVE_UNASSIGNED;
}

enum mm2_status mm2_connlive_read(struct mm2_connect *c, const char *name, struct mm2_connlive *out,
                                  struct mm2_error *err)
{
    bool exists = false;
    enum mm2_status st = mm2_connect_task_configs(c, name, &exists, &out->task_configs, err);

    memset(&out->s, 0, sizeof(out->s));
    out->stop = MM2_CONNLIVE_ABSENT;
    if (st != MM2_OK || !exists)
        return st;
    st = mm2_connect_status_split(c, name, out->task_configs, &out->s, err);
    if (st == MM2_OK)
        out->stop = mm2_connlive_judge(&out->s, out->task_configs);
    return st;
}

void mm2_connlive_describe(const struct mm2_connlive *v, char *buf, size_t len)
{
    const char *state = mm2_cstate_name(v->s.state);
    char stale[160] = "";

    if (v->s.stale > 0)
        (void)snprintf(stale, sizeof(stale), " (%zu stale task status%s: %s)", v->s.stale,
                       v->s.stale == 1 ? "" : "es", v->s.first_stale);
    if (v->stop == MM2_CONNLIVE_ABSENT)
        (void)snprintf(buf, len, "absent");
    else if (v->stop == MM2_CONNLIVE_OTHER)
        (void)snprintf(buf, len, "%s with %zu task%s%s", state, v->s.ntasks,
                       v->s.ntasks == 1 ? "" : "s", stale);
    else if (v->task_configs > 0)
        (void)snprintf(buf, len, "%s with %zu task config%s%s", state, v->task_configs,
                       v->task_configs == 1 ? "" : "s", stale);
    else
        (void)snprintf(buf, len, "%s with no task config%s", state, stale);
}
