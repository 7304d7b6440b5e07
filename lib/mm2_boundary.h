/*
 * mm2_boundary: where Flink's copy of a partition really ends, proven record by record.
 *
 * The group's committed offset C says Flink copied source records below C. Three failures make
 * that untrue on the target: the sink's last transaction was aborted by the broker after the
 * source committed C (TransactionCoordinator aborts a transaction left open past
 * transaction.timeout.ms), so the target lacks the last k records; an at-least-once sink (or a
 * job cancelled without a final checkpoint) already wrote past C; or the sink's partitioner
 * (FlinkFixedPartitioner, the producer's key hash) wrote a source partition into other target
 * partitions. This module places the target's tail (its last committed records) in a window of
 * the source partition around C and says which case holds, with the offsets as evidence.
 *
 * Records are struct mm2_record as mm2_kafka_read returns them (a NULL key, value or header value
 * is null). Matching is on the bytes of key and value (a null key or value differs from an empty
 * one), and optionally on headers (name, value and order) and timestamps, the fields Flink may
 * rewrite.
 * Records are compared in log order, never by offset arithmetic: transaction markers, aborted
 * records and compaction leave offsets that no consumer sees, in the source and in the target.
 *
 * Contract:
 *   - Pure: never prints, never talks to the network, allocates nothing of its own (OpenSSL
 *     hashes the digests), reads only what it is given, so it is unit-tested on record
 *     sequences and fuzzed.
 *   - Records point at the caller's bytes; nothing here keeps a pointer after returning.
 *   - The tail is the target's last committed records in log order (at most MM2_BND_TAIL_MAX);
 *     the window is the source partition's committed records between two offsets, in order,
 *     each offset greater than the one before.
 */
#ifndef MM2_BOUNDARY_H
#define MM2_BOUNDARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_kafka.h"

/* The most tail records one classification compares (the INI's tail.records is capped to it). */
#define MM2_BND_TAIL_MAX 256
/* A short digest in evidence: the first 12 hex digits of a record's SHA-256. */
#define MM2_BND_DIGEST_LEN 12
/* The longest reason a result gives, NUL included. */
#define MM2_BND_WHY_MAX 128

/* The source records read around C. */
struct mm2_bnd_window {
    const struct mm2_record *recs;
    size_t n;
    int64_t from;      /* the first offset asked for */
    int64_t log_start; /* the partition's log start offset when read */
    bool compacted;    /* cleanup.policy holds compact: an offset gap may be a removed record */
};

struct mm2_bnd_opts {
    bool headers;    /* Flink kept the headers: compare them */
    bool timestamps; /* Flink kept the timestamps: compare them */
};

/* The classes, in the order plan reports them. Appended to only. */
enum mm2_bnd_class {
    MM2_BND_ALIGNED,   /* the tail ends at the last source record below C */
    MM2_BND_AHEAD,     /* the tail ends k records at or past C: k boundary duplicates */
    MM2_BND_BEHIND,    /* the tail ends k records before C: the target lacks them */
    MM2_BND_UNPLACED,  /* the tail matches no place of the window, or the target is empty */
    MM2_BND_AMBIGUOUS, /* the tail matches at several places: a longer tail decides */
    MM2_BND_GONE,      /* records the comparison needs are gone (log start, compaction) */
    MM2_BND_EMPTY,     /* nothing to compare: target empty, no source record below C */
    MM2_BND_UNREAD,    /* the reader's byte budget ended a read first (set by the reader) */
};

struct mm2_bnd_result {
    enum mm2_bnd_class cls;
    size_t tail_len; /* records of the tail compared */
    size_t matches;  /* places of the window the whole tail matched */
    uint64_t k;      /* AHEAD, BEHIND: the records past C, or missing below C */
    /* The target offsets of the tail; -1 when it is empty. */
    int64_t tail_first, tail_last;
    /* Placed (ALIGNED, AHEAD, BEHIND): the source offsets the tail matched. -1 otherwise. */
    int64_t src_first, src_last;
    /* Where MM2 must start so nothing is lost: C, or for BEHIND the offset after src_last
     * (the first missing record; M = resume_at - 1). -1 when not placed. */
    int64_t resume_at;
    /* UNPLACED: the first tail record that differs from the source record it would be if
     * the tail were aligned, by offset and short digest; -1 and "" when there is none (the
     * source has no record there: src offset -1). */
    int64_t mismatch_target, mismatch_source;
    char mismatch_target_digest[MM2_BND_DIGEST_LEN + 1];
    char mismatch_source_digest[MM2_BND_DIGEST_LEN + 1];
    /* The source offsets searched: the first and last record of the window, -1 when none. */
    int64_t window_first, window_last;
    char why[MM2_BND_WHY_MAX]; /* UNPLACED, AMBIGUOUS, GONE, EMPTY, UNREAD: why, in a phrase */
};

/* True when a and b are the same record under opts (offsets are not compared). */
bool mm2_bnd_equal(const struct mm2_record *a, const struct mm2_record *b,
                   const struct mm2_bnd_opts *opts);

/* How many places of w the whole tail (t records) matches, in order and without a gap; the
 * index in w->recs of the last record of the last match in *end (when any and end != NULL).
 * t == 0 matches nowhere. */
size_t mm2_bnd_find(const struct mm2_record *tail, size_t t, const struct mm2_bnd_window *w,
                    const struct mm2_bnd_opts *opts, size_t *end);

/* Classifies one partition whose group committed C, from the target's tail (t records, the
 * last ones; t above MM2_BND_TAIL_MAX uses the last MM2_BND_TAIL_MAX) and the source window.
 * Always fills *out; returns false only when the inputs break the contract (window offsets
 * not increasing, C negative), with out->why saying which. */
bool mm2_bnd_classify(int64_t c, const struct mm2_record *tail, size_t t,
                      const struct mm2_bnd_window *w, const struct mm2_bnd_opts *opts,
                      struct mm2_bnd_result *out);

/* "aligned", "ahead", "behind", "unplaced", "ambiguous", "gone", "empty", "unread"; NULL for a
 * value out of the table. */
const char *mm2_bnd_class_name(enum mm2_bnd_class cls);
/* The class of a name above; false when it is none. */
bool mm2_bnd_class_parse(const char *name, enum mm2_bnd_class *out);

/* The short digest of a record's key and value (with the null flags), as evidence never shows
 * bytes: MM2_BND_DIGEST_LEN lowercase hex digits. "" when OpenSSL fails. */
void mm2_bnd_digest(const struct mm2_record *r, char out[MM2_BND_DIGEST_LEN + 1]);

#endif
