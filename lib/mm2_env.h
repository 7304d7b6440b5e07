/* mm2_env: reading the environment, and a list that collects every problem
 * so a program reports all of them in one run instead of one per restart.
 *
 * Returned strings point into the environment: never free them, and do not
 * setenv/unsetenv the same name while holding one.
 */
#ifndef MM2_ENV_H
#define MM2_ENV_H

#include <stddef.h>

#define MM2_PROBLEMS_MAX 32
#define MM2_PROBLEM_LEN 512

struct mm2_problems {
    size_t n;
    char line[MM2_PROBLEMS_MAX][MM2_PROBLEM_LEN];
    size_t dropped; /* problems past MM2_PROBLEMS_MAX, counted only */
};

/* Adds one problem (printf format); a long one is cut and ends in "...". */
void mm2_problems_add(struct mm2_problems *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The value of `name`, or NULL when unset. */
const char *mm2_env_get(const char *name);

/* A required variable: the value, or NULL after adding
 * "NAME is not set; set it to <expected>" (unset) or
 * "NAME is empty; set it to <expected>" (set to ""). */
const char *mm2_env_required(const char *name, const char *expected, struct mm2_problems *p);

/* The value, or `dflt` when unset.  A variable set to "" counts as set and
 * returns "", so the caller's validation reports it. */
const char *mm2_env_optional(const char *name, const char *dflt);

#endif
