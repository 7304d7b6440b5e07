/*
 * mm2_recheck: the plan's facts against the clusters and Connect as they are now, the re-check
 * that apply and resume both run before they change anything (docs/ARCHITECTURE.md §3.4, §6):
 * the cluster ids, the topics and their partition counts, every topic the connector would
 * replicate being planned, and log start <= C <= log end. The caller reads the facts (mm2_kafka,
 * mm2_connect); these judge them.
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network: pure functions of their inputs.
 *   - Each adds one refusal line per problem to r (mm2_refusal.h), ending in its rule's id
 *     (wrong-source, wrong-target, topics-changed, unplanned, target-missing, partition-count,
 *     expired, beyond-end; resume's: group-active, flink-moved, target-moved), and returns how
 *     many it added. Nothing to free beyond r.
 */
#ifndef MM2_RECHECK_H
#define MM2_RECHECK_H

#include <stddef.h>
#include <stdint.h>

#include "mm2_kafka.h"
#include "mm2_plan.h"
#include "mm2_refusal.h"
#include "mm2_topics.h"

/* The ids the clusters answered now against the plan's: source_id and target_id (the clusters
 * the INI names), and connect_cluster, the Kafka cluster Connect at connect_url runs on (GET /'s
 * kafka_cluster_id), which must be the plan's target. */
size_t mm2_recheck_clusters(const struct mm2_plan *plan, const char *source_id,
                            const char *target_id, const char *connect_cluster,
                            const char *connect_url, struct mm2_refusals *r);

/* The clusters' topics now (src, tgt: as mm2_kafka_topics lists them) against the plan's: each
 * planned topic still on the source with the plan's partition count, its target topic there with
 * the plan's count; then each source topic the connector's filter (mirror, for Connect's Kafka
 * version) replicates but the plan has no entry for, which MM2 would copy from the earliest
 * offset: a full duplicate. */
size_t mm2_recheck_topics(const struct mm2_plan *plan, const struct mm2_topic_list *src,
                          const struct mm2_topic_list *tgt, const struct mm2_mirror *mirror,
                          struct mm2_refusals *r);

/* The source logs now against the plan: start[i] and end[i] are the log start and end of
 * plan->entries[i]. C must still be in [start, end]; an accepted loss is not checked (MM2 starts
 * at the log start, whatever it is). */
size_t mm2_recheck_logs(const struct mm2_plan *plan, const int64_t *start, const int64_t *end,
                        struct mm2_refusals *r);

/* Flink still stopped, at resume (what export proved, proved again: between verify and the
 * approval someone may have restarted the job, and MM2 would then write the target beside it).
 * g: the group now (mm2_kafka_group); committed[i]: the group's committed offset of
 * plan->entries[i] now (MM2_OFFSET_NONE when none); target_hw[i] and target_lso[i]: the high
 * watermark and last stable offset of the entry's target partition now (-1: not read, e.g. the
 * partition is gone, which mm2_recheck_topics refuses). The group must have no member, each
 * committed offset must be the group's C the plan recorded (group_c), and each target partition
 * must end where it ended at export (target_start), with no open transaction. */
size_t mm2_recheck_flink(const struct mm2_plan *plan, const struct mm2_group_info *g,
                         const int64_t *committed, const int64_t *target_hw,
                         const int64_t *target_lso, struct mm2_refusals *r);

#endif
