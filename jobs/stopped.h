/*
 * stopped: whether the connector is stopped as Connect decides it, judged by lib/mm2_verify for a
 * subcommand about to write or read its offsets (apply, rollback-plan), and, for apply, whether
 * the connector found is the plan's. Calls job.c only (job.h has the order of jobs/).
 *
 * Contract: problems come back as lines (into buf, or refusals into r), never as exit codes;
 * the caller decides what they stop. Notes (stale task statuses) are printed here.
 */
#ifndef JOBS_STOPPED_H
#define JOBS_STOPPED_H

#include <stdbool.h>
#include <stddef.h>

#include "job.h"
#include "mm2_connlive.h"
#include "mm2_plan.h"
#include "mm2_verify.h"

/* The problem, if any, of a connector not stopped as Connect decides it (mm2_connlive_read), as
 * one line into buf (mm2_verify_stopped, with why one of MM2_VERIFY_WHY_*); true when there is
 * one. Stale task statuses of a stopped connector are an info line here, not a problem; an absent
 * connector is none either (the caller knows what that means). */
bool job_stop_problem(struct job *j, const char *name, const struct mm2_connlive *v,
                      const char *why, const char *then, char *buf, size_t len);

/* The connector's live state against the plan: exists with the plan's config
 * (mm2_verify_connector_config), stopped (job_stop_problem). *exists tells whether it exists.
 * Refusals go into r. Needs the Connect client (job_connect). */
enum mm2_status job_connector_stopped(struct job *j, const struct mm2_plan *plan, bool *exists,
                                      struct mm2_refusals *r, struct mm2_error *err);

/* Polls the connector until it is stopped as Connect decides it (job_stop_problem), at most
 * timeout_ms; 0, or the exit code after printing why (MM2_UNREACHABLE when not in time). */
int job_wait_stopped(struct job *j, const char *name, long timeout_ms);

/* Polls until the connector and each of its tasks (those with a config) are RUNNING, at most
 * timeout_ms; 0, MM2_CHECK_FAILED for a FAILED connector or task (its trace's cause printed), or
 * MM2_UNREACHABLE when not in time. */
int job_wait_running(struct job *j, const char *name, long timeout_ms);

#endif
