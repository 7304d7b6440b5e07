/*
 * pfretention: preflight's retention headroom on the source (issue 32 §2.3; mm2-offsets(1)
 * PREFLIGHT): per replicated partition, how long C stays above the log start, by retention.ms
 * from the timestamp of the record at C, and by retention.bytes as an estimate from the records
 * read at C and the produce rate over two reads of the log ends; judged by lib/mm2_preflight
 * (mm2_pf_headroom, mm2_pf_bytes_headroom). Calls job.c and clients.c (job.h has the order of
 * jobs/).
 *
 * Contract: read-only (ListOffsets, OffsetFetch, DescribeConfigs and a Fetch of at most 8
 * offsets a partition); the findings are the caller's; returns MM2_OK or an error status with
 * err set (a Kafka call that failed).
 */
#ifndef JOBS_PFRETENTION_H
#define JOBS_PFRETENTION_H

#include <stdbool.h>
#include <stddef.h>

#include "job.h"
#include "mm2_export.h"
#include "mm2_preflight.h"

/* The headroom of every partition of topics (the replicated set; partitions <= 0: nothing to
 * read), asked with the job's source client: the Flink group's C, the log's bounds, the first
 * record at or after C, retention.ms, retention.bytes and cleanup.policy. When a topic has
 * retention.bytes, the log's bounds are read twice, rate_wait_ms apart (the produce rate), and
 * the second read is the one judged. readable false ([source] may not read all of that, said
 * already): one warning "not checked" and nothing asked. who names the source's bootstrap
 * servers for the fix lines. Passes are one finding per topic (retention, and retention-bytes
 * when the topic has it). */
enum mm2_status job_pf_headroom(struct job *j, const struct mm2_xtopic *topics, size_t ntopics,
                                bool readable, const struct mm2_pf_who *who, long rate_wait_ms,
                                struct mm2_pf_findings *f, struct mm2_error *err);

#endif
