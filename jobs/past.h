/*
 * past: what apply does with the offsets a connector holds past the plan, found and refused by
 * lib/mm2_past.h (which says why): refuses them, deleting again the connector this run created,
 * or, with --replace-stale-offsets and only for that connector, names each in a warning and goes
 * on. Calls job.c only (job.h has the order of jobs/).
 *
 * Contract: returns 0 or an exit code of docs/ARCHITECTURE.md §5, after its own lines on stderr.
 */
#ifndef JOBS_PAST_H
#define JOBS_PAST_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "job.h"
#include "mm2_past.h"
#include "mm2_plan.h"

/* The n partitions past the plan, in a connector this run created or not: refused (returns 1,
 * and a connector this run created is deleted again first), or, when this run created it and
 * replace (--replace-stale-offsets) is set, each named in a warning and listed in *replaced (for
 * the report; the caller's) and 0: go on and write the plan. backup names the backup file in
 * the closing line. Needs the Connect client (job_connect). */
int job_judge_past(struct job *j, const struct mm2_plan *plan, const struct mm2_past *p, size_t n,
                   bool created, bool replace, const char *backup, cJSON **replaced);

#endif
