/*
 * mm2_problems: a collector of problem lines, so that a program reports every problem of its
 * configuration (or every unhealthy connector) at once instead of one per run.
 *
 * Contract: struct mm2_problems is caller-owned and zero-initialised ({0}); nothing allocates,
 * nothing prints. It holds up to MM2_PROBLEMS_MAX lines of at most MM2_PROBLEM_LEN - 1
 * characters; a longer line is cut and ends in "...", further problems are counted in dropped.
 */
#ifndef MM2_PROBLEMS_H
#define MM2_PROBLEMS_H

#include <stddef.h>

#define MM2_PROBLEMS_MAX 32
#define MM2_PROBLEM_LEN 512

struct mm2_problems {
    size_t n;
    char line[MM2_PROBLEMS_MAX][MM2_PROBLEM_LEN];
    size_t dropped;
};

/* Appends one formatted problem line (or counts it in p->dropped when p is full). */
void mm2_problems_add(struct mm2_problems *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One problem for each line of text (lines end in \n, an \r before it not counted) longer than
 * max characters, named file:LINE: what a line-based parser (inih) would cut silently. */
void mm2_problems_check_lines(struct mm2_problems *p, const char *text, const char *file,
                              size_t max);

#endif
