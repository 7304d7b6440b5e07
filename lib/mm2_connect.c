/* mm2_connect: Kafka Connect REST calls for mm2-offsets (see mm2_connect.h). */
#include "mm2_connect.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mm2_deadline.h"
#include "mm2_http.h"
#include "mm2_json.h"

#define MESSAGE_SHOW 400
#define BACKOFF_FIRST_MS 250L
/* GET offsets' race with the worker's offsets reader (retry_reason) lasts as long as the reader
 * takes to add the records just written, far less than a rebalance (bench/README.md, "offsets"),
 * and the failed answer costs the worker nothing (it fails before reading the topic): the first
 * wait is shorter, doubling as usual. */
#define BACKOFF_FIRST_OFFSETS_RACE_MS 50L
#define BACKOFF_MAX_MS 5000L
/* From this wait on, half of it is random: a fixed period can lock into the rhythm of a client
 * that keeps changing connectors (on the bed a 5 s backoff met every one of its rebalance windows
 * for two minutes). The short first waits stay exact. */
#define BACKOFF_JITTER_FROM_MS 2000L
#define CONNECT_WAIT_PAUSE_MS 500L

struct mm2_connect {
    struct mm2_http *http;
    long request_timeout_ms;
    long retry_budget_ms;
    long connect_wait_ms;
    bool answered;                    /* some worker has answered this client */
    bool waiting;                     /* connect_wait runs */
    struct mm2_deadline connect_wait; /* from the first refused connection */
    long requests;
    mm2_connect_notify_fn notify;
    uint64_t jitter_state;
    void *notify_ctx;
};

enum mm2_status mm2_connect_new(const char *url, long request_timeout_ms, long retry_budget_ms,
                                struct mm2_connect **out, struct mm2_error *err)
{
    struct mm2_connect *c = calloc(1, sizeof(*c));
    enum mm2_status st;

    if (c == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    st = mm2_http_new(url, "mm2-offsets/" MM2KIT_VERSION, (size_t)MM2_CONNECT_BODY_MAX, &c->http,
                      err);
    if (st != MM2_OK) {
        free(c);
        return st;
    }
    c->request_timeout_ms = request_timeout_ms;
    c->retry_budget_ms = retry_budget_ms;
    *out = c;
    return MM2_OK;
}

enum mm2_status mm2_connect_set_cacert(struct mm2_connect *c, const char *path,
                                       struct mm2_error *err)
{
    return mm2_http_set_cacert(c->http, path, err);
}

enum mm2_status mm2_connect_set_basic_auth(struct mm2_connect *c, const char *user,
                                           const char *password, struct mm2_error *err)
{
    return mm2_http_set_basic_auth(c->http, user, password, err);
}

enum mm2_status mm2_connect_pin_address(struct mm2_connect *c, const char *addr,
                                        struct mm2_error *err)
{
    return mm2_http_pin_address(c->http, addr, err);
}

void mm2_connect_free(struct mm2_connect *c)
{
    if (c == NULL)
        return;
    mm2_http_free(c->http);
    free(c);
}

void mm2_connect_set_connect_wait(struct mm2_connect *c, long wait_ms)
{
    c->connect_wait_ms = wait_ms > 0 ? wait_ms : 0;
}

static void sleep_ms(long ms);

/* Whether the request that just failed with err is sent again (mm2_connect_set_connect_wait);
 * sleeps first when it is. */
static bool connect_again(struct mm2_connect *c, const char *what, const struct mm2_error *err)
{
    if (c->answered || c->connect_wait_ms == 0 || !mm2_http_connect_failed(c->http))
        return false;
    if (!c->waiting) {
        mm2_deadline_start(&c->connect_wait, c->connect_wait_ms);
        c->waiting = true;
    }
    if (mm2_deadline_remaining_ms(&c->connect_wait) < CONNECT_WAIT_PAUSE_MS)
        return false;
    if (c->notify != NULL)
        c->notify(c->notify_ctx, what, 0, err->msg, CONNECT_WAIT_PAUSE_MS);
    sleep_ms(CONNECT_WAIT_PAUSE_MS);
    return true;
}

void mm2_connect_set_notify(struct mm2_connect *c, mm2_connect_notify_fn fn, void *ctx)
{
    c->notify = fn;
    c->notify_ctx = ctx;
}

long mm2_connect_requests(const struct mm2_connect *c)
{
    return c->requests;
}

bool mm2_connect_name_valid(const char *name, char *why, size_t whylen)
{
    size_t n;

    if (name == NULL || name[0] == '\0') {
        mm2_whyf(why, whylen, "it is empty");
        return false;
    }
    n = strlen(name);
    if (n > MM2_CONNECT_NAME_MAX) {
        mm2_whyf(why, whylen, "it is longer than %d bytes", MM2_CONNECT_NAME_MAX);
        return false;
    }
    /* libcurl would resolve them as path segments: /connectors/../config is GET /config. */
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        mm2_whyf(why, whylen, "\".\" and \"..\" are path segments, not names");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char ch = name[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '.' || ch == '_' || ch == '-')) {
            mm2_whyf(why, whylen, "character %d is not one of [A-Za-z0-9._-]", (int)i + 1);
            return false;
        }
    }
    return true;
}

/* Connect's {"error_code": N, "message": "..."} message, one line and bounded, or "". */
static void body_message(const struct mm2_http_response *r, char *buf, size_t len)
{
    mm2_http_message(r, MESSAGE_SHOW, buf, len);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* A number in [0, max]: xorshift64, seeded from the clock and the address of c. */
static long jitter_ms(struct mm2_connect *c, long max)
{
    uint64_t x = c->jitter_state;

    if (x == 0) {
        struct timespec ts;
        (void)clock_gettime(CLOCK_MONOTONIC, &ts);
        x = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)c;
        if (x == 0)
            x = 0x9E3779B97F4A7C15ULL;
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c->jitter_state = x;
    return max <= 0 ? 0 : (long)(x % (uint64_t)(max + 1));
}

/* Why an answer is retried, as the notify callback and the last error name it. */
static const char why_409[] = "a rebalance or a concurrent config change";
static const char why_500[] = "a rebalance expected, or a race inside the worker";
static const char why_leader[] = "the worker cannot reach the Connect leader";
/* RestClient.httpRequest's message when forwarding to the leader fails on the way. */
static const char forward_io_error[] = "IO Error trying to forward REST request";

/* An answer that passes like a 409: its reason, or NULL when it is the answer. *first_ms is the
 * first wait before retrying it. */
static const char *retry_reason(const char *method, long status, const char *msg, bool exists_409,
                                long *first_ms)
{
    *first_ms = BACKOFF_FIRST_MS;
    if (status == 409)
        /* POST /connectors: 409 is also AlreadyExistsException ("Connector x already exists"),
         * which no retry changes. Every other 409 is a rebalance or a concurrent config change. */
        return exists_409 && strstr(msg, "already exists") != NULL ? NULL : why_409;
    if (status != 500)
        return NULL;
    /* Three 500s pass like a 409. DistributedHerder's "Request cannot be completed because a
     * rebalance is expected" (RebalanceNeededException outside HerderRequestHandler). GET
     * offsets' "Failed to retrieve offsets for source connector": Worker reads the worker-global
     * store's in-memory partition set while its reader thread is still adding the records a
     * PATCH just wrote (ConcurrentModificationException, seen on the bed with 10,000
     * partitions). And RestClient's "IO Error trying to forward REST request: ..." (its
     * IOException, TimeoutException and ExecutionException, as ConnectRestException 500): a
     * request only the leader serves, forwarded to a leader that is gone (killed, cut off); the
     * group elects another once the leader's session times out. Any other 500 is an answer. */
    if (strstr(msg, "rebalance is expected") != NULL)
        return why_500;
    if (strcmp(method, "GET") == 0 &&
        strstr(msg, "Failed to retrieve offsets for source connector") != NULL) {
        *first_ms = BACKOFF_FIRST_OFFSETS_RACE_MS;
        return why_500;
    }
    if (strncmp(msg, forward_io_error, sizeof(forward_io_error) - 1) == 0)
        return why_leader;
    return NULL;
}

/* One request, retried on 409 (and the 500s of retry_reason) within the retry budget. On MM2_OK
 * the caller owns resp. */
static enum mm2_status call_ex(struct mm2_connect *c, const char *method, const char *path,
                               const char *body, size_t len, bool exists_409,
                               struct mm2_http_response *resp, struct mm2_error *err)
{
    struct mm2_deadline budget;
    long wait = 0; /* set by the first answer retried */
    char what[MM2_HTTP_URL_MAX + 16];

    (void)snprintf(what, sizeof(what), "%s %s", method, path);
    mm2_deadline_start(&budget, c->retry_budget_ms);
    for (;;) {
        struct mm2_deadline dl;
        enum mm2_status st;
        char msg[MESSAGE_SHOW + 1];
        const char *why;

        mm2_deadline_start(&dl, c->request_timeout_ms);
        c->requests++;
        st = mm2_http_request(c->http, method, path, body, len, &dl, resp, err);
        if (st != MM2_OK && connect_again(c, what, err))
            continue;
        if (st != MM2_OK)
            return mm2_error_prefix(err, "%s", what);
        c->answered = true;
        if (mm2_json_values(resp->body, resp->len) > MM2_JSON_VALUES_MAX) {
            size_t n = mm2_json_values(resp->body, resp->len);
            mm2_http_response_free(resp);
            return mm2_error_set(err, MM2_UNEXPECTED,
                                 "%s: the answer holds %zu JSON values, above the cap of %ld "
                                 "(" MM2_LIMITS_WHY ")",
                                 what, n, MM2_JSON_VALUES_MAX);
        }
        if (resp->status != 409 && resp->status != 500)
            return MM2_OK;
        body_message(resp, msg, sizeof(msg));
        long first_ms;
        why = retry_reason(method, resp->status, msg, exists_409, &first_ms);
        if (why == NULL)
            return MM2_OK;
        if (wait == 0)
            wait = first_ms;
        if (mm2_deadline_remaining_ms(&budget) < wait) {
            long code = resp->status;
            mm2_http_response_free(resp);
            if (why == why_leader)
                return mm2_error_set(err, MM2_UNREACHABLE,
                                     "%s: the Connect leader is unreachable: the worker answered "
                                     "HTTP %ld for longer than the retry budget of %ld ms: %s; "
                                     "run this again once the workers have a leader",
                                     what, code, c->retry_budget_ms, msg);
            return mm2_error_set(err, MM2_UNREACHABLE,
                                 "%s: HTTP %ld for longer than the retry budget of %ld ms: %s",
                                 what, code, c->retry_budget_ms, msg);
        }
        long pause = wait;
        if (wait >= BACKOFF_JITTER_FROM_MS)
            pause = wait / 2 + jitter_ms(c, wait / 2);
        if (c->notify != NULL)
            c->notify(c->notify_ctx, what, resp->status, why, pause);
        mm2_http_response_free(resp);
        sleep_ms(pause);
        wait = wait * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : wait * 2;
    }
}

static enum mm2_status call(struct mm2_connect *c, const char *method, const char *path,
                            const char *body, size_t len, struct mm2_http_response *resp,
                            struct mm2_error *err)
{
    return call_ex(c, method, path, body, len, false, resp, err);
}

/* "HTTP N: message" for an answer the call did not expect; frees resp. */
static enum mm2_status unexpected(const char *method, const char *path,
                                  struct mm2_http_response *resp, struct mm2_error *err)
{
    char msg[MESSAGE_SHOW + 1];
    enum mm2_status st;

    body_message(resp, msg, sizeof(msg));
    st = mm2_error_set(err, MM2_UNEXPECTED, "%s %s: HTTP %ld%s%s", method, path, resp->status,
                       msg[0] != '\0' ? ": " : "", msg);
    mm2_http_response_free(resp);
    return st;
}

static enum mm2_status connector_path(char *buf, size_t len, const char *name, const char *suffix,
                                      struct mm2_error *err)
{
    char why[128];
    int n;

    if (!mm2_connect_name_valid(name, why, sizeof(why)))
        return mm2_error_set(err, MM2_USAGE, "connector name \"%.*s\" is not usable: %s", 64,
                             name != NULL ? name : "", why);
    n = snprintf(buf, len, "/connectors/%s%s", name, suffix);
    if (n < 0 || (size_t)n >= len)
        return mm2_error_set(err, MM2_USAGE, "connector path too long");
    return MM2_OK;
}

/* A call on /connectors/NAME<suffix> (path receives it, for messages): the name checked, the
 * request sent and Connect's answer in resp, whatever its HTTP status. */
static enum mm2_status connector_call(struct mm2_connect *c, const char *method, const char *name,
                                      const char *suffix, const char *body, size_t len, char *path,
                                      size_t pathlen, struct mm2_http_response *resp,
                                      struct mm2_error *err)
{
    enum mm2_status st = connector_path(path, pathlen, name, suffix, err);

    if (st != MM2_OK)
        return st;
    return call(c, method, path, body, len, resp, err);
}

static void copy_str(char *dst, size_t len, const cJSON *v)
{
    (void)snprintf(dst, len, "%s", cJSON_IsString(v) && v->valuestring ? v->valuestring : "");
}

enum mm2_status mm2_connect_info(struct mm2_connect *c, struct mm2_connect_info *out,
                                 struct mm2_error *err)
{
    struct mm2_http_response r;
    enum mm2_status st = call(c, "GET", "/", NULL, 0, &r, err);
    cJSON *root;
    const cJSON *v;

    memset(out, 0, sizeof(*out));
    if (st != MM2_OK)
        return st;
    if (r.status != 200)
        return unexpected("GET", "/", &r, err);
    root = mm2_json_parse_strict(r.body, r.len);
    mm2_http_response_free(&r);
    v = mm2_json_get(root, "version", MM2_JSON_STRING, "GET /", err);
    if (v != NULL) {
        copy_str(out->version, sizeof(out->version), v);
        v = mm2_json_get(root, "kafka_cluster_id", MM2_JSON_STRING, "GET /", err);
    }
    if (v != NULL) {
        copy_str(out->kafka_cluster_id, sizeof(out->kafka_cluster_id), v);
        copy_str(out->commit, sizeof(out->commit),
                 cJSON_GetObjectItemCaseSensitive(root, "commit"));
    }
    cJSON_Delete(root);
    return v != NULL ? MM2_OK : err->code;
}

enum mm2_status mm2_connect_list_info(struct mm2_connect *c, mm2_connect_parse_fn parse, void *out,
                                      struct mm2_error *err)
{
    static const char path[] = "/connectors?expand=info";
    struct mm2_http_response r;
    enum mm2_status st = call(c, "GET", path, NULL, 0, &r, err);

    if (st != MM2_OK)
        return st;
    if (r.status != 200)
        return unexpected("GET", path, &r, err);
    st = parse(r.body, r.len, out, err);
    mm2_http_response_free(&r);
    return st == MM2_OK ? MM2_OK : mm2_error_prefix(err, "GET %s", path);
}

enum mm2_status mm2_connect_config(struct mm2_connect *c, const char *name, cJSON **out,
                                   struct mm2_error *err)
{
    char path[MM2_CONNECT_NAME_MAX + 32];
    struct mm2_http_response r;
    enum mm2_status st;
    cJSON *root;
    const cJSON *v;

    *out = NULL;
    st = connector_call(c, "GET", name, "/config", NULL, 0, path, sizeof(path), &r, err);
    if (st != MM2_OK)
        return st;
    if (r.status == 404) {
        mm2_http_response_free(&r);
        return MM2_OK;
    }
    if (r.status != 200)
        return unexpected("GET", path, &r, err);
    root = mm2_json_parse_strict(r.body, r.len);
    mm2_http_response_free(&r);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "GET %s: the answer is not a JSON object", path);
    }
    cJSON_ArrayForEach(v, root)
    {
        if (!cJSON_IsString(v)) {
            mm2_error_set(err, MM2_UNEXPECTED, "GET %s: config value \"%.100s\" is not a string",
                          path, v->string);
            cJSON_Delete(root);
            return MM2_UNEXPECTED;
        }
    }
    *out = root;
    return MM2_OK;
}

void mm2_connect_status_why(const struct mm2_connector_status *s, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (s->failed_cause[0] == '\0')
        return;
    (void)snprintf(buf, len, "; its trace: %s%s", s->failed_cause,
                   s->failed_authz ? "; a principal lacks an ACL: grant the row of docs/acls.md "
                                     "for it (mm2-offsets preflight names each missing one), then "
                                     "restart the task"
                                   : "");
}

/* "task N STATE on WORKER" of t into buf. */
static void task_line(char *buf, size_t len, const struct mm2_cstate_task *t)
{
    (void)snprintf(buf, len, "task %ld %s on %.40s", t->id, mm2_cstate_name(t->state),
                   t->worker_id != NULL ? t->worker_id : "no worker");
}

enum mm2_status mm2_connect_status_parse(const char *body, size_t len, size_t configs,
                                         struct mm2_connector_status *out, struct mm2_error *err)
{
    cJSON *root = mm2_json_parse_strict(body, len);
    struct mm2_cstate_info info;
    enum mm2_status st = mm2_cstate_read(root, "status", NULL, &info, err);

    memset(out, 0, sizeof(*out));
    out->exists = true;
    out->state = info.state;
    if (st == MM2_OK && info.state == MM2_CSTATE_FAILED) {
        mm2_cstate_trace_cause(info.trace, out->failed_cause, sizeof(out->failed_cause));
        out->failed_authz = mm2_cstate_trace_authz(info.trace);
    }
    for (size_t i = 0; st == MM2_OK && i < info.ntasks; i++) {
        const struct mm2_cstate_task *t = &info.tasks[i];
        if (t->id < 0 || (configs != SIZE_MAX && (unsigned long)t->id >= configs)) {
            if (out->stale++ == 0)
                task_line(out->first_stale, sizeof(out->first_stale), t);
            continue;
        }
        if (out->ntasks++ == 0)
            task_line(out->first_task, sizeof(out->first_task), t);
        if (t->state == MM2_CSTATE_RUNNING) {
            out->tasks_running++;
            continue;
        }
        if (t->state == MM2_CSTATE_FAILED && out->tasks_failed++ == 0 &&
            out->failed_cause[0] == '\0') {
            mm2_cstate_trace_cause(t->trace, out->failed_cause, sizeof(out->failed_cause));
            out->failed_authz = mm2_cstate_trace_authz(t->trace);
        }
        if (out->first_bad_task[0] == '\0')
            task_line(out->first_bad_task, sizeof(out->first_bad_task), t);
    }
    mm2_cstate_info_free(&info);
    cJSON_Delete(root);
    return st;
}

/* The parsers of the GET answers below, each with its out type. */
typedef enum mm2_status (*answer_parser)(const char *body, size_t len, void *out,
                                         struct mm2_error *err);

/* The status answer with the config count to split it by: the parser's out. */
struct status_answer {
    size_t configs;
    struct mm2_connector_status *out;
};

static enum mm2_status parse_status_answer(const char *body, size_t len, void *out,
                                           struct mm2_error *err)
{
    struct status_answer *a = out;

    return mm2_connect_status_parse(body, len, a->configs, a->out, err);
}

static enum mm2_status parse_offsets_answer(const char *body, size_t len, void *out,
                                            struct mm2_error *err)
{
    return mm2_connect_offsets_parse(body, len, out, err);
}

/* GET /connectors/NAME<suffix> with its 200 answer parsed into out; with missing_ok, a 404 (no such
 * connector) is no error and leaves out as the caller cleared it. */
static enum mm2_status get_parsed(struct mm2_connect *c, const char *name, const char *suffix,
                                  bool missing_ok, answer_parser parse, void *out,
                                  struct mm2_error *err)
{
    char path[MM2_CONNECT_NAME_MAX + 32];
    struct mm2_http_response r;
    enum mm2_status st =
        connector_call(c, "GET", name, suffix, NULL, 0, path, sizeof(path), &r, err);

    if (st != MM2_OK)
        return st;
    if (missing_ok && r.status == 404) {
        mm2_http_response_free(&r);
        return MM2_OK;
    }
    if (r.status != 200)
        return unexpected("GET", path, &r, err);
    st = parse(r.body, r.len, out, err);
    mm2_http_response_free(&r);
    return st == MM2_OK ? MM2_OK : mm2_error_prefix(err, "GET %s", path);
}

enum mm2_status mm2_connect_status_split(struct mm2_connect *c, const char *name, size_t configs,
                                         struct mm2_connector_status *out, struct mm2_error *err)
{
    struct status_answer a = {.configs = configs, .out = out};

    memset(out, 0, sizeof(*out));
    return get_parsed(c, name, "/status", true, parse_status_answer, &a, err);
}

enum mm2_status mm2_connect_status(struct mm2_connect *c, const char *name,
                                   struct mm2_connector_status *out, struct mm2_error *err)
{
    return mm2_connect_status_split(c, name, SIZE_MAX, out, err);
}

enum mm2_status mm2_connect_task_configs_parse(const char *body, size_t len, size_t *count,
                                               struct mm2_error *err)
{
    cJSON *root = mm2_json_parse_strict(body, len);
    const cJSON *t;
    size_t n = 0;

    *count = 0;
    if (!cJSON_IsArray(root)) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "the answer is not a JSON array of tasks");
    }
    cJSON_ArrayForEach(t, root)
    {
        if (!cJSON_IsObject(t) || !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(t, "id"))) {
            cJSON_Delete(root);
            return mm2_error_set(err, MM2_UNEXPECTED, "tasks[%zu] is not a task ({\"id\": {...}})",
                                 n);
        }
        if (++n > MM2_CSTATE_TASKS_MAX) {
            cJSON_Delete(root);
            return mm2_error_set(err, MM2_UNEXPECTED, "more than %d tasks", MM2_CSTATE_TASKS_MAX);
        }
    }
    cJSON_Delete(root);
    *count = n;
    return MM2_OK;
}

static enum mm2_status parse_task_configs_answer(const char *body, size_t len, void *out,
                                                 struct mm2_error *err)
{
    return mm2_connect_task_configs_parse(body, len, out, err);
}

enum mm2_status mm2_connect_task_configs(struct mm2_connect *c, const char *name, bool *exists,
                                         size_t *count, struct mm2_error *err)
{
    enum mm2_status st;

    *count = SIZE_MAX; /* left so by a 404 */
    st = get_parsed(c, name, "/tasks", true, parse_task_configs_answer, count, err);
    *exists = st == MM2_OK && *count != SIZE_MAX;
    if (!*exists)
        *count = 0;
    return st;
}

enum mm2_status mm2_connect_create(struct mm2_connect *c, const cJSON *body, bool *created,
                                   struct mm2_error *err)
{
    struct mm2_http_response r;
    char *text = mm2_json_print(body, false);
    enum mm2_status st;

    *created = false;
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "POST /connectors: cannot print the body");
    st = call_ex(c, "POST", "/connectors", text, strlen(text), true, &r, err);
    free(text);
    if (st != MM2_OK)
        return st;
    if (r.status == 201 || r.status == 409) {
        *created = r.status == 201;
        mm2_http_response_free(&r);
        return MM2_OK;
    }
    return unexpected("POST", "/connectors", &r, err);
}

enum mm2_status mm2_connect_offsets(struct mm2_connect *c, const char *name,
                                    struct mm2_source_offsets *out, struct mm2_error *err)
{
    memset(out, 0, sizeof(*out));
    return get_parsed(c, name, "/offsets", false, parse_offsets_answer, out, err);
}

enum mm2_status mm2_connect_patch_offsets(struct mm2_connect *c, const char *name, const char *body,
                                          size_t len, struct mm2_error *err)
{
    char path[MM2_CONNECT_NAME_MAX + 32];
    struct mm2_http_response r;
    enum mm2_status st =
        connector_call(c, "PATCH", name, "/offsets", body, len, path, sizeof(path), &r, err);

    if (st != MM2_OK)
        return st;
    if (r.status != 200)
        return unexpected("PATCH", path, &r, err);
    mm2_http_response_free(&r);
    return MM2_OK;
}

enum mm2_status mm2_connect_put_state(struct mm2_connect *c, const char *name, const char *verb,
                                      struct mm2_error *err)
{
    char suffix[16], path[MM2_CONNECT_NAME_MAX + 32];
    struct mm2_http_response r;
    enum mm2_status st;

    if (strcmp(verb, "stop") != 0 && strcmp(verb, "pause") != 0 && strcmp(verb, "resume") != 0)
        return mm2_error_set(err, MM2_USAGE, "unknown connector state change %.16s", verb);
    (void)snprintf(suffix, sizeof(suffix), "/%s", verb);
    st = connector_call(c, "PUT", name, suffix, NULL, 0, path, sizeof(path), &r, err);
    if (st != MM2_OK)
        return st;
    if (r.status != 202 && r.status != 204)
        return unexpected("PUT", path, &r, err);
    mm2_http_response_free(&r);
    return MM2_OK;
}

enum mm2_status mm2_connect_put_config(struct mm2_connect *c, const char *name, const cJSON *config,
                                       struct mm2_error *err)
{
    char path[MM2_CONNECT_NAME_MAX + 32];
    struct mm2_http_response r;
    char *text = mm2_json_print(config, false);
    enum mm2_status st;

    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "PUT config: cannot print the body");
    st = connector_call(c, "PUT", name, "/config", text, strlen(text), path, sizeof(path), &r, err);
    free(text);
    if (st != MM2_OK)
        return st;
    if (r.status != 200 && r.status != 201)
        return unexpected("PUT", path, &r, err);
    mm2_http_response_free(&r);
    return MM2_OK;
}

enum mm2_status mm2_connect_reset_offsets(struct mm2_connect *c, const char *name,
                                          struct mm2_error *err)
{
    char path[MM2_CONNECT_NAME_MAX + 32];
    struct mm2_http_response r;
    enum mm2_status st =
        connector_call(c, "DELETE", name, "/offsets", NULL, 0, path, sizeof(path), &r, err);

    if (st != MM2_OK)
        return st;
    if (r.status != 200)
        return unexpected("DELETE", path, &r, err);
    mm2_http_response_free(&r);
    return MM2_OK;
}

enum mm2_status mm2_connect_delete(struct mm2_connect *c, const char *name, struct mm2_error *err)
{
    char path[MM2_CONNECT_NAME_MAX + 32];
    struct mm2_http_response r;
    enum mm2_status st =
        connector_call(c, "DELETE", name, "", NULL, 0, path, sizeof(path), &r, err);

    if (st != MM2_OK)
        return st;
    if (r.status != 204 && r.status != 200 && r.status != 404)
        return unexpected("DELETE", path, &r, err);
    mm2_http_response_free(&r);
    return MM2_OK;
}
