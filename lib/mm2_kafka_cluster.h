/*
 * mm2_kafka_cluster: what a cluster says of itself (its id, its topics, its partitions' log
 * offsets), internal part: the ListOffsets the bounded read asks before it reads (callers use
 * mm2_kafka.h: mm2_kafka_cluster_id, mm2_kafka_topics, mm2_kafka_log_offsets). Above
 * mm2_kafka_handle.c, which it calls; mm2_kafka_read.c calls it (mm2_kafka_handle.h has the
 * order of the files).
 *
 * Contract: as mm2_kafka_handle.h's. Never prints, never exits; errors come back as an
 * enum mm2_status with err filled ("[role] <what>: ..."); the caller owns out and frees nothing
 * of this file's: each request's list is made and destroyed within the call.
 */
#ifndef MM2_KAFKA_CLUSTER_H
#define MM2_KAFKA_CLUSTER_H

#include "mm2_kafka_handle.h"

/* ListOffsets for timestamp ts (-2 log start, -1 end by h's isolation.level: high watermark on a
 * read_uncommitted handle, last stable offset on a read_committed one) on every partition into
 * out, in the caller's order, in calls of MM2_KAFKA_HANDLE_PARTITIONS_PER_CALL, each retried
 * until the deadline (mm2_kafka_handle_settle); what names the call in messages. The caller has
 * checked tps (mm2_kafka_handle_tp_index). out is only meaningful on MM2_OK. */
enum mm2_status mm2_kafka_cluster_list_offsets(struct mm2_kafka *k, struct handle *h,
                                               const struct mm2_tp *tps, size_t n, int64_t ts,
                                               int64_t *out, const char *what,
                                               const struct mm2_deadline *dl,
                                               struct mm2_error *err);

#endif
