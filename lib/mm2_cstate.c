/* mm2_cstate: Connect's connector and task states, and the status reader (see mm2_cstate.h). */
#include "mm2_cstate.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_json.h"

#define WHERE_MAX 256
#define STATE_SHOW 32 /* characters of an unknown state quoted back */

static const enum mm2_cstate ALL[] = {
    MM2_CSTATE_UNASSIGNED, MM2_CSTATE_RUNNING,    MM2_CSTATE_PAUSED,  MM2_CSTATE_FAILED,
    MM2_CSTATE_DESTROYED,  MM2_CSTATE_RESTARTING, MM2_CSTATE_STOPPED,
};

const char *mm2_cstate_name(enum mm2_cstate s)
{
    switch (s) {
    case MM2_CSTATE_UNASSIGNED:
        return "UNASSIGNED";
    case MM2_CSTATE_RUNNING:
        return "RUNNING";
    case MM2_CSTATE_PAUSED:
        return "PAUSED";
    case MM2_CSTATE_FAILED:
        return "FAILED";
    case MM2_CSTATE_DESTROYED:
        return "DESTROYED";
    case MM2_CSTATE_RESTARTING:
        return "RESTARTING";
    case MM2_CSTATE_STOPPED:
        return "STOPPED";
    }
    return "UNKNOWN"; /* not a value of the enum: only a corrupted one gets here */
}

bool mm2_cstate_parse(const char *text, enum mm2_cstate *out)
{
    for (size_t i = 0; text != NULL && i < sizeof(ALL) / sizeof(ALL[0]); i++) {
        if (strcmp(text, mm2_cstate_name(ALL[i])) == 0) {
            *out = ALL[i];
            return true;
        }
    }
    return false;
}

/* A string member that may be absent or null (*out NULL then); with strict, anything else but a
 * string is an error, without it ignored. */
static enum mm2_status optional_string(const cJSON *obj, const char *key, bool strict,
                                       const char *where, const char **out, struct mm2_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    *out = cJSON_IsString(v) ? v->valuestring : NULL;
    if (!strict || v == NULL || cJSON_IsNull(v) || cJSON_IsString(v))
        return MM2_OK;
    return mm2_error_set(err, MM2_UNEXPECTED, "%s.%s is not a string", where, key);
}

/* "state" (a known one), "worker_id" and "trace" of obj, the connector or a task at where. */
static enum mm2_status read_state(const cJSON *obj, const char *where, bool strict,
                                  enum mm2_cstate *state, const char **worker, const char **trace,
                                  struct mm2_error *err)
{
    const cJSON *s = mm2_json_get(obj, "state", MM2_JSON_STRING, where, err);

    if (s == NULL)
        return MM2_UNEXPECTED;
    if (!mm2_cstate_parse(s->valuestring, state))
        return mm2_error_set(err, MM2_UNEXPECTED, "%s.state \"%.*s\" is not a state", where,
                             STATE_SHOW, s->valuestring);
    if (strict &&
        mm2_json_get(obj, "worker_id", MM2_JSON_STRING | MM2_JSON_NULL, where, err) == NULL)
        return MM2_UNEXPECTED;
    if (optional_string(obj, "worker_id", strict, where, worker, err) != MM2_OK)
        return MM2_UNEXPECTED;
    return optional_string(obj, "trace", strict, where, trace, err);
}

/* A task id: any exact integer, or with strict one from 0 to INT_MAX (ConnectorTaskId.task). */
static enum mm2_status read_task_id(const cJSON *task, const char *where, bool strict, long *out,
                                    struct mm2_error *err)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(task, "id");
    int64_t v = 0;

    if (strict) {
        if (!mm2_json_int64(id, &v) || v < 0 || v > INT_MAX)
            return mm2_error_set(err, MM2_UNEXPECTED, "%s.id is not an integer from 0 to %d", where,
                                 INT_MAX);
    } else {
        id = mm2_json_get(task, "id", MM2_JSON_INT, where, err);
        if (id == NULL || !mm2_json_int64(id, &v))
            return MM2_UNEXPECTED;
    }
    *out = (long)v;
    return MM2_OK;
}

static enum mm2_status read_tasks(const cJSON *arr, const char *where, bool strict,
                                  struct mm2_cstate_info *out, struct mm2_error *err)
{
    int n = cJSON_GetArraySize(arr);
    const cJSON *t;

    if (n > MM2_CSTATE_TASKS_MAX)
        return mm2_error_set(err, MM2_UNEXPECTED, "%s.tasks has more than %d entries", where,
                             MM2_CSTATE_TASKS_MAX);
    out->tasks = n > 0 ? calloc((size_t)n, sizeof(*out->tasks)) : NULL;
    if (n > 0 && out->tasks == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    cJSON_ArrayForEach(t, arr)
    {
        struct mm2_cstate_task *task = &out->tasks[out->ntasks];
        char at[WHERE_MAX];
        enum mm2_status st;

        (void)snprintf(at, sizeof(at), "%s.tasks[%zu]", where, out->ntasks);
        st = read_state(t, at, strict, &task->state, &task->worker_id, &task->trace, err);
        if (st == MM2_OK)
            st = read_task_id(t, at, strict, &task->id, err);
        if (st != MM2_OK)
            return st;
        out->running += task->state == MM2_CSTATE_RUNNING;
        out->failed += task->state == MM2_CSTATE_FAILED;
        out->ntasks++;
    }
    return MM2_OK;
}

/* With a name: status.name equal to it, and status.type. */
static enum mm2_status read_name(const cJSON *status, const char *where, const char *name,
                                 struct mm2_cstate_info *out, struct mm2_error *err)
{
    const cJSON *n = mm2_json_get(status, "name", MM2_JSON_STRING, where, err);
    const cJSON *type =
        n != NULL ? mm2_json_get(status, "type", MM2_JSON_STRING, where, err) : NULL;

    if (type == NULL)
        return MM2_UNEXPECTED;
    if (strcmp(n->valuestring, name) != 0)
        return mm2_error_set(err, MM2_UNEXPECTED, "%s.name is \"%.120s\", not the connector's name",
                             where, n->valuestring);
    out->name = n->valuestring;
    out->type = type->valuestring;
    return MM2_OK;
}

enum mm2_status mm2_cstate_read(const cJSON *status, const char *where, const char *name,
                                struct mm2_cstate_info *out, struct mm2_error *err)
{
    bool strict = name != NULL;
    const cJSON *conn;
    const cJSON *tasks;
    char at[WHERE_MAX];
    enum mm2_status st = MM2_OK;

    memset(out, 0, sizeof(*out));
    if (strict)
        st = read_name(status, where, name, out, err);
    if (st != MM2_OK)
        return st;
    conn = mm2_json_get(status, "connector", MM2_JSON_OBJECT, where, err);
    if (conn == NULL)
        return MM2_UNEXPECTED;
    (void)snprintf(at, sizeof(at), "%s.connector", where);
    if (mm2_json_get(conn, "state", MM2_JSON_STRING, at, err) == NULL)
        return MM2_UNEXPECTED;
    tasks = mm2_json_get(status, "tasks", MM2_JSON_ARRAY, where, err);
    if (tasks == NULL)
        return MM2_UNEXPECTED;
    st = read_state(conn, at, strict, &out->state, &out->worker_id, &out->trace, err);
    if (st == MM2_OK)
        st = read_tasks(tasks, where, strict, out, err);
    return st;
}

void mm2_cstate_info_free(struct mm2_cstate_info *info)
{
    if (info == NULL)
        return;
    free(info->tasks);
    memset(info, 0, sizeof(*info));
}

/* The exception of one trace line ("org.x.FooException: message"), as "FooException: message"
 * of at most n bytes: its fully qualified class cut to the simple name. */
static size_t exception_of(const char *line, size_t n, const char **start)
{
    const char *colon = memchr(line, ':', n);
    size_t cls = colon != NULL ? (size_t)(colon - line) : n;
    size_t skip = 0;

    for (size_t i = 0; i < cls; i++)
        if (line[i] == '.' || line[i] == '$')
            skip = i + 1;
    *start = line + skip;
    return n - skip;
}

/* The line of trace that starts at p, its length. */
static size_t line_len(const char *p)
{
    return strcspn(p, "\r\n");
}

/* Appends n bytes of s to buf (used so far: *at), control characters as '?', bounded. */
static void put(char *buf, size_t len, size_t *at, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *at + 1 < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        buf[(*at)++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
    }
    buf[*at] = '\0';
}

#define CAUSED_BY "Caused by: "

/* The root cause's line: the last "Caused by: " line's text after that prefix, or the first
 * line; its length into *n. */
static const char *root_cause(const char *trace, size_t *n)
{
    const char *root = trace;
    const char *p = trace;

    while (*p != '\0') {
        size_t l = line_len(p);
        if (l > sizeof(CAUSED_BY) - 1 && strncmp(p, CAUSED_BY, sizeof(CAUSED_BY) - 1) == 0)
            root = p + sizeof(CAUSED_BY) - 1;
        p += l;
        while (*p == '\r' || *p == '\n')
            p++;
    }
    *n = line_len(root);
    return root;
}

/* True when the exception of a line (n bytes) is named *AuthorizationException. */
static bool authz_line(const char *line, size_t n)
{
    static const char tail[] = "AuthorizationException";
    const char *colon = memchr(line, ':', n);
    size_t cls = colon != NULL ? (size_t)(colon - line) : n;

    return cls >= sizeof(tail) - 1 &&
           memcmp(line + cls - (sizeof(tail) - 1), tail, sizeof(tail) - 1) == 0;
}

bool mm2_cstate_trace_authz(const char *trace)
{
    const char *p = trace;

    if (trace == NULL)
        return false;
    while (*p != '\0') {
        size_t l = line_len(p);
        const char *line = p;
        size_t n = l;
        if (l > sizeof(CAUSED_BY) - 1 && strncmp(p, CAUSED_BY, sizeof(CAUSED_BY) - 1) == 0) {
            line += sizeof(CAUSED_BY) - 1;
            n -= sizeof(CAUSED_BY) - 1;
        }
        if (authz_line(line, n))
            return true;
        p += l;
        while (*p == '\r' || *p == '\n')
            p++;
    }
    return false;
}

void mm2_cstate_trace_cause(const char *trace, char *buf, size_t len)
{
    size_t at = 0;
    size_t rn, fn, rs, fs;
    const char *root, *rex, *fex;
    const char *first = trace;

    if (len == 0)
        return;
    buf[0] = '\0';
    if (trace == NULL || trace[0] == '\0')
        return;
    root = root_cause(trace, &rn);
    fn = line_len(trace);
    rs = exception_of(root, rn, &rex);
    fs = exception_of(trace, fn, &fex);
    if (authz_line(root, rn))
        put(buf, len, &at, "authorization: ", sizeof("authorization: ") - 1);
    put(buf, len, &at, rex, rs);
    if (root != first) {
        put(buf, len, &at, " (under ", sizeof(" (under ") - 1);
        put(buf, len, &at, fex, fs);
        put(buf, len, &at, ")", 1);
    }
}
