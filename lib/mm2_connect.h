/*
 * mm2_connect: the Kafka Connect REST calls mm2-offsets makes (docs/ARCHITECTURE.md §3.4, §4.1):
 * GET /, a connector's config and status, create (initial_state), GET and PATCH offsets, stop and
 * resume.
 *
 * Contract:
 *   - Never prints, never exits. Errors carry the method, path and Connect's own message, one
 *     line, e.g. "PATCH /connectors/x/offsets: HTTP 400: Connectors must be in the STOPPED ...".
 *   - Each request is bounded by the client's request timeout (Connect itself gives up on offset
 *     reads and writes after 90 s, so the default is a little above that). HTTP 409 (a rebalance
 *     in progress, or "stale configuration" during a concurrent config change), HTTP 500
 *     "Request cannot be completed because a rebalance is expected", and a GET's HTTP 500 "Failed
 *     to retrieve offsets for source connector" (a race inside the worker), and HTTP 500 "IO Error
 *     trying to forward REST request" (RestClient: the worker cannot reach the leader a write
 *     must go to), are retried with backoff (250 ms doubling, 50 ms first for the offsets race,
 *     at most 5 s apart) until the
 *     retry budget is spent; every retry is reported through the notify callback, if one is
 *     set, so the caller can show progress.
 *   - Status codes (docs/ARCHITECTURE.md §5): MM2_UNREACHABLE when Connect does not answer
 *     (or keeps answering one of those past the budget; for the leader's, the error says so),
 *     MM2_UNEXPECTED for an answer that is not what the call expects (wrong status, body that
 *     is not the documented JSON), MM2_USAGE for a connector name this client will not put in
 *     a URL.
 *   - An answer is capped (mm2_limits.h) at MM2_CONNECT_BODY_MAX bytes, refused as soon as it
 *     passes them, and at MM2_JSON_VALUES_MAX JSON values, counted before it is parsed: both
 *     MM2_UNEXPECTED.
 *   - Parsed results are owned by the caller and freed with the matching *_free (NULL-safe).
 *   - Offsets of a MirrorSourceConnector (MirrorUtils.wrapPartition / wrapOffset): partition
 *     {"cluster": alias, "topic": t, "partition": p}, offset {"offset": n}; an entry whose offset
 *     is null (a reset partition) counts as absent. Anything else in an offsets answer is
 *     MM2_UNEXPECTED naming the entry.
 *   - Connect lists a connector's partitions from the worker's in-memory view of the offsets
 *     topic (Worker.sourceConnectorOffsets: values are read fresh, the set of partitions is not),
 *     so right after a PATCH a GET can miss partitions: callers re-read until it is stable.
 */
#ifndef MM2_CONNECT_H
#define MM2_CONNECT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_cstate.h"
#include "mm2_err.h"
#include "mm2_limits.h"

#define MM2_CONNECT_NAME_MAX 200

struct mm2_connect;

/* Called before each retry: what was asked ("PATCH /connectors/x/offsets"), the status that made
 * it retry, why such an answer is retried (a short phrase), and how long it waits now. Status 0:
 * the connection was refused or found no route (mm2_connect_set_connect_wait), why is the error. */
typedef void (*mm2_connect_notify_fn)(void *ctx, const char *what, long status, const char *why,
                                      long wait_ms);

/* A client for the Connect REST base URL (http[s]://host:port). */
enum mm2_status mm2_connect_new(const char *url, long request_timeout_ms, long retry_budget_ms,
                                struct mm2_connect **out, struct mm2_error *err);
void mm2_connect_free(struct mm2_connect *c);

/* Verifies an https:// Connect URL against the CA certificate(s) in the PEM file `path` only
 * (mm2_http_set_cacert): MM2_CONFIG when the file cannot be read. */
enum mm2_status mm2_connect_set_cacert(struct mm2_connect *c, const char *path,
                                       struct mm2_error *err);
/* Sends user and password as HTTP Basic with every request (mm2_http_set_basic_auth): a worker
 * running Kafka's basic-auth REST extension. MM2_CONFIG for an unusable pair. */
enum mm2_status mm2_connect_set_basic_auth(struct mm2_connect *c, const char *user,
                                           const char *password, struct mm2_error *err);
/* Talks to the worker at the numeric address addr, the URL's host still naming it for TLS
 * (mm2_http_pin_address): one worker of a headless Service. */
enum mm2_status mm2_connect_pin_address(struct mm2_connect *c, const char *addr,
                                        struct mm2_error *err);
void mm2_connect_set_notify(struct mm2_connect *c, mm2_connect_notify_fn fn, void *ctx);
/* Until any worker has answered this client, a request whose connection is refused or finds no
 * route is sent again (every 500 ms, the notify callback told with status 0) for up to wait_ms
 * from the first such failure: nothing reached a worker, so even a POST is safe to repeat. A
 * pod just started can be refused by a NetworkPolicy engine that has not yet added it to the
 * workers' allowed sources, or reach a Service whose endpoints are not ready. 0: no wait. Once
 * a worker has answered, a refused connection fails at once, as before. */
void mm2_connect_set_connect_wait(struct mm2_connect *c, long wait_ms);

/* HTTP requests sent so far, retries included (the benchmark's round trips). */
long mm2_connect_requests(const struct mm2_connect *c);

/* True when name is a connector name this client puts in a URL: 1..MM2_CONNECT_NAME_MAX bytes of
 * [A-Za-z0-9._-]. On false a reason goes into why. */
bool mm2_connect_name_valid(const char *name, char *why, size_t whylen);

struct mm2_connect_info {
    char version[64];
    char commit[64];
    char kafka_cluster_id[64];
};

/* GET /: the worker's Kafka version and the cluster id of its Kafka cluster (the target). */
enum mm2_status mm2_connect_info(struct mm2_connect *c, struct mm2_connect_info *out,
                                 struct mm2_error *err);

/* A parser of an answer's body into out (the caller's type). */
typedef enum mm2_status (*mm2_connect_parse_fn)(const char *body, size_t len, void *out,
                                                struct mm2_error *err);
/* GET /connectors?expand=info: every connector of the Connect cluster with its config, the 200
 * answer given to parse (mm2_accept_classes_parse reads the classes). */
enum mm2_status mm2_connect_list_info(struct mm2_connect *c, mm2_connect_parse_fn parse, void *out,
                                      struct mm2_error *err);
/* GET /connectors/{name}/config: *out is the config object, or NULL when the connector does not
 * exist (404). */
enum mm2_status mm2_connect_config(struct mm2_connect *c, const char *name, cJSON **out,
                                   struct mm2_error *err);

struct mm2_connector_status {
    bool exists;
    enum mm2_cstate state;
    size_t ntasks; /* task entries counted (with a config count: those that have a config) */
    size_t tasks_running;
    size_t tasks_failed;
    size_t stale;            /* with a config count: entries with no task config behind them */
    char first_bad_task[96]; /* "task 2 FAILED on 10.0.0.7:8088", or "" */
    char first_task[96];     /* the same of the first entry counted, whatever its state, or "" */
    char first_stale[96];    /* the same of the first stale entry, or "" */
    /* What the trace of the connector, when FAILED, or else of the first FAILED task counted
     * says (mm2_cstate_trace_cause), or "". */
    char failed_cause[MM2_CSTATE_CAUSE_MAX];
    bool failed_authz; /* that trace names a Kafka authorization exception */
};

/* "" or, when something FAILED, "; its trace: CAUSE" and for an authorization refusal what to
 * do about it (a missing ACL: docs/acls.md, mm2-offsets preflight): for messages. */
void mm2_connect_status_why(const struct mm2_connector_status *s, char *buf, size_t len);

/* GET /connectors/{name}/status; exists is false on 404. Every task entry is counted. */
enum mm2_status mm2_connect_status(struct mm2_connect *c, const char *name,
                                   struct mm2_connector_status *out, struct mm2_error *err);
/* The same, its task entries split by a task config count (mm2_connect_status_parse). */
enum mm2_status mm2_connect_status_split(struct mm2_connect *c, const char *name, size_t configs,
                                         struct mm2_connector_status *out, struct mm2_error *err);
/* The parser behind it (mm2_cstate_read, with only what a state needs required), for tests and
 * fuzzing: task entries whose id is configs or more are counted in stale, not in ntasks
 * (SIZE_MAX: every entry counted). */
enum mm2_status mm2_connect_status_parse(const char *body, size_t len, size_t configs,
                                         struct mm2_connector_status *out, struct mm2_error *err);

/* GET /connectors/{name}/tasks: how many task configs the connector has (Connect lists one per
 * task of ClusterConfigState.taskCount, the count DistributedHerder.modifyConnectorOffsetsChecks
 * requires to be 0); *exists false on 404. An answer that is not an array of objects, or longer
 * than MM2_CSTATE_TASKS_MAX, is MM2_UNEXPECTED. */
enum mm2_status mm2_connect_task_configs(struct mm2_connect *c, const char *name, bool *exists,
                                         size_t *count, struct mm2_error *err);
/* Its parser, for tests and fuzzing. */
enum mm2_status mm2_connect_task_configs_parse(const char *body, size_t len, size_t *count,
                                               struct mm2_error *err);

/* POST /connectors with body {"name", "config", "initial_state"}. *created is true on 201 and
 * false on 409 "Connector NAME already exists" (the caller inspects it); any other 409 (a
 * rebalance, a concurrent config change) is retried like every call. */
enum mm2_status mm2_connect_create(struct mm2_connect *c, const cJSON *body, bool *created,
                                   struct mm2_error *err);

struct mm2_source_offset {
    char *cluster;
    char *topic;
    int32_t partition;
    int64_t offset;
};

struct mm2_source_offsets {
    struct mm2_source_offset *v; /* sorted by cluster, topic, partition */
    size_t n;
};

/* GET /connectors/{name}/offsets. 404 is MM2_UNEXPECTED ("connector not found"). */
enum mm2_status mm2_connect_offsets(struct mm2_connect *c, const char *name,
                                    struct mm2_source_offsets *out, struct mm2_error *err);
/* The parser behind it, for tests and fuzzing. */
enum mm2_status mm2_connect_offsets_parse(const char *body, size_t len,
                                          struct mm2_source_offsets *out, struct mm2_error *err);
void mm2_source_offsets_free(struct mm2_source_offsets *o);
/* The entry for (cluster, topic, partition), or NULL. */
const struct mm2_source_offset *mm2_source_offsets_find(const struct mm2_source_offsets *o,
                                                        const char *cluster, const char *topic,
                                                        int32_t partition);

/* PATCH /connectors/{name}/offsets with body (JSON text); 200 is success. */
enum mm2_status mm2_connect_patch_offsets(struct mm2_connect *c, const char *name, const char *body,
                                          size_t len, struct mm2_error *err);

/* PUT /connectors/{name}/{verb} for verb "stop", "pause" or "resume" (202 or 204). */
enum mm2_status mm2_connect_put_state(struct mm2_connect *c, const char *name, const char *verb,
                                      struct mm2_error *err);

/* PUT /connectors/{name}/config with config (a string map; 200 updated or 201 created). */
enum mm2_status mm2_connect_put_config(struct mm2_connect *c, const char *name, const cJSON *config,
                                       struct mm2_error *err);

/* DELETE /connectors/{name}/offsets (KIP-875: every source offset of a STOPPED connector
 * removed; 200). */
enum mm2_status mm2_connect_reset_offsets(struct mm2_connect *c, const char *name,
                                          struct mm2_error *err);

/* DELETE /connectors/{name} (204; 404 counts as done). */
enum mm2_status mm2_connect_delete(struct mm2_connect *c, const char *name, struct mm2_error *err);

#endif
