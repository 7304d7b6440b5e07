/*
 * mm2_upstart: where an update starts a partition the running connector does not copy yet
 * (docs/day-two.md, mm2-offsets update): the offset it writes for MirrorSourceTask, as a plan
 * entry, or why it refuses to.
 *
 * MirrorSourceTask stores, per source partition, the offset of the last record it copied and
 * seeks to that + 1 when its task starts; a partition without a stored offset starts from the
 * source consumer's auto.offset.reset. So a start at c is the stored offset m = c - 1, and c = 0
 * (an empty log start) is no stored offset at all, with auto.offset.reset earliest: the same two
 * actions as the cutover's plan (mm2_plan.h: "offset", "reset").
 *
 * The modes, each the operator's explicit choice (--start TOPIC=MODE, --carry-over):
 *   flink     c = the Flink group's committed offset C: the target already holds the records
 *             below it (Flink copied them): refused when C has expired, and when the target's
 *             last record is not the copy of the source record at C - 1 (Flink's sink and its
 *             committed offset disagree: the cutover's boundary proof is then the way);
 *   earliest  c = the source's log start: every record it holds is copied, again where Flink had;
 *   latest    c = the source's log end: none of the records it holds is ever copied;
 *   stored    c = Connect's stored offset + 1, for a topic replicated before, removed, and added
 *             back: refused when its next record has expired from the source log, or when the
 *             target's last record is not the copy of the stored one (the target moved since);
 *   carry     the same stored offset under a new key (a new source.cluster.alias, replication
 *             policy or source address): refused when expired, or when an existing target's last
 *             record is not its copy.
 *
 * Contract: pure; never prints, never exits, never talks to the network.
 */
#ifndef MM2_UPSTART_H
#define MM2_UPSTART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_plan.h"

enum mm2_start_mode {
    MM2_START_FLINK,
    MM2_START_EARLIEST,
    MM2_START_LATEST,
    MM2_START_STORED,
    MM2_START_CARRY,
};

/* "flink", "earliest", "latest", "stored" (carry is --carry-over's, never parsed). */
bool mm2_start_mode_parse(const char *s, enum mm2_start_mode *out);
const char *mm2_start_mode_name(enum mm2_start_mode m);

/* What is known of one partition when its start is planned. */
struct mm2_start_facts {
    int64_t log_start, log_end; /* the source partition's */
    int64_t committed;          /* the Flink group's C, -1 when none */
    int64_t stored;             /* Connect's stored offset for the key it starts from, -1 none */
    int64_t target_end;         /* the target partition's high watermark, -1: no target topic */
    bool target_last_copy;      /* the target's last record equals the source record just below
                                   the start: C - 1 (flink), the stored offset (stored, carry) */
    bool reset_latest;          /* the connector's auto.offset.reset is latest */
};

/* Fills e's c, m, action, log_start, log_end, target_start, group_c and boundary ("" where check
 * proves the record before the start too: flink, stored, carry; "unplaced" where no record
 * before it is a copy: earliest, latest) for mode; e's names are the caller's. false with why
 * (one phrase, always terminated) when the start is refused. */
bool mm2_start_entry(enum mm2_start_mode mode, const struct mm2_start_facts *f,
                     struct mm2_pentry *e, char *why, size_t len);

/* What a start does that the operator must know, one phrase into buf (always terminated):
 * earliest "copies N records again (those below Flink's C)" or "copies all N records";
 * latest "never copies the N records from Flink's C to the log end" or "never copies the N
 * records it holds"; "" for the others. */
void mm2_start_consequence(enum mm2_start_mode mode, const struct mm2_start_facts *f, char *buf,
                           size_t len);

#endif
