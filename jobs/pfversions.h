/*
 * pfversions: preflight's question to every worker (issue 32 §2.5): GET / on each address that
 * [connect] workers names or resolves to (a headless Service resolves to every worker pod, Ready
 * or not), each asked at its own address with the URL's host still naming it for TLS, and the
 * versions and commits compared (mm2_pf_workers). Connect's REST API lists no workers, and the
 * group's members (their URLs are in the Connect protocol's member metadata) cannot be described
 * with librdkafka 2.8: the addresses come from the INI. Calls job.c (job.h has the order of
 * jobs/).
 *
 * Contract: findings only; a worker that does not answer is a finding, not an error. Returns
 * MM2_OK, or MM2_UNEXPECTED (out of memory) with err set.
 */
#ifndef JOBS_PFVERSIONS_H
#define JOBS_PFVERSIONS_H

#include "job.h"
#include "mm2_preflight.h"

/* At most this many workers are asked (every name's addresses together). */
#define JOB_PF_WORKERS_MAX 64

enum mm2_status job_pf_versions(struct job *j, struct mm2_pf_findings *f, struct mm2_error *err);

#endif
