/*
 * mm2_past: apply's judgement of the offsets a connector holds past the plan
 * (docs/ARCHITECTURE.md §6.4). A connector that existed before apply ran and holds an offset past
 * the plan has run since the export: writing the plan would rewind it ([rule progressed]). A
 * connector that apply has just created cannot have run: offsets past the plan were left by an
 * earlier connector of the same name, which Connect keeps after a DELETE (§4.2, [rule
 * stale-offsets]). Either way, going back to the plan copies the records in between again.
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network: pure functions of the plan and the
 *     offsets Connect listed (mm2_connect_offsets).
 *   - struct mm2_past borrows its entry from the plan: nothing to free; the caller gives room for
 *     plan->n of them. Refusals are one line each (mm2_refusal.h), added to the caller's list.
 */
#ifndef MM2_PAST_H
#define MM2_PAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_connect.h"
#include "mm2_plan.h"
#include "mm2_refusal.h"

/* A planned partition whose offset in Connect is past the plan: an offset above M, or any offset
 * where the plan writes null (MM2 then starts at the log start). */
struct mm2_past {
    const struct mm2_pentry *e;
    int64_t offset; /* Connect's */
    int64_t from;   /* the first offset copied again when the plan is written over it */
    int64_t again;  /* records copied again: offset - from + 1, or 0 below from */
};

/* Fills p (room for plan->n) with the planned partitions whose offset in o, under the plan's
 * alias, is past the plan, in the plan's order; returns how many. *same is true when o already
 * holds the plan for every planned partition (each offset equal, no offset where the plan
 * writes null): nothing to PATCH. */
size_t mm2_past_find(const struct mm2_plan *plan, const struct mm2_source_offsets *o,
                     struct mm2_past *p, bool *same);

/* The n partitions past the plan of a connector that existed before apply ran: one refusal each
 * [rule progressed]. */
void mm2_past_refuse_progressed(const struct mm2_plan *plan, const struct mm2_past *p, size_t n,
                                struct mm2_refusals *r);

/* The n partitions past the plan of a connector apply has just created: one refusal each, naming
 * the offsets copied again and --replace-stale-offsets [rule stale-offsets]. */
void mm2_past_refuse_stale(const struct mm2_plan *plan, const struct mm2_past *p, size_t n,
                           struct mm2_refusals *r);

/* The plan's offset for e as the lines say it: "99", or "null (the log start, C=0)". Into buf. */
void mm2_past_plan_offset(const struct mm2_pentry *e, char *buf, size_t len);

#endif
