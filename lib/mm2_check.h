/*
 * mm2_check: the comparison check (the subcommand, after resume) makes of two records that must
 * be the same one: the source record at C and the first MM2 wrote, and Flink's last source
 * record and the last target record before MM2's first (docs/ARCHITECTURE.md §2.1). The caller
 * reads the records (mm2_kafka_read); this says which field differs.
 *
 * Contract: never prints, never exits, never talks to the network; returns a static string.
 */
#ifndef MM2_CHECK_H
#define MM2_CHECK_H

#include "mm2_kafka.h"

/* "" when target record t is a copy of source record s, else the first field that differs:
 * "key", "value" (a null and an empty one differ), "headers" (count, order, names, values) or
 * "timestamp" (compared only when both are CreateTime: MirrorSourceTask keeps the source's, but a
 * LogAppendTime topic on either side rewrites it). Offsets are never compared. */
const char *mm2_check_differs(const struct mm2_record *s, const struct mm2_record *t);

#endif
