/*
 * trailread: the audit trail read back (docs/ARCHITECTURE.md §3.4, the audit trail), for `status
 * --trail`: every record of the trail topic from its log start to its end, this migration's chunks
 * reassembled and their digests checked (mm2_trail), optionally each complete document restored as
 * a file, and what is missing said. Calls job.c, clients.c and trail.c (job.h has the order of
 * jobs/).
 *
 * Contract: returns 0 when the trail is whole (at least one document, none incomplete or
 * corrupt, no step missing), else an exit code of docs/ARCHITECTURE.md §5 (1 for a trail that is
 * not whole, each problem on stderr as "refused: ..."). Prints the documents on stdout (text, or
 * JSON with json).
 */
#ifndef JOBS_TRAILREAD_H
#define JOBS_TRAILREAD_H

#include <stdbool.h>

#include "job.h"

/* Reads the trail of the loaded INI's migration; with restore_dir, writes each complete document
 * there as OFFSET-FILE (the offset of its first chunk, then its file name) and, for a JSON
 * artifact, reads it back as mm2-offsets reads an artifact (its seal checked). */
int job_trail_show(struct job *j, const char *restore_dir, bool json);

#endif
