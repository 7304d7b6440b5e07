/*
 * mm2_refusal: the list of refusals a rule adds to. A refusal is one line, "<topic>-<partition>:
 * <what, with the numbers>; <what to do> [rule <id>]", or without the partition for a rule about
 * the whole migration (docs/ARCHITECTURE.md §6).
 *
 * Contract:
 *   - Never prints, never exits. The list owns its lines; mm2_refusals_free releases them and
 *     accepts NULL and a zeroed list.
 *   - A line longer than MM2_REFUSAL_LEN - 1 is cut and ends in "...". A refusal that cannot be
 *     stored (out of memory) sets oom: the list must then never be read as complete.
 */
#ifndef MM2_REFUSAL_H
#define MM2_REFUSAL_H

#include <stdbool.h>
#include <stddef.h>

#define MM2_REFUSAL_LEN 512

struct mm2_refusals {
    char (*line)[MM2_REFUSAL_LEN];
    size_t n;
    size_t cap;
    bool oom; /* a refusal could not be stored: never treat the list as complete */
};

void mm2_refuse(struct mm2_refusals *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mm2_refusals_free(struct mm2_refusals *r);

#endif
