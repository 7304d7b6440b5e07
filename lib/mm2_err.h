/*
 * mm2_err: the one exit-code table (docs/ARCHITECTURE.md §5) and a caller-owned error value.
 *
 * Contract:
 *   - enum mm2_status is the exit-code table of every binary. It is never renumbered; new codes
 *     are only ever appended (curl's CURLcode rule).
 *   - struct mm2_error is owned by the caller (usually on main's stack); nothing here allocates.
 *   - A fallible lib function returns an enum mm2_status and, on failure, fills a struct
 *     mm2_error. Each layer above adds its context with mm2_error_prefix, giving messages like
 *     "PATCH /connectors/x/offsets: HTTP 409: stale configuration". Only main prints them.
 *   - Messages never overflow msg[]: a message that does not fit is cut and ends in "...".
 */
#ifndef MM2_ERR_H
#define MM2_ERR_H

#include <stddef.h>

enum mm2_status {
    MM2_OK = 0,
    MM2_CHECK_FAILED = 1,    /* check negative: probe unhealthy, plan refused, verify mismatch */
    MM2_USAGE = 2,           /* bad command line */
    MM2_CONFIG = 3,          /* invalid configuration or environment */
    MM2_UNREACHABLE = 4,     /* a dependency unreachable or timed out */
    MM2_UNEXPECTED = 5,      /* a dependency answered something unexpected */
    MM2_DIFFERS = 7,         /* the connector differs from its file (mm2-offsets diff) */
    MM2_EXEC_NOEXEC = 126,   /* exec failed: not executable (shell convention) */
    MM2_EXEC_NOTFOUND = 127, /* exec failed: not found (shell convention) */
};

#define MM2_ERROR_MSG_MAX 1024

struct mm2_error {
    enum mm2_status code;
    char msg[MM2_ERROR_MSG_MAX];
};

/* Short static text for a status, e.g. "invalid configuration". Never NULL: an out-of-table value
 * gives "unknown status". The returned string is static; do not free it. */
const char *mm2_status_text(enum mm2_status status);

/* Sets err->code = code and err->msg from fmt (replacing any previous message).
 * Returns code, so callers can write `return mm2_error_set(err, MM2_CONFIG, "...")`.
 * err may be NULL (the code is still returned). */
enum mm2_status mm2_error_set(struct mm2_error *err, enum mm2_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends the formatted context and ": " to err->msg, keeping err->code. A message that no
 * longer fits is cut and marked with a trailing "...". Returns err->code. err may be NULL
 * (returns MM2_OK). */
enum mm2_status mm2_error_prefix(struct mm2_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Resets err to MM2_OK with an empty message. err may be NULL. */
void mm2_error_clear(struct mm2_error *err);

/* Formats a short reason into the caller's buffer `why` (for the *_valid
 * style checks that return bool and explain a refusal).  NULL or a zero
 * length is allowed and writes nothing; a long reason is cut. */
void mm2_whyf(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
