/*
 * past: apply's judgement of the offsets a connector holds past the plan (jobs/apply.c).
 *
 * A connector that existed before apply ran and holds an offset past the plan has run since the
 * export: writing the plan would rewind it ([rule progressed]). A connector that apply has just
 * created cannot have run: offsets past the plan were left by an earlier connector of the same
 * name, which Connect keeps after a DELETE ([rule stale-offsets]). Either way, going back to the
 * plan copies the records in between again. Stale offsets are written over only with
 * --replace-stale-offsets; without it, the connector apply created is deleted again. Calls job.c
 * only (job.h has the order of jobs/).
 */
#ifndef JOBS_PAST_H
#define JOBS_PAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "job.h"
#include "mm2_plan.h"

/* A planned partition whose offset in Connect is past the plan: an offset above M, or any offset
 * where the plan writes null (MM2 then starts at the log start). */
struct past {
    const struct mm2_pentry *e;
    int64_t offset; /* Connect's */
    int64_t from;   /* the first offset copied again when the plan is written over it */
    int64_t again;  /* records copied again: offset - from + 1 */
};

/* Fills p (plan->n entries) with the partitions past the plan in o; returns how many. *same is
 * true when o equals the plan already (nothing to PATCH). */
size_t past_plan(const struct mm2_plan *plan, const struct mm2_source_offsets *o, struct past *p,
                 bool *same);

/* The n partitions past the plan, in a connector this run created or not: refused (returns 1,
 * and a connector this run created is deleted again first), or, when this run created it and
 * replace (--replace-stale-offsets) is set, each named in a warning and listed in *replaced (for
 * the report; the caller's) and 0: go on and write the plan. backup names the backup file in
 * the closing line. */
int judge_past(struct job *j, const struct mm2_plan *plan, const struct past *p, size_t n,
               bool created, bool replace, const char *backup, cJSON **replaced);

#endif
