/*
 * readback: the connector's offsets as Connect lists them, read until two reads agree. Calls
 * job.c only (job.h has the order of jobs/).
 *
 * Contract: *out is the caller's to free (mm2_source_offsets_free), on success only; errors are
 * mm2_connect's.
 */
#ifndef JOBS_READBACK_H
#define JOBS_READBACK_H

#include "job.h"
#include "mm2_plan.h"

/* GET /connectors/NAME/offsets until two reads agree (Connect lists partitions from the
 * worker's in-memory view of the offsets topic, which can lag a PATCH just made; the read after
 * a returned one lists all that was written before it, so the second read follows at once and
 * later ones 250 ms apart), at most the retry budget; then the last read, with a warning. With a
 * plan, a read that equals it exactly (every planned offset, no null entry listed, nothing else)
 * ends at once: the view has then read past every record the PATCH wrote, and a STOPPED connector
 * writes none. For a STOPPED connector; needs the Connect client (job_connect). */
enum mm2_status job_read_offsets(struct job *j, const char *name, const struct mm2_plan *plan,
                                 struct mm2_source_offsets *out, struct mm2_error *err);

#endif
