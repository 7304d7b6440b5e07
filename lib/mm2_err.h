/* mm2_err: the one exit-code table of every mm2kit binary (DESIGN §6) and the
 * error value that lib/ functions fill instead of printing.
 *
 * Codes are only ever appended, never renumbered.  A struct mm2_error is owned
 * by the caller; each layer adds its context in front with mm2_error_prefix,
 * so main prints one line such as
 *   "PATCH /connectors/x/offsets: HTTP 409: stale configuration".
 */
#ifndef MM2_ERR_H
#define MM2_ERR_H

#include <stddef.h>

enum mm2_status {
    MM2_OK = 0,
    MM2_CHECK_FAILED = 1, /* probe unhealthy, plan refused, verify mismatch */
    MM2_USAGE = 2,
    MM2_CONFIG = 3,        /* invalid configuration or environment */
    MM2_UNREACHABLE = 4,   /* a dependency unreachable or timed out */
    MM2_UNEXPECTED = 5,    /* a dependency answered something unexpected */
    MM2_EXEC_NOEXEC = 126, /* exec failed: not executable */
    MM2_EXEC_NOTFOUND = 127,
};

#define MM2_ERROR_MSG_MAX 1024

struct mm2_error {
    enum mm2_status code;
    char msg[MM2_ERROR_MSG_MAX];
};

/* The table's text for `code`; "unknown status" for a value not in it. */
const char *mm2_status_text(enum mm2_status code);

/* Sets code and message (printf format).  A message that does not fit ends
 * in "...".  Returns `code`, so callers may `return mm2_error_set(...)`. */
enum mm2_status mm2_error_set(struct mm2_error *err, enum mm2_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Puts "<context>: " in front of the message; the code is kept.  Truncates
 * at the end (marked "...") when the whole no longer fits. */
void mm2_error_prefix(struct mm2_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void mm2_error_clear(struct mm2_error *err);

#endif
