/* connectors: connector and task health for monitoring, not for the kubelet (docs/ARCHITECTURE.md
 * §3.3).
 *
 * Unhealthy (exit 1): a connector or task FAILED, a RUNNING connector with no tasks (MM2's
 * connectors then replicate nothing, yet report RUNNING), or a --connector that does not exist.
 * With --connector only the named connectors are judged and shown. The summary goes to stdout
 * whatever the verdict; each problem is one stderr line naming the connector (and task). */
#include "probe.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "connect_status.h"
#include "mm2_problems.h"

#define PATH "/connectors?expand=status"

/* ": <what the trace says>" (its root cause, and an authorization refusal named as such:
 * mm2_cstate_trace_cause) or "" */
static void trace_suffix(const char *trace, char *buf, size_t len)
{
    char cause[MM2_CSTATE_CAUSE_MAX];

    buf[0] = '\0';
    if (trace == NULL || trace[0] == '\0')
        return;
    mm2_cstate_trace_cause(trace, cause, sizeof(cause));
    (void)snprintf(buf, len, ": %s%s", cause,
                   mm2_cstate_trace_authz(trace) ? "; a principal lacks an ACL (docs/acls.md)"
                                                 : "");
}

static void judge(const struct mm2_cstate_info *c, struct mm2_problems *p)
{
    char tr[MM2_CSTATE_CAUSE_MAX + 64];

    if (c->state == MM2_CSTATE_FAILED) {
        trace_suffix(c->trace, tr, sizeof(tr));
        mm2_problems_add(p, "connector %s is FAILED%s%s%s", c->name,
                         c->worker_id != NULL ? " on worker " : "",
                         c->worker_id != NULL ? c->worker_id : "", tr);
    }
    if (c->state == MM2_CSTATE_RUNNING && c->ntasks == 0)
        mm2_problems_add(p, "connector %s is RUNNING with no tasks", c->name);
    for (size_t i = 0; i < c->ntasks; i++) {
        const struct mm2_cstate_task *t = &c->tasks[i];
        if (t->state != MM2_CSTATE_FAILED)
            continue;
        trace_suffix(t->trace, tr, sizeof(tr));
        mm2_problems_add(p, "connector %s task %ld is FAILED%s%s%s", c->name, t->id,
                         t->worker_id != NULL ? " on worker " : "",
                         t->worker_id != NULL ? t->worker_id : "", tr);
    }
}

/* Writes s with control characters as '?', so one connector is always one line. */
static void put_clean(FILE *out, const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, out);
    }
}

static void print_text(FILE *out, const struct mm2_cstate_info *c)
{
    put_clean(out, c->name);
    fputc(' ', out);
    put_clean(out, mm2_cstate_name(c->state));
    fprintf(out, " tasks=%zu/%zu failed=%zu\n", c->running, c->ntasks, c->failed);
}

/* {"name", "type", "state", "worker_id", "tasks": {"total", "running", "failed"},
 *  "failed_tasks": [ids]}, or NULL when out of memory. */
static cJSON *connector_json(const struct mm2_cstate_info *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *tasks = cJSON_CreateObject();
    cJSON *failed = cJSON_CreateArray();
    bool ok = o != NULL && tasks != NULL && failed != NULL;

    ok = ok && cJSON_AddStringToObject(o, "name", c->name) != NULL;
    ok = ok && cJSON_AddStringToObject(o, "type", c->type) != NULL;
    ok = ok && cJSON_AddStringToObject(o, "state", mm2_cstate_name(c->state)) != NULL;
    ok = ok && (c->worker_id != NULL ? cJSON_AddStringToObject(o, "worker_id", c->worker_id)
                                     : cJSON_AddNullToObject(o, "worker_id")) != NULL;
    ok = ok && cJSON_AddNumberToObject(tasks, "total", (double)c->ntasks) != NULL;
    ok = ok && cJSON_AddNumberToObject(tasks, "running", (double)c->running) != NULL;
    ok = ok && cJSON_AddNumberToObject(tasks, "failed", (double)c->failed) != NULL;
    for (size_t i = 0; ok && i < c->ntasks; i++) {
        cJSON *id;
        if (c->tasks[i].state != MM2_CSTATE_FAILED)
            continue;
        id = cJSON_CreateNumber((double)c->tasks[i].id);
        ok = id != NULL && cJSON_AddItemToArray(failed, id);
        if (!ok)
            cJSON_Delete(id);
    }
    /* Once added, tasks and failed belong to o. */
    if (ok && cJSON_AddItemToObject(o, "tasks", tasks))
        tasks = NULL;
    else
        ok = false;
    if (ok && cJSON_AddItemToObject(o, "failed_tasks", failed))
        failed = NULL;
    else
        ok = false;
    cJSON_Delete(tasks);
    cJSON_Delete(failed);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The connectors to judge: all of them, or the --connector names (once each, as given). */
struct selection {
    const struct mm2_cstate_info **c;
    size_t n;
    const char **missing;
    size_t nmissing;
};

static bool already(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static enum mm2_status select_connectors(const struct probe_opts *o, const struct connect_status *s,
                                         struct selection *sel, struct mm2_error *err)
{
    size_t cap = o->nconnectors > 0 ? o->nconnectors : s->n;

    memset(sel, 0, sizeof(*sel));
    sel->c = calloc(cap > 0 ? cap : 1, sizeof(*sel->c));
    sel->missing = calloc(o->nconnectors > 0 ? o->nconnectors : 1, sizeof(*sel->missing));
    if (sel->c == NULL || sel->missing == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    if (o->nconnectors == 0) {
        for (size_t i = 0; i < s->n; i++)
            sel->c[sel->n++] = &s->connectors[i];
        return MM2_OK;
    }
    for (size_t i = 0; i < o->nconnectors; i++) {
        const char *name = o->connectors[i];
        const struct mm2_cstate_info *c;
        if (already(o->connectors, i, name))
            continue;
        c = connect_status_find(s, name);
        if (c != NULL)
            sel->c[sel->n++] = c;
        else
            sel->missing[sel->nmissing++] = name;
    }
    return MM2_OK;
}

static enum mm2_status print_json(FILE *out, const struct selection *sel, bool healthy,
                                  struct mm2_error *err)
{
    cJSON *root = cJSON_CreateObject();
    bool ok = cJSON_AddBoolToObject(root, "healthy", healthy) != NULL;
    cJSON *list = cJSON_AddArrayToObject(root, "connectors");
    cJSON *missing = cJSON_AddArrayToObject(root, "missing");
    char *text;

    ok = ok && list != NULL && missing != NULL;
    for (size_t i = 0; ok && i < sel->n; i++) {
        cJSON *c = connector_json(sel->c[i]);
        ok = c != NULL && cJSON_AddItemToArray(list, c);
        if (!ok)
            cJSON_Delete(c);
    }
    for (size_t i = 0; ok && i < sel->nmissing; i++) {
        cJSON *name = cJSON_CreateString(sel->missing[i]);
        ok = name != NULL && cJSON_AddItemToArray(missing, name);
        if (!ok)
            cJSON_Delete(name);
    }
    text = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    fprintf(out, "%s\n", text);
    cJSON_free(text);
    return MM2_OK;
}

static enum mm2_status report(struct probe_ctx *ctx, const struct connect_status *s,
                              struct mm2_error *err)
{
    struct selection sel;
    struct mm2_problems problems = {0};
    enum mm2_status st = select_connectors(ctx->opts, s, &sel, err);

    if (st == MM2_OK) {
        for (size_t i = 0; i < sel.n; i++)
            judge(sel.c[i], &problems);
        for (size_t i = 0; i < sel.nmissing; i++)
            mm2_problems_add(&problems, "connector %s not found", sel.missing[i]);
        if (ctx->opts->json) {
            st = print_json(ctx->out, &sel, problems.n == 0, err);
        } else {
            for (size_t i = 0; i < sel.n; i++)
                print_text(ctx->out, sel.c[i]);
        }
        fflush(ctx->out);
    }
    if (st == MM2_OK && problems.n > 0) {
        for (size_t i = 0; i < problems.n; i++)
            mm2_log_error(ctx->log, "%s", problems.line[i]);
        if (problems.dropped > 0)
            mm2_log_error(ctx->log, "%zu more problems not shown", problems.dropped);
        st = MM2_CHECK_FAILED; /* reported: err.msg stays empty */
    }
    free(sel.c);
    free(sel.missing);
    return st;
}

enum mm2_status probe_connectors(struct probe_ctx *ctx, struct mm2_error *err)
{
    struct mm2_http_response resp;
    struct connect_status *s = NULL;
    enum mm2_status st = probe_get(ctx, PATH, &resp, err);

    if (st != MM2_OK)
        return st;
    if (resp.status != 200) {
        char msg[512];
        probe_body_message(&resp, msg, sizeof(msg));
        mm2_error_set(err, MM2_CHECK_FAILED, "GET " PATH ": HTTP %ld%s%s", resp.status,
                      msg[0] != '\0' ? ": " : "", msg);
        mm2_http_response_free(&resp);
        return MM2_CHECK_FAILED;
    }
    st = connect_status_parse(resp.body, resp.len, &s, err);
    mm2_http_response_free(&resp);
    if (st != MM2_OK)
        return mm2_error_prefix(err, "GET " PATH);
    st = report(ctx, s, err);
    connect_status_free(s);
    return st;
}
