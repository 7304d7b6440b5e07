/*
 * pfread: what both preflights share (the INI's, preflight.c, and the workers', pfworkers.c):
 * Kafka's answers as lib/mm2_preflight takes them, Connect's internal topics read and judged,
 * the findings said on stderr and sealed into the report. Calls job.c and report.c (job.h has
 * the order of jobs/).
 *
 * Contract: the findings are the caller's; each call returns MM2_OK or an error status with err
 * set (a Kafka call that failed), or nothing.
 */
#ifndef JOBS_PFREAD_H
#define JOBS_PFREAD_H

#include <cjson/cJSON.h>

#include "job.h"
#include "mm2_kafka.h"
#include "mm2_preflight.h"

/* What Kafka answered (mm2_kafka_describe_*) as mm2_pf_need takes it. */
struct mm2_pf_auth job_pf_auth(const struct mm2_kafka_described *d);

/* Connect's three internal topics (names[3]: config, offset, status) on k, asked with who's
 * credentials: described, their cleanup.policy and min.insync.replicas, judged against rf and
 * isr (mm2_pf_internal_topic). keys[3] name where each name came from, for messages. */
enum mm2_status job_pf_internal_topics(struct job *j, struct mm2_kafka *k,
                                       const struct mm2_pf_who *who, const char *const *names,
                                       const char *const *keys, long rf, long isr,
                                       struct mm2_pf_findings *f, struct mm2_error *err);

/* Each finding on stderr (refusals as errors, warnings as warnings, passes as progress), then
 * the counts. */
void job_pf_say(struct job *j, const struct mm2_pf_findings *f);

/* Adds the findings to root (kind and the rest already there), seals it, writes it to path when
 * given and prints it on stdout. */
enum mm2_status job_pf_report(struct job *j, cJSON *root, const struct mm2_pf_findings *f,
                              const char *path, struct mm2_error *err);

/* The closing verdict: 1 after one line when anything refused, else 0. */
int job_pf_verdict(struct job *j, const struct mm2_pf_findings *f);

#endif
