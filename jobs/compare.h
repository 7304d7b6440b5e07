/*
 * compare: what apply, resume and verify all run once the offsets are written: the connector's
 * state, config and offsets read back from Connect and compared with the plan
 * (docs/ARCHITECTURE.md §2.1; lib/mm2_verify decides), one "mismatch:" line on stderr each, and
 * the verify report. Calls job.c, report.c and readback.c (job.h has the order of jobs/).
 *
 * Contract: the caller owns res->report (cJSON_Delete). Out of memory is an error, never a
 * report with members missing.
 */
#ifndef JOBS_COMPARE_H
#define JOBS_COMPARE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "job.h"
#include "mm2_plan.h"

struct job_comparison {
    size_t checked;
    size_t mismatches;           /* every mismatch line, the connector's own included */
    size_t partition_mismatches; /* of the checked partitions */
    cJSON *report;               /* the verify artifact (unsealed); owned */
};

/* GET the connector's status, config and offsets and compare them with the plan. Fills res;
 * prints each mismatch. Needs the Connect client (job_connect). */
enum mm2_status job_compare(struct job *j, const struct mm2_plan *plan, struct job_comparison *res,
                            struct mm2_error *err);

/* The one error line after a comparison found mismatches: prefix, the counts, then "; not_done"
 * when not_done is not NULL. */
void job_compare_failed(struct job *j, const char *prefix, const struct job_comparison *res,
                        const char *not_done);

#endif
