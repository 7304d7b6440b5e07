/*
 * mm2_tail: the boundary evidence of many partitions, read and classified (mm2_boundary.h): for
 * each, the target's last committed records (the tail) and the source records around the
 * group's committed offset C (the window), read with mm2_kafka_read_many over all partitions at
 * once, so the requests grow with the bytes read, never with the number of partitions.
 *
 * The target's tails and the source's windows are read side by side (a thread for the target's
 * client), each pass a single read of every partition due. Memory: the records held at once
 * stay within prm->memory (mm2_record_cost), half for the tails, half for the windows; a
 * partition is classified as soon as both are read, and its records freed. A read the cap ends
 * defers the partitions it had not finished to a later round (read again from their start:
 * nothing is cut for it), so a typical run is one round of three reads (tails, the short tails
 * further back, windows), and a run whose records do not fit takes more rounds, never more
 * memory. A round that ends nothing is followed by one that drops what the others hold and
 * reads one partition alone within the whole cap: a partition whose records alone pass it is
 * UNREAD, never guessed.
 *
 * The tail is read in at most two passes: the last 2K offsets below the target's last stable
 * offset (K records, and room for transaction markers), then, for a partition that gave fewer
 * than K records and has more log below (an aborted transaction ends it), 64K offsets further
 * back. The window is source [C - K - slack, C + slack), cut to the log.
 *
 * Contract: never prints, never exits. Returns MM2_OK with out[i] filled for every partition, or
 * the first read's error (with the topic and partition). Everything it allocates is freed
 * before it returns.
 */
#ifndef MM2_TAIL_H
#define MM2_TAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_boundary.h"
#include "mm2_deadline.h"
#include "mm2_err.h"
#include "mm2_kafka.h"

/* What is known of one partition before the read. */
struct mm2_tail_part {
    const char *source_topic; /* borrowed */
    const char *target_topic; /* borrowed; NULL when the target partition does not exist */
    int32_t partition;
    int64_t c;            /* the group's committed offset */
    int64_t source_start; /* the source's log start offset */
    int64_t source_end;   /* the source's last stable offset */
    int64_t target_start; /* the target's log start offset */
    int64_t target_end;   /* the target's last stable offset */
    bool compacted;       /* the source topic's cleanup.policy holds compact */
};

struct mm2_tail_params {
    size_t k;      /* tail records to compare (1 to MM2_BND_TAIL_MAX) */
    size_t slack;  /* source records read beyond the tail on each side of C */
    size_t budget; /* key and value bytes read at most per partition and read */
    size_t memory; /* what the records held at once may take (mm2_record_cost), >= 2 budgets */
    struct mm2_bnd_opts opts;
};

struct mm2_tail_stats {
    long requests; /* sent by both clients during the reads */
    long ms;
    size_t records;  /* read, tails and windows */
    size_t cut;      /* reads the byte budget ended */
    size_t rounds;   /* rounds of reads (1 when everything fits in the memory cap) */
    size_t reads;    /* mm2_kafka_read_many calls */
    size_t deferred; /* ranges the memory cap sent to a later round */
    long tail_ms;    /* the target's reads (side by side with the source's) */
    long window_ms;  /* the source's reads */
};

enum mm2_status mm2_tail_classify(struct mm2_kafka *source, struct mm2_kafka *target,
                                  const struct mm2_tail_part *p, size_t n,
                                  const struct mm2_tail_params *prm, const struct mm2_deadline *dl,
                                  struct mm2_bnd_result *out, struct mm2_tail_stats *stats,
                                  struct mm2_error *err);

/* Whether a read for a would read and classify exactly as one for b: the same partition, C, log
 * starts, target end (its last stable offset) and policy, and the same source window end (the
 * source's end matters only while it cuts the window: a source that grew past C + slack reads
 * the same window). export reads the boundary during its wait on the first read's offsets and
 * reads again only the partitions for which this is false after the second. */
bool mm2_tail_same_read(const struct mm2_tail_part *a, const struct mm2_tail_part *b,
                        const struct mm2_tail_params *prm);

#endif
