/*
 * mm2_env: reading the environment; a missing variable goes into the collector (mm2_problems.h),
 * so a program reports every configuration problem at once instead of one per run
 * (docs/ARCHITECTURE.md §3.2).
 *
 * Contract:
 *   - Returned strings point into the process environment: do not free them, and they are valid
 *     only until that variable is next changed (setenv/unsetenv/putenv).
 *   - Messages name the variable, never print its value: it may be a secret.
 */
#ifndef MM2_ENV_H
#define MM2_ENV_H

#include <stddef.h>

#include "mm2_problems.h"

/* The value of name, or NULL when unset. An empty value is returned as "". */
const char *mm2_env_get(const char *name);

/* The value of name when set and non-empty. Otherwise NULL, after adding to p
 * "NAME is not set; set it to <expected>" (unset) or "NAME is empty; set it to <expected>" (""). */
const char *mm2_env_required(const char *name, const char *expected, struct mm2_problems *p);

/* The value of name, or dflt when unset. An empty value counts as set and is returned as "":
 * "FOO=" is an explicit choice of the empty string, not a request for the default. */
const char *mm2_env_optional(const char *name, const char *dflt);

#endif
