/*
 * trail: the migration's audit trail on the target cluster (docs/ARCHITECTURE.md §3.4, the audit
 * trail): every artifact and report a subcommand writes is also appended, in chunks, to the [trail]
 * topic, keyed by the migration, so that losing the Job's pod (its emptyDir, its logs) loses
 * nothing until the rollback window ends; `status --trail` reads it back (trailread.c). Calls job.c
 * and clients.c (job.h has the order of jobs/).
 *
 * Contract: returns MM2_OK or an error status with err set; with [trail] enabled = false, puts
 * do nothing (one note on stderr, once). The first put of a run makes sure the topic is fit: it
 * is created when absent (one partition, cleanup.policy delete, retention.ms the rollback window,
 * [trail] replication.factor), and an existing one is refused (MM2_CONFIG, with the
 * kafka-configs.sh line that fixes it) when it would lose records before the window ends:
 * compaction (every chunk of a migration has the same key), a retention.ms below the window, a
 * retention.bytes.
 */
#ifndef JOBS_TRAIL_H
#define JOBS_TRAIL_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "job.h"
#include "mm2_digest.h"

/* The kind of rollback-plan's CSV in the trail (the JSON artifacts carry their own). */
#define JOB_TRAIL_KIND_CSV "mm2kit.rollback-csv/v1"
/* The kind of accept's Markdown report in the trail. */
#define JOB_TRAIL_KIND_MARKDOWN "mm2kit.accept-md/v1"

/* Appends the document (len bytes of text, of kind, with its own seal digest or NULL, to be
 * restored as file's last component) to the trail, as written by the subcommand step (an
 * mm2-offsets subcommand name: the trail's order of steps is checked by it). */
enum mm2_status job_trail_put(struct job *j, const char *step, const char *kind, const char *file,
                              const char *text, size_t len, const char *seal,
                              struct mm2_error *err);

/* The same for a sealed artifact tree (its pretty text, as mm2_artifact_write writes it). */
enum mm2_status job_trail_artifact(struct job *j, const cJSON *tree, const char *file,
                                   const char *seal, struct mm2_error *err);

/* The same for a sealed artifact of kind written as a file in pieces (mm2_artifact_out): its
 * bytes read back from file, which are the pretty text job_trail_artifact records. */
enum mm2_status job_trail_file(struct job *j, const char *kind, const char *file, const char *seal,
                               struct mm2_error *err);

/* The key of this run's migration ([connector]'s name and [flink] group.id), malloc'd; NULL when
 * out of memory. */
char *job_trail_key(const struct job *j);

/* After a put failed: err's message gets what to do ("FILE is not in the audit trail: ...
 * 'mm2-offsets record ...'"); its code stays. */
void job_trail_unrecorded(const struct job *j, struct mm2_error *err, const char *file);

#endif
