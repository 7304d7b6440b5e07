/*
 * recheck: the plan's facts against the clusters and Connect as they are now, which apply and
 * resume both run before they change anything (docs/ARCHITECTURE.md §3.4). Calls job.c and
 * clients.c (job.h has the order of jobs/).
 *
 * Contract: refusals go into r (the caller's); the call returns MM2_OK (look at r->n) or an
 * error status with err set.
 */
#ifndef JOBS_RECHECK_H
#define JOBS_RECHECK_H

#include "job.h"
#include "mm2_plan.h"

/* Cluster ids of source, target and Connect's group, partition counts, every topic the connector
 * would replicate being planned, and log start <= C <= log end. Opens the clients it needs, reads
 * Connect's version into j->connect_version and the connector's filter for it (job_mirror). */
enum mm2_status job_recheck(struct job *j, const struct mm2_plan *plan, struct mm2_refusals *r,
                            struct mm2_error *err);

/* resume's proof that Flink is still stopped (mm2_recheck_flink): the group's members and
 * committed offsets on the source, the target partitions' ends and last stable offsets. Call
 * after job_recheck (it opens the Kafka clients). */
enum mm2_status job_recheck_flink(struct job *j, const struct mm2_plan *plan,
                                  struct mm2_refusals *r, struct mm2_error *err);

#endif
