/*
 * report: the artifacts a subcommand prints on stdout (verify's and check's reports): their
 * "migration" object, and the report sealed, written and printed. Calls lib/ only (job.h has the
 * order of jobs/).
 *
 * Contract: returns MM2_OK or an error status with err set; the caller keeps the report.
 */
#ifndef JOBS_REPORT_H
#define JOBS_REPORT_H

#include <cjson/cJSON.h>

#include "job.h"
#include "mm2_connect.h"
#include "mm2_err.h"
#include "mm2_plan.h"

/* Adds the plan's migration to a backup or report, as its "migration" object. */
enum mm2_status job_add_migration(cJSON *report, const struct mm2_plan *plan,
                                  struct mm2_error *err);

/* Appends each source offset of offs to arr as {"cluster", "topic", "partition", "offset"}
 * (stop's and remove's reports); stops early when out of memory. */
void job_add_offsets(cJSON *arr, const struct mm2_source_offsets *offs);

/* Seals report, writes it to path (when not NULL), prints it on stdout and records it in the
 * audit trail (trail.h; as file, or "<subcommand>.json" without one). A trail that fails leaves
 * the file written and the report printed: err then says how to record it later. */
enum mm2_status job_report(struct job *j, const char *what, cJSON *report, const char *path,
                           struct mm2_error *err);

#endif
