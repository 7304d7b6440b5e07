/*
 * bind: an export or a plan given to a subcommand must be one of the migration that the INI file
 * in use describes (lib/mm2_binding.h decides; this reads the cluster ids it needs and prints
 * the verdict), and the cluster ids the INI pins must be the clusters'. Calls job.c and
 * clients.c (job.h has the order of jobs/).
 *
 * Contract: each returns 0 or an exit code of docs/ARCHITECTURE.md §5, after its own lines on
 * stderr.
 */
#ifndef JOBS_BIND_H
#define JOBS_BIND_H

#include "job.h"
#include "mm2_binding.h"

/* The artifact a (an "export" or a "plan", made when Connect ran kafka_version) against the
 * migration of the INI in use (lib/mm2_binding.h): the [flink] group.id, both cluster ids (pinned
 * in the INI, or read from the clusters it names), the connector's name and config, and the topic
 * set. Each mismatch is one "refused:" line, then a closing line ending in not_done. Returns 0
 * when it belongs, else the exit code (1; 3, 4 or 5 when a cluster id could not be read). */
int job_bound(struct job *j, const char *what, const struct mm2_binding *a,
              const char *kafka_version, const char *not_done);

/* The cluster ids pinned in the INI ([source] / [target] cluster.id) against the ids the
 * clusters answered: 0, or 3 after one error line per side that differs. */
int job_pins_hold(struct job *j, const char *source_id, const char *target_id);

#endif
