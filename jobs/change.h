/*
 * change: the running connector's config (GET /connectors/NAME/config) against the connector
 * JSON of the repository ([connector] file), key by key through the masked views of the binding
 * refusal, each change classified by what it does to the stored offsets (lib/mm2_change), and a
 * change of the topic filter judged on the source's topic list: the topics it newly replicates
 * and those it leaves out (docs/day-two.md). What diff prints and update plans from. Calls the
 * tools (clients.c) only (job.h has the order of jobs/).
 *
 * Contract: reads only; *ch is the caller's to free (job_change_free, also after a failure).
 */
#ifndef JOBS_CHANGE_H
#define JOBS_CHANGE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "job.h"
#include "mm2_change.h"

struct job_change {
    cJSON *live;      /* the running config, NULL when the connector does not exist */
    cJSON *live_view; /* its masked view */
    bool exists;
    struct mm2_changes c;
    enum mm2_change_class topics_worst; /* what the filter change counts as */
    enum mm2_change_class worst;        /* the verdict's class */
    /* diff's report (kind mm2kit.diff/v1): connector, file, connect, exists, differs, class,
     * verdict, changes, and for a filter change topics_new, topics_removed or topics_unknown */
    cJSON *rep;
};

/* The auto.offset.reset of MM2's source consumer in a connector config, or "". */
const char *job_change_reset(const cJSON *config);

enum mm2_status job_change_read(struct job *j, struct job_change *ch, struct mm2_error *err);
void job_change_free(struct job_change *ch);

#endif
