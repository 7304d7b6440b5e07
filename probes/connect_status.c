/* connect_status: strict reading of GET /connectors?expand=status (see connect_status.h). */
#include "connect_status.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_SHOW 120

/* org.apache.kafka.connect.runtime.AbstractStatus.State */
static const char *const states[] = {
    "UNASSIGNED", "RUNNING", "PAUSED", "FAILED", "DESTROYED", "RESTARTING", "STOPPED",
};

static enum mm2_status bad(struct mm2_error *err, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* MM2_UNEXPECTED with the JSON path of the bad part: "NAME".<what fmt says>. */
static enum mm2_status bad(struct mm2_error *err, const char *name, const char *fmt, ...)
{
    char what[512];
    va_list ap;

    va_start(ap, fmt);
    if (vsnprintf(what, sizeof(what), fmt, ap) < 0)
        what[0] = '\0';
    va_end(ap);
    return mm2_error_set(err, MM2_UNEXPECTED, "\"%.*s\".%s", NAME_SHOW, name, what);
}

static bool state_known(const char *s)
{
    for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
        if (strcmp(s, states[i]) == 0)
            return true;
    return false;
}

/* A required string field; *out is NULL for a JSON null when nullable. 0 on success. */
static int get_string(const cJSON *obj, const char *key, bool nullable, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    if (cJSON_IsString(v)) {
        *out = v->valuestring;
        return 0;
    }
    if (nullable && cJSON_IsNull(v)) {
        *out = NULL;
        return 0;
    }
    return -1;
}

/* An optional string field: absent or null gives NULL. 0 on success, -1 when mistyped. */
static int get_optional(const cJSON *obj, const char *key, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    *out = NULL;
    if (v == NULL || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsString(v))
        return -1;
    *out = v->valuestring;
    return 0;
}

/* "state" (a known one), "worker_id" (string or null), "trace" (optional) of obj. */
static enum mm2_status read_state(const cJSON *obj, const char *name, const char *where,
                                  const char **state, const char **worker, const char **trace,
                                  struct mm2_error *err)
{
    if (!cJSON_IsObject(obj))
        return bad(err, name, "%s is not an object", where);
    if (get_string(obj, "state", false, state) != 0)
        return bad(err, name, "%s.state is not a string", where);
    if (!state_known(*state))
        return bad(err, name, "%s.state \"%.20s\" is not a Connect state", where, *state);
    if (get_string(obj, "worker_id", true, worker) != 0)
        return bad(err, name, "%s.worker_id is not a string", where);
    if (get_optional(obj, "trace", trace) != 0)
        return bad(err, name, "%s.trace is not a string", where);
    return MM2_OK;
}

static enum mm2_status read_tasks(const cJSON *arr, struct connect_connector *c,
                                  struct mm2_error *err)
{
    const cJSON *t;
    size_t n = 0;
    char where[64];

    if (!cJSON_IsArray(arr))
        return bad(err, c->name, "status.tasks is not an array");
    cJSON_ArrayForEach(t, arr)
    {
        if (++n > CONNECT_STATUS_MAX)
            return bad(err, c->name, "status.tasks has more than %d entries", CONNECT_STATUS_MAX);
    }
    c->tasks = n > 0 ? calloc(n, sizeof(*c->tasks)) : NULL;
    if (n > 0 && c->tasks == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    cJSON_ArrayForEach(t, arr)
    {
        struct connect_task *task = &c->tasks[c->ntasks];
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(t, "id");
        enum mm2_status st;

        (void)snprintf(where, sizeof(where), "status.tasks[%zu]", c->ntasks);
        st = read_state(t, c->name, where, &task->state, &task->worker_id, &task->trace, err);
        if (st != MM2_OK)
            return st;
        if (!cJSON_IsNumber(id) || id->valuedouble < 0 || id->valuedouble > INT_MAX ||
            id->valuedouble != (double)(long)id->valuedouble)
            return bad(err, c->name, "%s.id is not an integer from 0 to %d", where, INT_MAX);
        task->id = (long)id->valuedouble;
        if (strcmp(task->state, "RUNNING") == 0)
            c->running++;
        else if (strcmp(task->state, "FAILED") == 0)
            c->failed++;
        c->ntasks++;
    }
    return MM2_OK;
}

static enum mm2_status read_connector(const cJSON *item, struct connect_connector *c,
                                      struct mm2_error *err)
{
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(item, "status");
    const char *name = NULL;
    enum mm2_status st;

    c->name = item->string;
    if (!cJSON_IsObject(item))
        return mm2_error_set(err, MM2_UNEXPECTED, "\"%.*s\" is not an object", NAME_SHOW, c->name);
    if (!cJSON_IsObject(status))
        return bad(err, c->name, "status is not an object");
    if (get_string(status, "name", false, &name) != 0)
        return bad(err, c->name, "status.name is not a string");
    if (strcmp(name, c->name) != 0)
        return bad(err, c->name, "status.name is \"%.*s\", not the connector's name", NAME_SHOW,
                   name);
    if (get_string(status, "type", false, &c->type) != 0)
        return bad(err, c->name, "status.type is not a string");
    st = read_state(cJSON_GetObjectItemCaseSensitive(status, "connector"), c->name,
                    "status.connector", &c->state, &c->worker_id, &c->trace, err);
    if (st != MM2_OK)
        return st;
    return read_tasks(cJSON_GetObjectItemCaseSensitive(status, "tasks"), c, err);
}

static int by_name(const void *a, const void *b)
{
    const struct connect_connector *x = a;
    const struct connect_connector *y = b;

    return strcmp(x->name, y->name);
}

enum mm2_status connect_status_parse(const char *body, size_t len, struct connect_status **out,
                                     struct mm2_error *err)
{
    struct connect_status *s;
    cJSON *root;
    const cJSON *item;
    size_t n = 0;
    enum mm2_status st = MM2_OK;

    root = cJSON_ParseWithLength(body, len);
    if (root == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "the body is not JSON");
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED,
                             "the body is not a JSON object of connector name to status");
    }
    cJSON_ArrayForEach(item, root)
    {
        if (++n > CONNECT_STATUS_MAX) {
            cJSON_Delete(root);
            return mm2_error_set(err, MM2_UNEXPECTED, "more than %d connectors",
                                 CONNECT_STATUS_MAX);
        }
    }
    s = calloc(1, sizeof(*s));
    if (s == NULL || (n > 0 && (s->connectors = calloc(n, sizeof(*s->connectors))) == NULL)) {
        free(s);
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    s->tree = root;
    cJSON_ArrayForEach(item, root)
    {
        /* Counted first, so the connector is freed with s even when it is only half read. */
        st = read_connector(item, &s->connectors[s->n++], err);
        if (st != MM2_OK)
            break;
    }
    if (st == MM2_OK && s->n > 1) {
        qsort(s->connectors, s->n, sizeof(*s->connectors), by_name);
        for (size_t i = 1; i < s->n && st == MM2_OK; i++)
            if (strcmp(s->connectors[i - 1].name, s->connectors[i].name) == 0)
                st = mm2_error_set(err, MM2_UNEXPECTED, "connector \"%.*s\" appears twice",
                                   NAME_SHOW, s->connectors[i].name);
    }
    if (st != MM2_OK) {
        connect_status_free(s);
        return st;
    }
    *out = s;
    return MM2_OK;
}

void connect_status_free(struct connect_status *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->connectors[i].tasks);
    free(s->connectors);
    cJSON_Delete(s->tree);
    free(s);
}

const struct connect_connector *connect_status_find(const struct connect_status *s,
                                                    const char *name)
{
    struct connect_connector key = {.name = name};

    if (s->n == 0)
        return NULL;
    return bsearch(&key, s->connectors, s->n, sizeof(*s->connectors), by_name);
}
