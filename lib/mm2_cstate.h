/*
 * mm2_cstate: the states of a Connect connector and its tasks, and the one reader of the status
 * object that carries them (ConnectorStateInfo: GET /connectors/{name}/status, and each entry
 * of GET /connectors?expand=status), used by mm2-probe and mm2-offsets alike.
 *
 * Contract:
 *   - Never prints, never exits. The states are org.apache.kafka.connect.runtime.AbstractStatus
 *     .State, as an enum: compare with ==, print with mm2_cstate_name.
 *   - mm2_cstate_read checks types, not guesses: a missing or mistyped field, a state outside
 *     the enum, or more than MM2_CSTATE_TASKS_MAX tasks is MM2_UNEXPECTED with err naming the
 *     JSON path below `where`, e.g. `status.tasks[1].state "NOPE" is not a state`. Unknown
 *     extra fields are ignored.
 *   - Strings in the result point into the caller's cJSON tree (valid while it lives); the task
 *     array is the result's own: mm2_cstate_info_free frees it (accepts NULL and a zeroed one).
 */
#ifndef MM2_CSTATE_H
#define MM2_CSTATE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "mm2_err.h"

/* Most tasks read for one connector (MirrorSourceConnector makes at most tasks.max, one per
 * partition group). */
#define MM2_CSTATE_TASKS_MAX 10000

/* org.apache.kafka.connect.runtime.AbstractStatus.State, in its order. */
enum mm2_cstate {
    MM2_CSTATE_UNASSIGNED,
    MM2_CSTATE_RUNNING,
    MM2_CSTATE_PAUSED,
    MM2_CSTATE_FAILED,
    MM2_CSTATE_DESTROYED,
    MM2_CSTATE_RESTARTING,
    MM2_CSTATE_STOPPED, /* KIP-875 */
};

/* The state as Connect writes it ("RUNNING"); static, never NULL. */
const char *mm2_cstate_name(enum mm2_cstate s);

/* The state Connect wrote as text (exact, upper case), or false when it is none of them. */
bool mm2_cstate_parse(const char *text, enum mm2_cstate *out);

struct mm2_cstate_task {
    long id;
    enum mm2_cstate state;
    const char *worker_id; /* NULL when null or not given */
    const char *trace;     /* NULL when absent or null */
};

struct mm2_cstate_info {
    const char *name; /* NULL unless the reader was given one */
    const char *type; /* likewise */
    enum mm2_cstate state;
    const char *worker_id;
    const char *trace;
    struct mm2_cstate_task *tasks; /* in Connect's order */
    size_t ntasks;
    size_t running; /* tasks RUNNING */
    size_t failed;  /* tasks FAILED */
};

/* Reads status, a ConnectorStateInfo {"name", "connector": {"state", "worker_id", "trace"?},
 * "tasks": [{"id", "state", "worker_id", "trace"?}], "type"}, into *out (reset first; free it
 * with mm2_cstate_info_free whatever the status). `where` names status in messages ("status",
 * "\"mirror-source\".status").
 *
 * With name NULL only what a state needs is required: connector.state, and each task's id (an
 * integer) and state; worker_id and trace are kept when they are strings. With a name, the
 * whole object is required as the connector listing gives it: status.name equal to name, type,
 * worker_id (a string or null) on the connector and every task, trace a string when present,
 * and task ids from 0 to INT_MAX (a Java int). */
enum mm2_status mm2_cstate_read(const cJSON *status, const char *where, const char *name,
                                struct mm2_cstate_info *out, struct mm2_error *err);
void mm2_cstate_info_free(struct mm2_cstate_info *info);

/* Longest cause mm2_cstate_trace_cause writes, its NUL included. */
#define MM2_CSTATE_CAUSE_MAX 320

/* What a FAILED connector's or task's trace says, on one line of at most len - 1 bytes (control
 * characters as '?'): the root cause (its last "Caused by: " line, or the first line when there
 * is none) as the exception's simple name and message, then the first line's exception where it
 * differs. A Kafka authorization refusal (an exception named *AuthorizationException: a missing
 * ACL, docs/acls.md) is said first: "authorization: TopicAuthorizationException: Not authorized
 * to access topics: [orders] (under ConnectException: Unrecoverable exception from producer send
 * callback)". Empty for a NULL or empty trace. */
void mm2_cstate_trace_cause(const char *trace, char *buf, size_t len);

/* True when the trace names a Kafka authorization exception anywhere (its root cause or not). */
bool mm2_cstate_trace_authz(const char *trace);

#endif
