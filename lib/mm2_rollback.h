/*
 * mm2_rollback: the way back to Flink after MM2 ran (rollback-plan, docs/ARCHITECTURE.md §2.1):
 * from the connector's offsets M, the position Flink's group must resume from, C = M + 1 per
 * partition (MirrorSourceTask resumes at M + 1 too); for a planned partition MM2 holds no offset
 * for, it copied nothing of it, so the plan's C still holds. As rows, and as the CSV that
 * kafka-consumer-groups.sh --reset-offsets --from-file reads (TOPIC,PARTITION,OFFSET).
 *
 * Contract: never prints, never exits, never talks to the network. Rows borrow their topic names
 * from the offsets and the plan; the CSV text is malloc'd, the caller's to free, NULL when out
 * of memory.
 */
#ifndef MM2_ROLLBACK_H
#define MM2_ROLLBACK_H

#include <stddef.h>
#include <stdint.h>

#include "mm2_connect.h"
#include "mm2_plan.h"

struct mm2_rollback_row {
    const char *topic;
    int32_t partition;
    int64_t c; /* where Flink resumes */
};

/* C = M + 1 for each offset of o under alias (the connector's source.cluster.alias: MM2 reads no
 * other), then the plan's C for each entry of plan (NULL: none) that o holds no offset for under
 * alias; sorted by topic, then partition. rows has room for o->n + plan->n. Returns how many;
 * *from_plan counts those of the second kind. */
size_t mm2_rollback_rows(const struct mm2_source_offsets *o, const char *alias,
                         const struct mm2_plan *plan, struct mm2_rollback_row *rows,
                         size_t *from_plan);

/* "TOPIC,PARTITION,C\n" per row, in order ("" for none), its length in *len. A row that would
 * not fit 400 bytes (a topic name past 249, which Kafka does not allow) is left out. */
char *mm2_rollback_csv(const struct mm2_rollback_row *rows, size_t n, size_t *len);

#endif
