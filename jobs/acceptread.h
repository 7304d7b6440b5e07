/*
 * acceptread: what accept reads of the clusters for its lines (lib/mm2_accept.h judges them):
 * the observation's polls, the records of each planned partition from C up to the source's
 * watermark on both sides, the offset-syncs topic and the target topics now. Calls the tools
 * (clients.c, tconfigs.c; job.h has the order of jobs/).
 *
 * Contract: each returns MM2_OK or an error status with err set (mm2_kafka's and mm2_connect's);
 * what it read goes into the caller's structs, whose memory it frees itself.
 */
#ifndef JOBS_ACCEPTREAD_H
#define JOBS_ACCEPTREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "mm2_accept.h"
#include "mm2_deadline.h"
#include "mm2_plan.h"

/* One poll into *s (at_ms set by the caller): the connector's state (mm2_connlive), its offsets
 * (into *offs, replaced) and the source's log bounds of the planned partitions (start[], end[]
 * of p->n entries, the caller's). */
enum mm2_status job_accept_poll(struct job *j, const struct mm2_plan *p,
                                struct mm2_accept_sample *s, struct mm2_source_offsets *offs,
                                int64_t *start, int64_t *end, struct mm2_error *err);

/* How much of each partition is compared one by one. */
struct job_accept_window {
    size_t per_partition; /* --window */
    size_t left;          /* what --window-total still allows; lowered as it is used */
};

/* Lines 2 and 3 for planned entry e: the source's data records in [from, x->w) counted and the
 * target's from e->target_start, up to as many (waiting for MM2 until the deadline wait), the
 * first win records and the last compared one by one. x->w is the caller's; the rest is set. */
enum mm2_status job_accept_part(struct job *j, const struct mm2_pentry *e, int64_t from,
                                bool committed, struct job_accept_window *win,
                                const struct mm2_deadline *wait, struct mm2_accept_part *x,
                                struct mm2_error *err);

/* The offset-syncs topic on one cluster (k: j->source or j->target) into *state and *end. */
enum mm2_status job_accept_syncs(struct job *j, struct mm2_kafka *k, const char *topic,
                                 enum mm2_accept_syncs *state, int64_t *end, struct mm2_error *err);

/* The plan's target topics now: partitions[i] (-1 when absent or not visible) and configs[i]
 * (tconfigs.h; NULL when not readable), for the p->ntopics topics. */
enum mm2_status job_accept_topics(struct job *j, const struct mm2_plan *p, int32_t *partitions,
                                  cJSON **configs, struct mm2_error *err);

#endif
