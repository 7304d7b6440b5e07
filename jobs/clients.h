/*
 * clients: what a subcommand talks to, opened from the loaded INI file: Connect's REST API,
 * the source and target Kafka clusters, and the connector's topic filter. Calls job.c only (job.h
 * has the order of jobs/).
 *
 * Contract: each call opens its client once, into struct job (job_free closes them), and is a
 * no-op when it is already open; it returns MM2_OK or an error status with err set.
 */
#ifndef JOBS_CLIENTS_H
#define JOBS_CLIENTS_H

#include <stdbool.h>

#include "job.h"
#include "mm2_deadline.h"

/* The Connect client (after job_load). */
enum mm2_status job_connect(struct job *j, struct mm2_error *err);
/* The Kafka clients (after job_load); either may be skipped. */
enum mm2_status job_kafka(struct job *j, bool source, bool target, struct mm2_error *err);
/* The connector's topic filter and policy for Connect's Kafka version. */
enum mm2_status job_mirror(struct job *j, const char *kafka_version, struct mm2_error *err);

/* A deadline for one Kafka call: the [connect] request timeout. */
void job_kafka_deadline(const struct job *j, struct mm2_deadline *dl);

#endif
