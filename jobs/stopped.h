/*
 * stopped: whether the connector is stopped as Connect decides it (lib/mm2_connlive.h), judged
 * for a subcommand about to write or read its offsets (apply, verify, rollback-plan), and, for
 * apply, whether the connector found is the plan's. Calls job.c only (job.h has the order of
 * jobs/).
 *
 * Contract: problems come back as lines (into buf, or refusals into r), never as exit codes;
 * the caller decides what they stop.
 */
#ifndef JOBS_STOPPED_H
#define JOBS_STOPPED_H

#include <stdbool.h>
#include <stddef.h>

#include "job.h"
#include "mm2_connlive.h"
#include "mm2_plan.h"

/* The remedy for a connector whose status reads UNASSIGNED with zero tasks (format: one %s, the
 * connector's name). A status record written as a worker let the connector go can be resent
 * after a newer one and win (KafkaStatusBackingStore retries a failed write; a connector's, unlike
 * a task's, is not checked for staleness), e.g. across a restart of Connect's Kafka cluster. A
 * second PUT .../stop writes no status, since WorkerConnector.suspend returns at once when the
 * connector is already STOPPED; POST .../restart stops the connector and starts it again in its
 * target state, and a new instance writes that state (STOPPED, or RUNNING if it was resumed). */
#define JOB_STALE_STATUS                                                                           \
    "likely a stale status record (one can outlive a restart of Connect's Kafka cluster while "    \
    "the connector stays stopped, and PUT .../stop writes none for a connector already "           \
    "stopped): POST /connectors/%s/restart (the connector alone) makes its worker write its "      \
    "status afresh"

/* Why a connector must be stopped, for job_stop_problem's why. */
#define JOB_STOP_WHY_WRITE "offsets can only be written to a STOPPED connector"
#define JOB_STOP_WHY_HOLD "the offsets move until the connector is stopped"

/* How the config Connect holds (live, with digest live_digest) differs from the plan's: "in 2
 * keys: tasks.max ("2" in the plan, "4" in Connect), ..." (mm2_cfgview_explain). Into buf. */
void job_config_differs(const struct mm2_plan *plan, const cJSON *live, const char *live_digest,
                        char *buf, size_t len);

/* The problem, if any, of a connector not stopped as Connect decides it (mm2_connlive_read),
 * as one line into buf: "connector N is <how>, not STOPPED; <why>: PUT .../stop, <then> [rule
 * connector-state]" or its variants; true when there is one. For
 * UNASSIGNED with no task config, JOB_STALE_STATUS's remedy. Stale task statuses of a stopped
 * connector are an info line, not a problem; an absent connector is none either (the caller
 * knows what that means). apply, resume, verify and rollback-plan all judge by it. */
bool job_stop_problem(struct job *j, const char *name, const struct mm2_connlive *v,
                      const char *why, const char *then, char *buf, size_t len);

/* The connector's live state against the plan: exists with the plan's config digest, stopped
 * (job_stop_problem). *exists tells whether it exists. Refusals go into r. Needs the Connect
 * client (job_connect). */
enum mm2_status job_connector_stopped(struct job *j, const struct mm2_plan *plan, bool *exists,
                                      struct mm2_refusals *r, struct mm2_error *err);

#endif
