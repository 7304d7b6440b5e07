/*
 * connect_status: strict reading of GET /connectors?expand=status, Connect's map of connector
 * name -> {"status": {"name", "connector": {"state", "worker_id", "trace"?},
 *                     "tasks": [{"id", "state", "worker_id", "trace"?}], "type"}}.
 *
 * Contract:
 *   - connect_status_parse never prints. On MM2_OK *out holds the connectors sorted by name;
 *     free it with connect_status_free (accepts NULL). Every string points into the parsed tree,
 *     which *out owns: valid until connect_status_free.
 *   - Each status is read by mm2_cstate_read with the connector's name, so the whole
 *     ConnectorStateInfo is required. Types are checked, not guessed: any missing or mistyped
 *     field, a state outside mm2_cstate, a name that differs from its key, or more than
 *     CONNECT_STATUS_MAX connectors is MM2_UNEXPECTED, with err naming the JSON path, e.g.
 *     `"mirror-source".status.tasks[0].id is not an integer from 0 to 2147483647`. Unknown
 *     extra fields are ignored.
 *   - worker_id may be null (kept as NULL); trace is optional (NULL when absent or null).
 */
#ifndef PROBE_CONNECT_STATUS_H
#define PROBE_CONNECT_STATUS_H

#include <stddef.h>

#include "mm2_cstate.h"
#include "mm2_err.h"

#define CONNECT_STATUS_MAX 10000

struct connect_status {
    struct mm2_cstate_info *connectors; /* sorted by name */
    size_t n;
    void *tree; /* the cJSON tree the strings point into */
};

enum mm2_status connect_status_parse(const char *body, size_t len, struct connect_status **out,
                                     struct mm2_error *err);
void connect_status_free(struct connect_status *s);

/* The connector called name, or NULL. */
const struct mm2_cstate_info *connect_status_find(const struct connect_status *s, const char *name);

#endif
