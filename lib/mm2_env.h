/*
 * mm2_env: reading the environment, and a collector so a program reports every configuration
 * problem at once instead of one per run (docs/ARCHITECTURE.md §3.2).
 *
 * Contract:
 *   - Returned strings point into the process environment: do not free them, and they are valid
 *     only until that variable is next changed (setenv/unsetenv/putenv).
 *   - struct mm2_problems is caller-owned and zero-initialised ({0}); nothing allocates. It holds
 *     up to MM2_PROBLEMS_MAX lines of at most MM2_PROBLEM_LEN - 1 characters; a longer line is cut
 *     and ends in "...", further problems are counted in dropped.
 *   - Messages name the variable, never print its value: it may be a secret.
 */
#ifndef MM2_ENV_H
#define MM2_ENV_H

#include <stddef.h>

#define MM2_PROBLEMS_MAX 32
#define MM2_PROBLEM_LEN 512

struct mm2_problems {
    size_t n;
    char line[MM2_PROBLEMS_MAX][MM2_PROBLEM_LEN];
    size_t dropped;
};

/* The value of name, or NULL when unset. An empty value is returned as "". */
const char *mm2_env_get(const char *name);

/* Appends one formatted problem line (or counts it in p->dropped when p is full). */
void mm2_problems_add(struct mm2_problems *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The value of name when set and non-empty. Otherwise NULL, after adding to p
 * "NAME is not set; set it to <expected>" (unset) or "NAME is empty; set it to <expected>" (""). */
const char *mm2_env_required(const char *name, const char *expected, struct mm2_problems *p);

/* The value of name, or dflt when unset. An empty value counts as set and is returned as "":
 * "FOO=" is an explicit choice of the empty string, not a request for the default. */
const char *mm2_env_optional(const char *name, const char *dflt);

#endif
