/*
 * pfworkers: preflight --workers, run where the workers' credentials are (a worker pod, or a Job
 * that mounts only the workers' Secret and ConfigMap): the workers' own principal, from the
 * environment the entrypoint reads (CONNECT_BOOTSTRAP_SERVERS, CONNECT_GROUP_ID, the three
 * CONNECT_*_STORAGE_TOPIC, CONNECT_SASL_JAAS_CONFIG), asked what it may do on its group and the
 * internal topics, and those topics judged. The offset Job never mounts these credentials.
 * Calls job.c, clients.c and pfread.c (job.h has the order of jobs/).
 *
 * Contract: returns an exit code of docs/ARCHITECTURE.md §5 after its own lines on stderr; the
 * JAAS value and the password in it are never printed (registered as secrets first).
 */
#ifndef JOBS_PFWORKERS_H
#define JOBS_PFWORKERS_H

#include "job.h"

/* rf and isr: what the internal topics must have at least (replication factor,
 * min.insync.replicas); timeout_ms: each Kafka request's deadline. path: where to write the
 * report too, or NULL. */
int job_pf_workers(struct job *j, long rf, long isr, long timeout_ms, const char *path);

#endif
